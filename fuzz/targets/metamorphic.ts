// Target `metamorphic`: properties of the whole analysis where no independent reference
// exists. Workspaces are built from real manifests (one or two seed files: our samples and
// fixtures, and Istio's analyzer test inputs in ../shared when present, read in place),
// lightly mutated as the pipeline target mutates them, and spread over one to four files.
//
//  1. Reordering. Shuffling the files, and the documents inside each file (whole documents,
//     with their text), leaves the findings the same: compared as multisets of code, resource
//     (`Kind ns/name`), message, and where the finding is (the document it is on, and its line
//     inside that document: line numbers follow the moved document).
//  2. Renaming a namespace. A namespace that nothing treats specially and whose name appears
//     in the texts only where it means the namespace is renamed everywhere; the findings are
//     the same with the name replaced (columns shift and are not compared).
//
// Istio's own analysis depends on order in a few places; inputs that reach one of them are
// excluded from the reordering property (`reorderExclusion`, `analyzedExclusion`), or have a
// message compared loosely (`mapOrderMessages`), each with the Istio source behind it.
// Everything else that differs is a bug in our analysis.
import fc from 'fast-check';
import jsyaml from 'js-yaml';
import { WorkspaceAnalyzer, type WorkspaceResult } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { YAML_LOAD_OPTIONS } from '../../src/core/document/yamlSchema.ts';
import { KINDS, kindById, IGNORED_NAMESPACES } from '../../src/core/document/kinds.ts';
import { kindIdOf } from '../../src/core/document/resources.ts';
import { splitDocuments } from '../../src/core/document/split.ts';
import type { Diagnostic, WorkspaceFile } from '../../src/core/document/types.ts';
import { copy, mutate, mutationArb, crashSignature, type Mutation } from './pipeline.ts';
import type { Seeds } from '../gen/seeds.ts';
import { FuzzFailure, describeError } from '../failure.ts';
import type { CheckOutcome, CheckOptions, Target, TargetReport } from '../target.ts';

/** A workspace written out (so a corpus entry needs no seed files), and the changes to make. */
export interface MetamorphicCase {
  /** The files in their first order; each is its documents' texts (a `.json` file holds one). */
  files: Array<{ path: string; docs: string[] }>;
  /** The second order: file indexes, and for each file (by its index) its documents' indexes. */
  fileOrder: number[];
  docOrder: number[][];
  /** Which of the namespaces that may be renamed is renamed (modulo their number). */
  renamePick: number;
  includePlaceholders: boolean;
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Any value as text, without calling its own methods (a mapping may have a `toString` key). */
function plain(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? 'undefined';
  } catch {
    return '?';
  }
}

// ---------------------------------------------------------------------------------------
// Inputs

interface SeedFile {
  values: Obj[];
}

let seedFiles: SeedFile[] | undefined;

/** Each seed file's documents as values (only the documents that read as mappings). */
function seedFileValues(seeds: Seeds): SeedFile[] {
  if (!seedFiles) {
    seedFiles = seeds.files
      .map((t, i) => {
        const values: Obj[] = [];
        for (const d of splitDocuments(`seed${i}.yaml`, t)) {
          try {
            const v = jsyaml.load(d.text, YAML_LOAD_OPTIONS);
            if (isObj(v)) values.push(v);
          } catch {
            // a broken seed document is left out
          }
        }
        return { values };
      })
      .filter((f) => f.values.length > 0);
  }
  return seedFiles;
}

/** Keys to sort by → the permutation they give (stable for equal keys), never the identity for two or more. */
function permutation(n: number, keys: readonly number[]): number[] {
  const p = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => (keys[a % Math.max(keys.length, 1)] ?? 0) - (keys[b % Math.max(keys.length, 1)] ?? 0) || a - b,
  );
  // Never the order it was: then every input with two documents moves something.
  return p.every((x, i) => x === i) ? p.reverse() : p;
}

const MAX_DOCS = 30;

