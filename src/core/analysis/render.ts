// Turns analyzer messages into located diagnostics: rendered text, origin, istioctl's
// reference line, and the exact range of the field for the editor.
import type { Diagnostic, Resource, SourceDocument, SourceRange } from '../document/types.ts';
import { locateInDocument, locateWithParser, parseFieldPath, trimmedStartLine } from '../document/locate.ts';
import type { AnalysisMessage } from './types.ts';
import { goSprintf } from '../go/fmt.ts';
import { docUrl } from './messages.ts';
import { friendlyName } from './origin.ts';

export type DocumentLookup = (file: string, docIndex: number) => SourceDocument | undefined;

export interface Location {
  line?: number;
  range?: SourceRange;
}

function lineRange(line: number): SourceRange {
  return { startLine: line, startCol: 1, endLine: line, endCol: 1000 };
}

/**
 * istioctl's line and our editor range for a field of a resource. `highlightPath`, when
 * given, decides the range (the line stays istioctl's, from `fieldPath`).
 */
export function locateResourceField(
  resource: Resource,
  fieldPath: string | undefined,
  lookup: DocumentLookup,
  highlightPath?: string,
  highlightOccurrence?: number,
): Location {
  const at = locateIstioField(resource, fieldPath, lookup);
  if (!highlightPath) return at;
  const precise = locateIstioField(resource, highlightPath, lookup, highlightOccurrence);
  return precise.matched && precise.range ? { line: at.line, range: precise.range } : { line: at.line, range: at.range };
}

/**
 * A derived pod's field as a path in its controller's pod template: the pod's labels,
 * annotations and spec come from there; its other fields (name, status) have no place in
 * the file, and the message points at the controller.
 */
function templateField(fieldPath: string | undefined, templatePath: readonly string[]): string | undefined {
  if (fieldPath === undefined) return undefined;
  const mapped = /^(metadata\.(labels|annotations)|spec)([.[]|$)/.test(fieldPath);
  return mapped ? `${templatePath.join('.')}.${fieldPath}` : undefined;
}

function locateIstioField(resource: Resource, path: string | undefined, lookup: DocumentLookup, occurrence?: number): Location & { matched?: boolean } {
  const src = resource.source;
  if (!src) return {};
  const fieldPath = src.templatePath ? templateField(path, src.templatePath) : path;
  const doc = lookup(src.file, src.docIndex);
  if (!doc) return { line: src.isJson ? undefined : src.line };
  const prefix: Array<string | number> = src.itemIndex !== undefined ? ['items', src.itemIndex] : [];
  // Reference line of the resource itself (a List item has its own, with istioctl's offset).
  let refLine = doc.referenceLine;
  let itemFileLine: number | undefined;
  let docRange: SourceRange = lineRange(doc.referenceLine);
  if (src.itemIndex !== undefined) {
    const item = locateInDocument(doc, prefix);
    if (item?.exact) {
      itemFileLine = item.value.startLine;
      refLine = itemFileLine - trimmedStartLine(doc) + 1 + doc.referenceLine;
      docRange = lineRange(itemFileLine);
    }
  }
  const jsonLine = (l: number | undefined) => (doc.isJson ? undefined : l);
  if (!fieldPath) return { line: jsonLine(refLine), range: docRange };
  const segs = prefix.length > 0 ? [...prefix, ...parseFieldPath(fieldPath)] : parseFieldPath(fieldPath);
  const loc = occurrence === undefined ? locateInDocument(doc, segs) : locateWithParser(doc, segs, occurrence);
  if (!loc) return { line: jsonLine(refLine), range: docRange };
  const range: SourceRange =
    loc.key && loc.scalar
      ? { startLine: loc.key.startLine, startCol: loc.key.startCol, endLine: loc.value.endLine, endCol: loc.value.endCol }
      : (loc.key ?? loc.value);
  if (!loc.exact || !loc.scalar) return { line: jsonLine(refLine), range, matched: loc.exact };
  // istioctl maps scalar fields to the value's line, counted from the trimmed chunk.
  const fieldLine = itemFileLine !== undefined ? loc.value.startLine - itemFileLine + refLine : loc.value.startLine - trimmedStartLine(doc) + doc.referenceLine;
  return { line: jsonLine(fieldLine), range, matched: true };
}

/** The analyzer message each rendered diagnostic came from (quick fixes read its parameters). */
const sourceMessages = new WeakMap<Diagnostic, AnalysisMessage>();

export function messageBehind(d: Diagnostic): AnalysisMessage | undefined {
  return sourceMessages.get(d);
}

/** Records the message behind a diagnostic that was reused or moved rather than rendered anew. */
export function rememberMessage(d: Diagnostic, m: AnalysisMessage): void {
  sourceMessages.set(d, m);
}

/** `ranges` false: the diagnostic's line only (its range is what locating the highlighted field costs). */
export function renderMessage(m: AnalysisMessage, analyzer: string | undefined, lookup: DocumentLookup, ranges = true): Diagnostic {
  const r = m.resource;
  const loc = !r?.source
    ? undefined
    : ranges
      ? locateResourceField(r, m.fieldPath, lookup, m.highlightPath, m.highlightOccurrence)
      : { line: locateIstioField(r, m.fieldPath, lookup).line };
  // One literal with every field (absent ones undefined): a fixed shape keeps each of the
  // thousands of kept diagnostics compact and fast to read.
  const d: Diagnostic = {
    level: m.type.level,
    code: m.type.code,
    message: goSprintf(m.type.template, m.params),
    origin: r ? friendlyName(r) : undefined,
    resourceKey: r?.key,
    file: r?.source?.file,
    line: loc?.line,
    range: loc?.range,
    fieldPath: r ? m.fieldPath : undefined,
    analyzer,
    docUrl: docUrl(m.type.code),
    cluster: r?.cluster,
    derivedFrom: r?.derivedFrom ? `${r.derivedFrom.kind} ${r.derivedFrom.namespace}/${r.derivedFrom.name}` : undefined,
    source: 'analyzer',
  };
  sourceMessages.set(d, m);
  return d;
}

/** The reference istioctl prints after the origin: `file:line`, or just `file` for JSON. */
export function reference(d: Diagnostic): string | undefined {
  if (!d.file) return undefined;
  return d.line !== undefined ? `${d.file}:${d.line}` : d.file;
}
