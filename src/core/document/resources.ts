// Turns parsed documents into resources: kind lookup, `List` expansion, metadata.
import type { Diagnostic, GroupVersionKind, KindJudge, Resource, SourceDocument } from './types.ts';
import { kindByGroupKind, splitApiVersion, versionAccepted } from './kinds.ts';
import { duplicateKeyNotice, PARSER_CODES, type DuplicateKey, type ParsedDocument } from './parse.ts';
import { str, stringMap } from './read.ts';
import { PairCache } from './maps.ts';
import { stringMapProblems } from './stringMaps.ts';
import { goJsonValueType } from '../go/format.ts';
import { isObj as isObject } from './read.ts';

/** One shared GroupVersionKind object per apiVersion and kind. */
const gvkCache = new PairCache<{ gvk: GroupVersionKind; kindId: string; known: boolean }>(4096);

function gvkOf(apiVersion: string, kind: string): { gvk: GroupVersionKind; kindId: string; known: boolean } {
  return gvkCache.get(apiVersion, kind, () => {
    const { group, version } = splitApiVersion(apiVersion);
    return { gvk: Object.freeze({ group, version, kind }), ...kindIdOf(apiVersion, kind) };
  });
}

/** Registry id of a document's kind, or `unknown:<group>/<Kind>` when we don't know it. */
export function kindIdOf(apiVersion: string, kind: string): { kindId: string; known: boolean } {
  const { group, version } = splitApiVersion(apiVersion);
  const info = kindByGroupKind(group, kind);
  if (info && versionAccepted(info, version)) return { kindId: info.id, known: true };
  return { kindId: `unknown:${group || 'core'}/${kind}@${version}`, known: false };
}

export function makeResource(body: Record<string, unknown>, doc: SourceDocument | undefined, itemIndex?: number): Resource {
  const apiVersion = str(body.apiVersion);
  const kind = str(body.kind);
  const { gvk, kindId } = gvkOf(apiVersion, kind);
  const meta = isObject(body.metadata) ? body.metadata : {};
  // A name or namespace of the wrong type (a mapping, a list) reads as empty.
  const namespace = str(meta.namespace);
  const name = str(meta.name);
  const r: Resource = {
    // join() makes one flat string (a template literal would keep a tree of parts alive).
    key: [kindId, namespace, name].join('/'),
    kindId,
    gvk,
    namespace,
    name,
    labels: stringMap(meta.labels),
    annotations: stringMap(meta.annotations),
    body,
  };
  if (doc) {
    r.source =
      itemIndex !== undefined
        ? { file: doc.file, docIndex: doc.index, itemIndex, line: doc.referenceLine, isJson: doc.isJson }
        : { file: doc.file, docIndex: doc.index, line: doc.referenceLine, isJson: doc.isJson };
  }
  return r;
}

function notK8s(doc: SourceDocument, what: string): Diagnostic {
  return {
    level: 'Error',
    code: PARSER_CODES.notK8s,
    message: `${what} is not a Kubernetes object: it needs string fields "apiVersion" and "kind". It was not analyzed.`,
    file: doc.file,
    line: doc.referenceLine,
    range: { startLine: doc.referenceLine, startCol: 1, endLine: doc.referenceLine, endCol: 200 },
    source: 'parser',
  };
}

/**
 * A List whose `items` is not a list. kubectl decodes a document with `items` as an
 * UnstructuredList (apimachinery unstructured/helpers.go decodeToList: `Items
 * []json.RawMessage`), so it refuses the whole document (cli-runtime's visitor: `unable to
 * decode "FILE": …`) and applies nothing in it.
 */
function badListItems(doc: SourceDocument, items: unknown): Diagnostic {
  return {
    level: 'Error',
    code: PARSER_CODES.badList,
    message: `This List's "items" is a ${goJsonValueType(items)}, not a list: kubectl refuses the document (unable to decode "${doc.file}": json: cannot unmarshal ${goJsonValueType(items)} into Go struct field decodeList.items of type []json.RawMessage). Nothing in it was analyzed.`,
    file: doc.file,
    line: doc.referenceLine,
    range: { startLine: doc.referenceLine, startCol: 1, endLine: doc.referenceLine, endCol: 200 },
    source: 'parser',
  };
}

/** `{configs: [{"@type": "type.googleapis.com/envoy.admin.v3.…ConfigDump"}, …]}`: Envoy's /config_dump or istioctl proxy-config all -o json. */
export function isEnvoyConfigDump(value: Record<string, unknown>): boolean {
  const configs = value.configs;
  if (!Array.isArray(configs) || configs.length === 0) return false;
  return configs.every((c) => isObject(c) && typeof c['@type'] === 'string' && /^type\.googleapis\.com\/envoy\.admin\.v3\.\w+ConfigDump$/.test(c['@type']));
}

/** `List`, or a typed list such as `PodList` (kubectl expands both). */
export function isListKind(kind: string): boolean {
  return kind === 'List' || (kind.endsWith('List') && kind.length > 4);
}

/** The editor path of a field (`spec.http[0].timeout`, `metadata.labels["app.kubernetes.io/name"]`). */
function editorPathOf(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[^.[\]"']+$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `["${seg}"]`;
  }
  return out;
}

/**
 * Gives the document's duplicate keys to the resources they are in (Istio's kinds, whose
 * validation reports them); the others become parser warnings.
 */
