// "Suppress with annotation": add the message code to the resource's
// `galley.istio.io/analyze-suppress` annotation (Kiali's `kiali.io/ignore-validations` for a
// KIA code), creating the annotation (and the annotations map) when missing. Items are joined
// with a bare comma, as Istio compares them exactly (Kiali trims them). Works on the current
// text of a file, so the UI can compute it on demand.
import { str } from '../../document/read.ts';
import type { Diagnostic, QuickFix } from '../../document/types.ts';
import { splitDocuments } from '../../document/split.ts';
import { isListKind } from '../../document/resources.ts';
import { SUPPRESS_ANNOTATION } from '../suppress.ts';
import { IGNORE_VALIDATIONS_ANNOTATION } from '../packs/kiali/ignore.ts';
import { isKialiCode } from '../packs/kiali/codes.ts';

/** The annotation that silences `code` on its resource: Kiali's for a KIA code, else Istio's. */
export function suppressionAnnotation(code: string): string {
  return isKialiCode(code) ? IGNORE_VALIDATIONS_ANNOTATION : SUPPRESS_ANNOTATION;
}
import { DocumentEditor, Quoted, type YamlPath } from './yamlEdit.ts';
import { isObj } from '../../document/read.ts';

/** `Kind ns/name` or `Kind name` → name. */
function nameFromOrigin(origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  const rest = origin.slice(origin.indexOf(' ') + 1);
  return rest.slice(rest.indexOf('/') + 1);
}

/**
 * The edit that suppresses `d` on its resource in `text` (the file's current content), or
 * undefined when the resource cannot be found there or the code is already suppressed.
 */
export function suppressionForText(file: string, text: string, d: Pick<Diagnostic, 'code' | 'range' | 'line' | 'origin' | 'source'>): QuickFix | undefined {
  if (d.source !== 'analyzer' || !d.origin) return undefined;
  const line = d.range?.startLine ?? d.line;
  if (line === undefined) return undefined;
  const docs = splitDocuments(file, text);
  let doc = docs[0];
  for (const x of docs) if (x.startLine <= line) doc = x;
  if (!doc) return undefined;
  const ed = DocumentEditor.for(doc);
  if (!ed) return undefined;
  let prefix: YamlPath = [];
  const root = ed.valueAt([]);
  if (isObj(root) && Array.isArray(root.items) && typeof root.kind === 'string' && isListKind(root.kind)) {
    const i = ed.itemIndexAtLine(['items'], line);
    if (i === undefined) return undefined;
    prefix = ['items', i];
  }
  const obj = ed.valueAt(prefix);
  const meta = isObj(obj) && isObj(obj.metadata) ? obj.metadata : undefined;
  // Make sure this is the resource the message is about.
  if (!meta || str(meta.name) !== nameFromOrigin(d.origin)) return undefined;
  const annotations = isObj(meta.annotations) ? meta.annotations : {};
  const annotation = suppressionAnnotation(d.code);
  const kiali = annotation === IGNORE_VALIDATIONS_ANNOTATION;
  const existing = annotations[annotation];
  const title = `Suppress ${d.code} on ${d.origin} with an annotation`;
  const path = [...prefix, 'metadata', 'annotations', annotation];
  if (existing !== undefined && existing !== null) {
    // Kiali: an empty value already ignores every code; items are trimmed.
    if (kiali && str(existing).trim() === '') return undefined;
    const items = str(existing)
      .split(',')
      .map((s) => (kiali ? s.trim() : s))
      .filter((s) => s !== '');
    if (items.includes(d.code) || (!kiali && items.includes('*'))) return undefined;
    const edit = ed.replaceScalar(path, [...items, d.code].join(','), { quote: 'double' });
    return edit ? { title, edits: [edit] } : undefined;
  }
  const edit = ed.addMapEntry([...prefix, 'metadata', 'annotations'], annotation, new Quoted(d.code));
  return edit ? { title, edits: [edit] } : undefined;
}