function caseArb(seeds: Seeds): fc.Arbitrary<MetamorphicCase> {
  return fc
    .record({
      seedFiles: fc.array(fc.nat(), { minLength: 1, maxLength: 2 }),
      mutations: fc.array(fc.record({ doc: fc.nat(), ops: fc.array(mutationArb, { minLength: 1, maxLength: 2 }) }), { maxLength: 3 }),
      /** A copy of one document, perhaps mutated: duplicates are what Istio itself orders. */
      duplicate: fc.oneof(
        { arbitrary: fc.constant(null), weight: 6 },
        { arbitrary: fc.record({ doc: fc.nat(), ops: fc.array(mutationArb, { maxLength: 1 }) }), weight: 1 },
      ),
      fileCount: fc.integer({ min: 1, max: 4 }),
      assign: fc.array(fc.nat(), { minLength: 1, maxLength: MAX_DOCS }),
      json: fc.boolean(),
      fileKeys: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
      docKeys: fc.array(fc.nat(), { minLength: 1, maxLength: MAX_DOCS }),
      renamePick: fc.nat(),
      includePlaceholders: fc.boolean(),
    })
    .map((r) => {
      const all = seedFileValues(seeds);
      const values: unknown[] = [];
      // A second seed file adds only resources under new keys (Istio's test inputs reuse names
      // from file to file): duplicates come from the mutations and the copy below.
      const keys = new Set<string>();
      r.seedFiles.forEach((s, k) => {
        const own: string[] = [];
        for (const v of (all[s % Math.max(all.length, 1)]?.values ?? []).slice(0, MAX_DOCS)) {
          const key = valueKey(v);
          if (k > 0 && keys.has(key)) continue;
          own.push(key);
          values.push(copy(v));
        }
        for (const key of own) keys.add(key);
      });
      values.splice(MAX_DOCS);
      if (values.length === 0) values.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'empty' } });
      for (const m of r.mutations) {
        const i = m.doc % values.length;
        let v = values[i];
        for (const op of m.ops) v = mutate(v, op as Mutation);
        values[i] = v;
      }
      if (r.duplicate) {
        let v = copy(values[r.duplicate.doc % values.length]);
        for (const op of r.duplicate.ops) v = mutate(v, op as Mutation);
        values.push(v);
      }
      // Spread the documents over the files; a file given exactly one document may be JSON.
      const byFile: unknown[][] = Array.from({ length: r.fileCount }, () => []);
      values.forEach((v, i) => byFile[(r.assign[i % r.assign.length] ?? i) % r.fileCount]!.push(v));
      const files = byFile
        .filter((vs) => vs.length > 0)
        .map((vs, i) => {
          const json = r.json && vs.length === 1 && i === 0;
          const docs = vs.map((v) => (json ? `${JSON.stringify(v, null, 2)}\n` : dump(v)));
          return { path: `${i}-ws.${json ? 'json' : 'yaml'}`, docs };
        })
        .filter((f) => f.docs.every((d) => d.trim() !== ''));
      if (files.length === 0) files.push({ path: '0-ws.yaml', docs: ['apiVersion: v1\nkind: Namespace\nmetadata:\n  name: empty\n'] });
      return {
        files,
        fileOrder: permutation(files.length, r.fileKeys),
        docOrder: files.map((f, i) =>
          permutation(
            f.docs.length,
            r.docKeys.map((k) => k + i),
          ),
        ),
        renamePick: r.renamePick,
        includePlaceholders: r.includePlaceholders,
      };
    });
}

/** kind, namespace and name as written (a List counts by its items). */
function valueKey(v: Obj): string {
  const items = Array.isArray(v.items) ? v.items : [v];
  return items
    .map((item) => {
      const o = isObj(item) ? item : {};
      const meta = isObj(o.metadata) ? o.metadata : {};
      return `${text(o.kind)}/${text(meta.namespace) || 'default'}/${text(meta.name)}`;
    })
    .join(',');
}