function placeDuplicates(parsed: ParsedDocument, out: { resources: Resource[]; problems: Diagnostic[] }): { resources: Resource[]; problems: Diagnostic[] } {
  const dups = parsed.duplicateKeys;
  if (!dups || dups.length === 0) return out;
  const left: DuplicateKey[] = [];
  for (const d of dups) {
    const p = d.path;
    const r =
      p === undefined
        ? out.resources.length === 1 && out.resources[0]?.source?.itemIndex === undefined
          ? out.resources[0]
          : undefined
        : out.resources.find((x) => (x.source?.itemIndex === undefined ? true : p[0] === 'items' && p[1] === x.source.itemIndex));
    if (!r || r.kindId.startsWith('unknown:') || !r.gvk.group.endsWith('istio.io')) {
      left.push(d);
      continue;
    }
    const rel = p === undefined ? undefined : r.source?.itemIndex === undefined ? p : p.slice(2);
    const entry = rel === undefined || rel.length === 0 ? { message: d.message } : { path: editorPathOf(rel), occurrence: d.occurrence, message: d.message };
    r.duplicateKeys = [...(r.duplicateKeys ?? []), entry];
  }
  if (left.length === 0) return out;
  return { resources: out.resources, problems: [...out.problems, ...left.map((d) => duplicateKeyNotice(parsed.doc, d))] };
}

/** Resources of one parsed document, plus problems about its shape. */
export function resourcesOf(parsed: ParsedDocument, judgeKind: KindJudge): { resources: Resource[]; problems: Diagnostic[] } {
  const shaped = shapeOf(parsed, judgeKind);
  return parsed.duplicateKeys ? placeDuplicates(parsed, shaped) : shaped;
}

function shapeOf(parsed: ParsedDocument, judgeKind: KindJudge): { resources: Resource[]; problems: Diagnostic[] } {
  const { doc, value } = parsed;
  if (value === undefined || value === null) return { resources: [], problems: [] };
  if (!isObject(value)) return { resources: [], problems: [notK8s(doc, 'This document')] };
  const kind = value.kind;
  if (typeof value.apiVersion !== 'string' || typeof kind !== 'string' || !value.apiVersion || !kind) {
    // An Envoy config dump kept in the workspace (the Proxy config tab compares it with the generated config).
    if (isEnvoyConfigDump(value)) return { resources: [], problems: [] };
    return { resources: [], problems: [notK8s(doc, 'This document')] };
  }
  if (isListKind(kind) && value.items !== undefined && value.items !== null && !Array.isArray(value.items)) {
    return { resources: [], problems: [badListItems(doc, value.items)] };
  }
  // `items: null` is an empty list to kubectl (the decoded Items slice is nil).
  if (isListKind(kind) && value.items === null) return { resources: [], problems: [] };
  const items = listItemsAsRead(value);
  if (items) {
    const resources: Resource[] = [];
    const problems: Diagnostic[] = [];
    items.forEach((item, i) => {
      if (isObject(item) && typeof item.apiVersion === 'string' && typeof item.kind === 'string') {
        const rejected = stringMapProblemsOf(doc, item, ['items', i]);
        if (rejected.length > 0) problems.push(...rejected);
        else resources.push(makeResource(item, doc, i));
      } else {
        problems.push(notK8s(doc, `Item ${i} of this ${kind}`));
      }
    });
    return { resources, problems };
  }
  const rejected = stringMapProblemsOf(doc, value, []);
  if (rejected.length > 0) return { resources: [], problems: rejected };
  return { resources: [makeResource(value, doc)], problems: judgeKind(doc, value.apiVersion, kind) };
}

/**
 * The items of a List or typed list (`PodList`, `SecretList`) as kubectl reads them, or undefined
 * when `value` is no list with an `items` list. The API server leaves kind and apiVersion out of
 * the items it lists, and apimachinery's unstructured decodeToList gives an item with neither the
 * list's apiVersion and the list's kind without `List`. An item with either of its own, and every
 * item of a plain `List`, is left as written.
 */
export function listItemsAsRead(value: Record<string, unknown>): unknown[] | undefined {
  const kind = value.kind;
  if (typeof kind !== 'string' || !isListKind(kind) || !Array.isArray(value.items)) return undefined;
  const itemKind = kind.slice(0, -'List'.length);
  const apiVersion = typeof value.apiVersion === 'string' ? value.apiVersion : '';
  return value.items.map((item) => (isObject(item) ? withListKind(item, apiVersion, itemKind) : item));
}

function withListKind(item: Record<string, unknown>, apiVersion: string, itemKind: string): Record<string, unknown> {
  // GetKind and GetAPIVersion read a value that is not a string as empty.
  const written = (v: unknown) => typeof v === 'string' && v !== '';
  if (itemKind === '' || written(item.kind) || written(item.apiVersion)) return item;
  return { ...item, apiVersion, kind: itemKind };
}

/** Problems of an object kubectl would refuse for a non-string value in a string map (see stringMaps.ts). */
function stringMapProblemsOf(doc: SourceDocument, value: Record<string, unknown>, pathPrefix: ReadonlyArray<string | number>): Diagnostic[] {
  const apiVersion = value.apiVersion as string;
  const kind = value.kind as string;
  const { gvk, kindId, known } = gvkOf(apiVersion, kind);
  if (!known) return [];
  return stringMapProblems(doc, value, kindId, kind, gvk.group, pathPrefix);
}
