// Fields Kubernetes decodes as map[string]string (labels, annotations, selectors, ConfigMap
// data), and the object's name, generateName and namespace, which it decodes as strings.
// kubectl reads YAML as YAML 1.1 (yamlSchema.ts), so an unquoted `yes`, `on` or `1.0`
// there is a boolean or a number, and decoding fails: kubectl rejects the object, and
// istioctl analyze skips it with "Error(s) adding files". We say so on the value's line and
// leave the object out, as istioctl does. Istio's own kinds are not checked here: the schema
// layer (validation/schema.ts) reports the same fields for them, as IST0106.
import type { Diagnostic, SourceDocument } from './types.ts';
import { locateInDocument } from './locate.ts';
import { isObj, keySegment, valueAt } from './read.ts';

/** The code of the problem (a parser problem: the object is not read). */
export const STRING_EXPECTED_CODE = 'MWB-STRING-EXPECTED';

type Path = ReadonlyArray<string>;

/** String fields of ObjectMeta a manifest writes (kubectl decodes them as Go strings too). */
const METADATA_STRINGS: readonly Path[] = [
  ['metadata', 'name'],
  ['metadata', 'generateName'],
  ['metadata', 'namespace'],
];

const METADATA_MAPS: readonly Path[] = [
  ['metadata', 'labels'],
  ['metadata', 'annotations'],
];

const TEMPLATE_MAPS: readonly Path[] = [
  ['spec', 'template', 'metadata', 'labels'],
  ['spec', 'template', 'metadata', 'annotations'],
  ['spec', 'selector', 'matchLabels'],
  ['spec', 'template', 'spec', 'nodeSelector'],
];

/** The string maps of a kind, besides its metadata's. */
const MAPS_BY_KIND: Readonly<Record<string, readonly Path[]>> = {
  'core/Pod': [['spec', 'nodeSelector']],
  'core/Service': [['spec', 'selector']],
  'core/ConfigMap': [['data']],
  'core/Secret': [['data'], ['stringData']],
  'apps/Deployment': TEMPLATE_MAPS,
  'apps/StatefulSet': TEMPLATE_MAPS,
  'apps/DaemonSet': TEMPLATE_MAPS,
  'apps/ReplicaSet': TEMPLATE_MAPS,
  'batch/Job': TEMPLATE_MAPS,
  'batch/CronJob': [
    ['spec', 'jobTemplate', 'spec', 'template', 'metadata', 'labels'],
    ['spec', 'jobTemplate', 'spec', 'template', 'metadata', 'annotations'],
  ],
};

/** Every string map of a kind, its metadata's first (one list per kind, built once). */
const ALL_MAPS_BY_KIND = new Map<string, readonly Path[]>(Object.entries(MAPS_BY_KIND).map(([k, paths]) => [k, [...METADATA_MAPS, ...paths]]));

function mapsOf(kindId: string): readonly Path[] {
  return ALL_MAPS_BY_KIND.get(kindId) ?? METADATA_MAPS;
}

/** A path as kubectl and the editor write it (`metadata.labels.version`, `["app.kubernetes.io/name"]` for keys with dots). */
function pathText(path: Path): string {
  return (path[0] ?? '') + path.slice(1).map(keySegment).join('');
}

/** What the value is, in the words of the message. */
function describeValue(v: unknown, written: string | undefined): string {
  const shown = written !== undefined && written !== '' ? `the unquoted ${written}` : 'the value';
  if (typeof v === 'boolean') {
    const yaml11 = written !== undefined && !/^(true|false)$/i.test(written) ? ' (kubectl reads YAML 1.1, where yes/no, on/off and y/n are booleans)' : '';
    return `${shown} is the boolean ${v}${yaml11}`;
  }
  if (typeof v === 'number') return `${shown} is a number`;
  if (Array.isArray(v)) return 'the value is a list';
  return 'the value is a mapping';
}

/**
 * The problems of one object whose string maps hold other values, with the kind as the message
 * names it (`Deployment`). `pathPrefix` leads to the object inside its document (a List item).
 */
export function stringMapProblems(
  doc: SourceDocument,
  body: Record<string, unknown>,
  kindId: string,
  kindName: string,
  group: string,
  pathPrefix: ReadonlyArray<string | number> = [],
): Diagnostic[] {
  if (group.endsWith('istio.io')) return [];
  const out: Diagnostic[] = [];
  const check = (path: Path, v: unknown) => {
    // null decodes as the empty string; anything else but text fails.
    if (typeof v === 'string' || v === null || v === undefined) return;
    const found = locateInDocument(doc, [...pathPrefix, ...path]);
    const range = found?.exact ? found.value : undefined;
    const written = range && range.startLine === range.endLine ? textAt(doc, range) : undefined;
    const line = range?.startLine ?? doc.referenceLine;
    const quoted = written !== undefined && typeof v !== 'object' ? ` Quote it: "${written.replace(/["\\]/g, '\\$&')}".` : '';
    out.push({
      level: 'Error',
      code: STRING_EXPECTED_CODE,
      message: `kubectl rejects this ${kindName}: ${pathText(path)} must be a string, and ${describeValue(v, written)}.${quoted} It was not analyzed.`,
      file: doc.file,
      line,
      range: range ?? { startLine: line, startCol: 1, endLine: line, endCol: 200 },
      source: 'parser',
    });
  };
  // The object's own name fields first: `name: 1234` or `namespace: no` fail the same way.
  for (const path of METADATA_STRINGS) check(path, valueAt(body, path));
  for (const mapPath of mapsOf(kindId)) {
    const map = valueAt(body, mapPath);
    if (!isObj(map)) continue;
    for (const key of Object.keys(map)) {
      const v = map[key];
      // The path is built only for a value that fails: most maps hold nothing but text.
      if (typeof v !== 'string' && v !== null && v !== undefined) check([...mapPath, key], v);
    }
  }
  return out;
}

/** The document text a one-line range covers. */
function textAt(doc: SourceDocument, r: { startLine: number; startCol: number; endCol: number }): string | undefined {
  const lines = doc.text.split('\n');
  const l = lines[r.startLine - doc.startLine];
  return l === undefined ? undefined : l.slice(r.startCol - 1, r.endCol - 1);
}