function dump(v: unknown): string {
  try {
    return jsyaml.dump(v, { lineWidth: -1, noRefs: true });
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------------------------------
// Workspaces and findings

/** Where each document of a laid-out workspace starts (1-based lines), by file index and document index. */
interface Layout {
  files: WorkspaceFile[];
  /** path → each document's index and first line, in file order. */
  spans: Map<string, Array<{ doc: number; start: number }>>;
}

function lineCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

function layOut(files: MetamorphicCase['files'], fileOrder: readonly number[], docOrder: readonly (readonly number[])[]): Layout {
  const out: WorkspaceFile[] = [];
  const spans: Layout['spans'] = new Map();
  for (const fi of fileOrder) {
    const f = files[fi]!;
    const order = docOrder[fi] ?? f.docs.map((_, i) => i);
    const list: Array<{ doc: number; start: number }> = [];
    let line = 1;
    const parts: string[] = [];
    order.forEach((di) => {
      const t = f.docs[di]!;
      list.push({ doc: di, start: line });
      parts.push(t);
      line += lineCount(t) + 1;
    });
    out.push({ path: f.path, text: parts.join('---\n') });
    spans.set(f.path, list);
  }
  return { files: out, spans };
}

/** The document a line is on and the line's place in it, stable under moves. */
function placeOf(layout: Layout, d: Diagnostic): string {
  if (d.file === undefined || d.line === undefined) return '-';
  const list = layout.spans.get(d.file);
  if (!list) return `${d.file}:${d.line}`;
  // The document starting last at or above the line: a line past a document's text (istioctl
  // counts a List item's field lines one further than the text; see the golden logs) stays
  // with that document, wherever it moves.
  let span = list[0];
  for (const s of list) if (s.start <= d.line) span = s;
  return span ? `${d.file}#${span.doc}+${d.line - span.start}` : `${d.file}:${d.line}`;
}

async function analyze(layout: Layout, includePlaceholders: boolean): Promise<WorkspaceResult> {
  const w = new WorkspaceAnalyzer();
  w.update(layout.files, []);
  const r = await w.run({ ...defaultAnalysisSettings(), includePlaceholders });
  if (r === 'canceled') throw new Error('run canceled without a cancel request');
  return r;
}

function multiset(keys: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

/** What one side has more of than the other, both ways (empty when equal). */
function difference(a: readonly string[], b: readonly string[]): { onlyA: string[]; onlyB: string[] } {
  const ma = multiset(a);
  const mb = multiset(b);
  const onlyA: string[] = [];
  const onlyB: string[] = [];
  for (const [k, n] of ma) for (let i = mb.get(k) ?? 0; i < n; i++) onlyA.push(k);
  for (const [k, n] of mb) for (let i = ma.get(k) ?? 0; i < n; i++) onlyB.push(k);
  return { onlyA, onlyB };
}

// ---------------------------------------------------------------------------------------
// What the documents hold (read with js-yaml, apart from the analysis)

interface DocResource {
  file: number;
  doc: number;
  value: Obj;
  kindId: string;
  kind: string;
  namespace: string;
  name: string;
}

function resourcesOfCase(c: MetamorphicCase): DocResource[] {
  const out: DocResource[] = [];
  c.files.forEach((f, fi) =>
    f.docs.forEach((t, di) => {
      let v: unknown;
      try {
        v = jsyaml.load(t, YAML_LOAD_OPTIONS);
      } catch {
        return;
      }
      if (!isObj(v)) return;
      const kind = text(v.kind);
      const items = (kind === 'List' || (kind.endsWith('List') && kind.length > 4)) && Array.isArray(v.items) ? v.items : [v];
      for (const item of items) {
        if (!isObj(item) || typeof item.apiVersion !== 'string' || typeof item.kind !== 'string') continue;
        const { kindId, known } = kindIdOf(item.apiVersion, item.kind);
        const info = known ? kindById(kindId) : undefined;
        const meta = isObj(item.metadata) ? item.metadata : {};
        // Keyed as the store keys them: a resource without a namespace is in `default`.
        const namespace = info?.clusterScoped ? '' : text(meta.namespace) || 'default';
        out.push({ file: fi, doc: di, value: item, kindId, kind: item.kind, namespace, name: text(meta.name) });
      }
    }),
  );
  return out;
}

/**
 * Why Istio's own analysis of this input depends on the order resources are read in, or
 * undefined. Istio lists a kind in Go map order (krt's static collection: `maps.Values`,
 * pkg/kube/krt/static.go), so an analyzer whose result depends on that order has no single
 * answer there; where it keeps state across resources we cannot hold ours to one either.
 */
export function reorderExclusion(c: MetamorphicCase): string | undefined {
  const rs = resourcesOfCase(c);
  // 1. Two resources with the same key (kind, namespace, name; no namespace is `default`, a
  //    missing or empty name is ''): istioctl applies the files in order and the later one
  //    replaces the earlier (pilot/pkg/config/file/store.go, KubeSource.ApplyContent: Update
  //    on an existing key), unless both have the same text, when the first stays (sha check).
  //    Which one is analyzed, and where its messages point, depends on the order.
  const seen = new Set<string>();
  for (const r of rs) {
    if (!kindById(r.kindId)) continue;
    const key = `${r.kindId}/${r.namespace}/${r.name}`;
    if (seen.has(key)) return `duplicate key ${key}`;
    seen.add(key);
  }
  const ofKind = (kind: string) => rs.filter((r) => r.kind === kind && kindById(r.kindId));
  // 2. injection.Analyzer (pkg/config/analysis/analyzers/injection/injection.go) takes the
  //    first ConfigMap named after the injector in any namespace, and its
  //    enableNamespacesByDefault flag carries over from one Namespace to the next when a
  //    Namespace's revision has no ConfigMap: with two such ConfigMaps of one name, or a
  //    Namespace whose ConfigMap is missing beside one that exists, the order decides.
  const injectorMaps = ofKind('ConfigMap').filter((r) => /^istio-sidecar-injector(-.*)?$/.test(r.name));
  if (injectorMaps.length > 0) {
    const names = injectorMaps.map((r) => r.name);
    if (new Set(names).size < names.length) return 'two injector ConfigMaps of one name (injection.Analyzer takes the first)';
    for (const ns of ofKind('Namespace')) {
      const labels = isObj((ns.value.metadata as Obj | undefined)?.labels) ? ((ns.value.metadata as Obj).labels as Obj) : {};
      const rev = text(labels['istio.io/rev']);
      const cm = rev === '' || rev === 'default' ? 'istio-sidecar-injector' : `istio-sidecar-injector-${rev}`;
      if (!names.includes(cm)) return 'a Namespace without its injector ConfigMap beside one that has it (injection.Analyzer carries the flag over)';
    }
  }
  // 3. envoyfilter.EnvoyPatchAnalyzer (analyzers/envoyfilter/envoyfilter.go) remembers the
  //    names of patches that match a proxy version across EnvoyFilters, in ForEach order, and
  //    a later relative patch of that name gets the proxy-version message instead.
  const filters = ofKind('EnvoyFilter');
  if (filters.length > 1 && filters.some((f) => JSON.stringify(f.value.spec ?? null).includes('"proxyVersion"')))
    return 'EnvoyFilters with a proxyVersion match (EnvoyPatchAnalyzer remembers names in list order)';
  return undefined;
}

/**
 * The same for what only the analyzed mesh shows (pods derived from controllers and the
 * placeholder ingress gateway count as pods, as the analysis sees them).
 *
 * gateway.SecretAnalyzer (analyzers/gateway/secret.go, getGatewayNamespace) looks for a
 * Gateway's credentialName in the namespace of the first pod its selector matches, in
 * ForEach order ("if this is not the case which one's namespace gets returned is
 * undefined"): with matching pods in two namespaces, whether the Secret is found, and so
 * IST0101 or IST0161, depends on the order.
 */
export function analyzedExclusion(r: WorkspaceResult): string | undefined {
  const pods = r.resources.filter((x) => x.kindId === KINDS.Pod.id);
  for (const gw of r.resources) {
    if (gw.kindId !== KINDS.Gateway.id) continue;
    const spec = isObj(gw.body.spec) ? gw.body.spec : {};
    const servers = Array.isArray(spec.servers) ? spec.servers : [];
    if (!servers.some((s) => isObj(s) && isObj(s.tls) && text(s.tls.credentialName) !== '')) continue;
    const selector = isObj(spec.selector) ? spec.selector : {};
    const namespaces = new Set(pods.filter((p) => Object.keys(selector).every((k) => p.labels[k] === plain(selector[k]))).map((p) => p.namespace));
    if (namespaces.size > 1)
      return `Gateway ${gw.namespace}/${gw.name} selects pods in ${[...namespaces].sort().join(', ')} (SecretAnalyzer takes the first pod's namespace)`;
  }
  return undefined;
}

/**
 * Codes whose message Istio picks in map order when one resource takes part in several
 * conflicts: ConflictingMeshGatewayHostsAnalyzer (IST0109) and
 * ConflictingServiceEntryProtocolAnalyzer (IST0177) report each resource once, for the first
 * conflicting key in a Go map (`reported[...]`, virtualservice/conflictingmeshgatewayhosts.go,
 * serviceentry/conflictingserviceentries.go). When a resource is in more than one key, only
 * that it is reported is compared, not which conflict the message names.
 */
function mapOrderMessages(c: MetamorphicCase): Map<string, (message: string) => string> {
  const codes = new Set<string>();
  const out = new Map<string, (message: string) => string>();
  const rs = resourcesOfCase(c);
  // authn.BlockedCIDRsAnalyzer (analyzers/authn/blockedcidrs.go) lists the RequestAuthentications
  // in ForEach order, unsorted, and names only the first five: with two or more, the list
  // is in Go map order (its count is still compared).
  if (rs.filter((r) => r.kind === 'RequestAuthentication').length > 1) out.set('IST0175', (m) => m.replace(/\(.*\)/, '(list in map order)'));
  const list = (v: unknown) => (Array.isArray(v) ? v : []);
  let scoped = false;
  let all = false;
  for (const r of rs.filter((x) => x.kind === 'VirtualService')) {
    const spec = isObj(r.value.spec) ? r.value.spec : {};
    const exportTo = list(spec.exportTo);
    const scopes = exportTo.length === 0 || exportTo.includes('*') ? 1 : new Set(exportTo.map(plain)).size;
    if (exportTo.length === 0 || exportTo.includes('*')) all = true;
    else scoped = true;
    if (scopes * Math.max(list(spec.hosts).length, 1) > 1) codes.add('IST0109');
  }
  if (scoped && all) codes.add('IST0109');
  scoped = false;
  all = false;
  for (const r of rs.filter((x) => x.kind === 'ServiceEntry')) {
    const spec = isObj(r.value.spec) ? r.value.spec : {};
    const exportTo = list(spec.exportTo);
    const scopes = exportTo.length === 0 || exportTo.includes('*') ? 1 : new Set(exportTo.map(plain)).size;
    if (exportTo.length === 0 || exportTo.includes('*')) all = true;
    else scoped = true;
    if (scopes * Math.max(list(spec.hosts).length, 1) * Math.max(list(spec.ports).length, 1) > 1) codes.add('IST0177');
  }
  if (scoped && all) codes.add('IST0177');
  for (const code of codes) out.set(code, () => '(message not compared)');
  return out;
}

// ---------------------------------------------------------------------------------------
// Renaming a namespace

const SPECIAL_NAMESPACES = new Set(['default', 'istio-system', ...IGNORED_NAMESPACES]);
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function tokenRe(ns: string): RegExp {
  return new RegExp(`(?<![A-Za-z0-9_-])${escapeRe(ns)}(?![A-Za-z0-9_-])`, 'g');
}

/** Keys whose value (or list items) is a namespace. */
const NAMESPACE_KEYS = new Set(['namespace', 'namespaces', 'notNamespaces', 'exportTo']);
/** Keys whose value (or list items) is a host, `ns/host`, or a gateway `ns/name`. */
const HOST_KEYS = new Set(['host', 'hosts', 'hostname', 'gateways', 'notHosts']);
const PRINCIPAL_KEYS = new Set(['principals', 'notPrincipals']);

/** True when every whole-token occurrence of `ns` in `s` (found under `key`) means the namespace. */
function meansNamespace(s: string, ns: string, key: string, inNamespaceName: boolean): boolean {
  const e = escapeRe(ns);
  if (s === ns) return NAMESPACE_KEYS.has(key) || inNamespaceName;
  if (HOST_KEYS.has(key)) {
    const label = '(?:\\*|[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)';
    const host = `${label}(?:\\.${label})*\\.${e}(?:\\.svc(?:\\.cluster\\.local)?)?`;
    if (new RegExp(`^${host}$`).test(s)) return true;
    // `ns/host`, `ns/*`, `ns/gateway` (the part after the slash must not hold the name again)
    if (s.startsWith(`${ns}/`) && !tokenRe(ns).test(s.slice(ns.length + 1))) return true;
    return false;
  }
  if (PRINCIPAL_KEYS.has(key)) return new RegExp(`^(?:spiffe://)?[^/]+/ns/${e}/sa/[^/]+$`).test(s) && s.split(ns).length === 2;
  return false;
}

/** Namespace patterns (`prefix*`, `*suffix` under a namespace key: AuthorizationPolicy sources). */
function namespaceGlobs(c: MetamorphicCase): string[] {
  const out: string[] = [];
  const visit = (v: unknown, key: string): void => {
    if (typeof v === 'string') {
      if (NAMESPACE_KEYS.has(key) && v !== '*' && v.includes('*')) out.push(v);
    } else if (Array.isArray(v)) {
      for (const x of v) visit(x, key);
    } else if (isObj(v)) {
      for (const k of Object.keys(v)) visit(v[k], k);
    }
  };
  for (const f of c.files) for (const t of f.docs) visit(load(t), '');
  return out;
}

/** True when a namespace pattern matches `name` (renaming would change what it matches). */
function globTouches(globs: readonly string[], name: string): boolean {
  return globs.some((g) => (g.startsWith('*') && name.endsWith(g.slice(1))) || (g.endsWith('*') && name.startsWith(g.slice(0, -1))) || g === name);
}

function load(t: string): unknown {
  try {
    return jsyaml.load(t, YAML_LOAD_OPTIONS);
  } catch {
    return undefined;
  }
}

/**
 * Namespaces that may be renamed: used by some resource, not special, named only where they
 * mean the namespace, and matched by no namespace pattern.
 */
export function renamable(c: MetamorphicCase): string[] {
  const rs = resourcesOfCase(c);
  const globs = namespaceGlobs(c);
  const candidates = new Set<string>();
  for (const r of rs) {
    if (r.namespace) candidates.add(r.namespace);
    if (r.kind === 'Namespace' && r.name) candidates.add(r.name);
  }
  const out: string[] = [];
  for (const ns of [...candidates].sort()) {
    if (SPECIAL_NAMESPACES.has(ns) || !DNS_LABEL.test(ns) || ns.length < 2 || globTouches(globs, ns)) continue;
    let ok = true;
    const visit = (v: unknown, key: string, inNamespaceName: boolean): void => {
      if (!ok) return;
      if (typeof v === 'string') {
        if (tokenRe(ns).test(v) && !meansNamespace(v, ns, key, inNamespaceName)) ok = false;
      } else if (Array.isArray(v)) {
        for (const x of v) visit(x, key, false);
      } else if (isObj(v)) {
        for (const k of Object.keys(v)) {
          if (tokenRe(ns).test(k)) ok = false;
          visit(v[k], k, false);
        }
      } else if (v !== null && v !== undefined && typeof v !== 'boolean' && tokenRe(ns).test(plain(v))) {
        ok = false;
      }
    };
    // Every document, not only resources: a name may sit in a document we do not read.
    c.files.forEach((f) =>
      f.docs.forEach((t) => {
        let v: unknown;
        try {
          v = jsyaml.load(t, YAML_LOAD_OPTIONS);
        } catch {
          if (tokenRe(ns).test(t)) ok = false;
          return;
        }
        if (isObj(v) && v.kind === 'Namespace' && isObj(v.metadata) && v.metadata.name === ns) {
          const { name, ...rest } = v.metadata;
          void name;
          visit({ ...v, metadata: rest }, '', false);
        } else {
          visit(v, '', false);
        }
      }),
    );
    if (ok) out.push(ns);
  }
  return out;
}

/** A new name of the same length and shape that appears nowhere in the texts. */
function newNameFor(ns: string, texts: readonly string[], globs: readonly string[]): string | undefined {
  for (let shift = 1; shift < 26; shift++) {
    const name = [...ns]
      .map((ch) =>
        /[a-z]/.test(ch) ? String.fromCharCode(97 + ((ch.charCodeAt(0) - 97 + shift) % 26)) : /[0-9]/.test(ch) ? String((Number(ch) + shift) % 10) : ch,
      )
      .join('');
    if (name !== ns && !SPECIAL_NAMESPACES.has(name) && !globTouches(globs, name) && texts.every((t) => !t.includes(name))) return name;
  }
  return undefined;
}

/** Sorts the items of comma-separated lists, which Istio sorts by name (a rename may reorder them). */
function sortLists(s: string): string {
  return s.replace(/[^\s,[\]()"']+(?:, ?[^\s,[\]()"']+)+/g, (m) => m.split(/, ?/).sort().join(','));
}

/** Derived pods' names hash their namespace: name each by its controller and place instead. */
function derivedNames(r: WorkspaceResult): Array<[string, string]> {
  const count = new Map<string, number>();
  const out: Array<[string, string]> = [];
  for (const p of r.resources) {
    if (p.synthetic !== 'derived' || !p.derivedFrom) continue;
    const owner = `${p.derivedFrom.kind}/${p.derivedFrom.namespace}/${p.derivedFrom.name}`;
    const i = count.get(owner) ?? 0;
    count.set(owner, i + 1);
    out.push([p.name, `<pod ${i} of ${owner}>`]);
  }
  // Longest first, so that no name is replaced inside a longer one.
  return out.sort((a, b) => b[0].length - a[0].length);
}

function withDerivedNames(s: string, names: ReadonlyArray<[string, string]>): string {
  for (const [from, to] of names) if (s.includes(from)) s = s.split(from).join(to);
  return s;
}

// ---------------------------------------------------------------------------------------
// The check

/** What the run compared and left out, for its report (kept per worker). */
const counts = { reordered: 0, renamed: 0, findings: 0, renameFindings: 0, noName: 0 };
const excluded = new Map<string, number>();

function bump(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

function category(why: string): string {
  if (why.startsWith('duplicate key')) return 'duplicate key';
  if (why.startsWith('Gateway ')) return 'a Gateway selecting pods in two namespaces';
  return why.replace(/ \(.*$/, '');
}

function metamorphicReport(): TargetReport {
  const n = (x: number) => x.toLocaleString('en-US');
  const left = [...excluded.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${n(v)} ${k}`)
    .join('; ');
  return {
    lines: [
      `reordering: ${n(counts.reordered)} inputs compared (${n(counts.findings)} findings); left out as Istio orders them: ${left || 'none'}`,
      `renaming: ${n(counts.renamed)} inputs compared (${n(counts.renameFindings)} findings); ${n(counts.noName)} with no namespace that may be renamed`,
    ],
    ...(counts.reordered === 0 || counts.renamed === 0
      ? { failure: `a property compared no input (reordering ${counts.reordered}, renaming ${counts.renamed})` }
      : {}),
  };
}

function describe(diff: { onlyA: string[]; onlyB: string[] }, a: string, b: string): string {
  const show = (xs: string[]) =>
    xs
      .slice(0, 6)
      .map((x) => `    ${x.slice(0, 300)}`)
      .join('\n');
  return `only ${a} (${diff.onlyA.length}):\n${show(diff.onlyA)}\n  only ${b} (${diff.onlyB.length}):\n${show(diff.onlyB)}`;
}

export async function checkMetamorphic(c: MetamorphicCase, options: CheckOptions): Promise<CheckOutcome> {
  const t0 = performance.now();
  const identity = c.files.map((_, i) => i);
  const first = layOut(
    c.files,
    identity,
    c.files.map((f) => f.docs.map((_, i) => i)),
  );
  let base: WorkspaceResult;
  try {
    base = await analyze(first, c.includePlaceholders);
  } catch (e) {
    throw new FuzzFailure('crash', `${crashSignature(e)} :: ${describeError(e)}`);
  }
  let checked = false;

  // 1. Reordering
  const why = reorderExclusion(c) ?? analyzedExclusion(base);
  if (why !== undefined) bump(excluded, category(why));
  else {
    const loose = mapOrderMessages(c);
    const keyOf = (layout: Layout) => (d: Diagnostic) =>
      `${d.code} | ${d.origin ?? '-'} | ${loose.get(d.code)?.(d.message) ?? d.message} | ${placeOf(layout, d)}`;
    const second = layOut(c.files, c.fileOrder, c.docOrder);
    let moved: WorkspaceResult;
    try {
      moved = await analyze(second, c.includePlaceholders);
    } catch (e) {
      throw new FuzzFailure('crash', `reordered: ${crashSignature(e)} :: ${describeError(e)}`);
    }
    const diff = difference(base.diagnostics.map(keyOf(first)), moved.diagnostics.map(keyOf(second)));
    if (diff.onlyA.length + diff.onlyB.length > 0)
      throw new FuzzFailure('divergence', `reordering changed the findings:\n  ${describe(diff, 'in the first order', 'after reordering')}`);
    counts.reordered++;
    counts.findings += base.diagnostics.length;
    checked = true;
  }

  // 2. Renaming a namespace
  const names = renamable(c);
  if (names.length === 0) counts.noName++;
  else {
    const ns = names[c.renamePick % names.length]!;
    const to = newNameFor(
      ns,
      c.files.flatMap((f) => f.docs),
      namespaceGlobs(c),
    );
    if (to !== undefined) {
      const re = tokenRe(ns);
      const renamedCase = { ...c, files: c.files.map((f) => ({ path: f.path, docs: f.docs.map((t) => t.replace(re, to)) })) };
      const layout = layOut(
        renamedCase.files,
        identity,
        c.files.map((f) => f.docs.map((_, i) => i)),
      );
      let renamed: WorkspaceResult;
      try {
        renamed = await analyze(layout, c.includePlaceholders);
      } catch (e) {
        throw new FuzzFailure('crash', `renamed ${ns} -> ${to}: ${crashSignature(e)} :: ${describeError(e)}`);
      }
      const baseNames = derivedNames(base);
      const renamedNames = derivedNames(renamed);
      // Both names become one mark on both sides: a message may hold the old name as a plain
      // word too ("Prefer other APIs"), which the renamed run prints unchanged.
      const toRe = tokenRe(to);
      const mark = (s: string) => s.replace(re, '<ns>').replace(toRe, '<ns>');
      const keyOf = (names: ReadonlyArray<[string, string]>) => (d: Diagnostic) =>
        sortLists(mark(withDerivedNames(`${d.code} | ${d.origin ?? '-'} | ${d.message} | ${d.file ?? '-'}:${d.line ?? '-'}`, names)));
      const baseKey = keyOf(baseNames);
      const renamedKey = keyOf(renamedNames);
      const diff = difference(base.diagnostics.map(baseKey), renamed.diagnostics.map(renamedKey));
      if (diff.onlyA.length + diff.onlyB.length > 0)
        throw new FuzzFailure(
          'divergence',
          `renaming namespace ${ns} to ${to} changed the findings:\n  ${describe(diff, 'before (renamed)', 'after renaming')}`,
        );
      counts.renamed++;
      counts.renameFindings += base.diagnostics.length;
      checked = true;
    }
  }
  const ms = performance.now() - t0;
  if (ms > options.timeLimitMs * 3) throw new FuzzFailure('hang', `three analyses took ${ms.toFixed(0)} ms (limit ${options.timeLimitMs * 3} ms)`);
  return checked ? 'ok' : 'skipped';
}

export const metamorphicTarget: Target<MetamorphicCase> = {
  name: 'metamorphic',
  description: 'whole analysis, metamorphic: reordering files and documents, or renaming a namespace, keeps the findings',
  arbitrary: caseArb,
  check: checkMetamorphic,
  async: true,
  smokeRuns: 300,
  report: metamorphicReport,
};
