// The `describe` view: `istioctl x describe pod` for one pod as structured facts
// (describe/describe.ts), istioctl's text beside them, the AuthorizationPolicies in the pod's
// RBAC filters, ztunnel's view of an ambient pod, and every fact's resource resolved to the
// file line of its field, so the page can link each fact to its YAML.
import type { Resource } from '../document/types.ts';
import { KINDS, kindById } from '../document/kinds.ts';
import { locateInDocument, parseFieldPath } from '../document/locate.ts';
import type { ConfigView } from '../config/configView.ts';
import { podIndex } from '../config/workloads.ts';
import { podWorkloadName } from '../config/services.ts';
import { describePod, generatedDump } from './describe/describe.ts';
import { describePodText } from './describe/text.ts';
import { authzCheck } from './describe/authzCheck.ts';
import { refOf } from './describe/routes.ts';
import type { DescribeRef } from './describe/types.ts';
import { ambientFacts } from './describeAmbient.ts';
import { argBag, optString, QueryError, sourceLocation, type QueryState } from './common.ts';
import { parseResourceKey } from './resource.ts';
import type { DescribeAuthzRow, DescribeResult, DescribeSource } from './describeViews.ts';

/** What a controller appends to its pods' names: `-<replicaset hash>-<suffix>` or `-<suffix>`. */
const GENERATED_SUFFIX = /^-[a-z0-9]{1,10}-[a-z0-9]{5}$|^-[a-z0-9]{5}$/;

const byName = (a: Resource, b: Resource) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The pod an argument names: a store key, `ns/name`, or `ns/<controller>` (the controller's
 * first pod by name, as `istioctl x describe` is often given a Deployment's name).
 */
export function resolvePod(view: ConfigView, arg: string): Resource | undefined {
  const parsed = arg.split('/').length === 4 ? parseResourceKey(arg) : undefined;
  let ns: string;
  let name: string;
  if (parsed) {
    if (parsed.kindId !== KINDS.Pod.id) return undefined;
    ({ namespace: ns, name } = parsed);
  } else {
    const slash = arg.indexOf('/');
    if (slash <= 0) return undefined;
    ns = arg.slice(0, slash);
    name = arg.slice(slash + 1);
  }
  const inNs = [...(podIndex(view).byNamespace.get(ns) ?? [])].sort(byName);
  return (
    inNs.find((p) => p.name === name) ??
    inNs.find((p) => p.derivedFrom?.name === name || podWorkloadName(p) === name) ??
    inNs.find((p) => p.name.startsWith(name) && GENERATED_SUFFIX.test(p.name.slice(name.length)))
  );
}

/** The key of a fact's source in `DescribeResult.sources`. */
export function describeSourceKey(ref: DescribeRef): string {
  return ref.fieldPath ? `${ref.resourceKey}#${ref.fieldPath}` : ref.resourceKey;
}

/** The file line of a ref's field (a derived pod's fields are found in its controller's template), else of its resource. */
function locateRef(state: QueryState, ref: DescribeRef): DescribeSource | undefined {
  const parsed = parseResourceKey(ref.resourceKey);
  const info = parsed && kindById(parsed.kindId);
  const res = parsed && info ? state.view.find(info, parsed.namespace, parsed.name) : undefined;
  const loc = res ? sourceLocation(res, state) : undefined;
  const src = res?.source;
  if (!loc || !src) return undefined;
  // A List's item: its own first line, not the List's.
  const out = { file: loc.file, line: src.itemIndex !== undefined ? loc.startLine : loc.line };
  const doc = ref.fieldPath ? state.document(src.file, src.docIndex) : undefined;
  if (doc && !doc.isJson && ref.fieldPath) {
    const prefix: (string | number)[] = src.itemIndex !== undefined ? ['items', src.itemIndex] : [];
    if (src.templatePath) prefix.push(...src.templatePath);
    try {
      const at = locateInDocument(doc, [...prefix, ...parseFieldPath(ref.fieldPath)]);
      if (at) out.line = (at.key ?? at.value).startLine;
    } catch {
      // An unreadable path keeps the resource's line.
    }
  }
  return out;
}

function isRef(v: Record<string, unknown>): v is Record<string, unknown> & DescribeRef {
  return typeof v.resourceKey === 'string' && typeof v.kind === 'string' && typeof v.name === 'string';
}

/** Every ref anywhere in the result, resolved once. */
function collectSources(state: QueryState, root: unknown): Record<string, DescribeSource> {
  const out: Record<string, DescribeSource> = {};
  const seen = new Set<string>();
  const walk = (v: unknown, depth: number) => {
    if (depth > 24 || typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (isRef(o) && o.resourceKey !== '') {
      const key = describeSourceKey(o);
      if (!seen.has(key)) {
        seen.add(key);
        const at = locateRef(state, o);
        if (at) out[key] = at;
      }
    }
    for (const k of Object.keys(o)) walk(o[k], depth + 1);
  };
  walk(root, 0);
  return out;
}

/** The AuthorizationPolicies in the RBAC filters of the pod's generated sidecar config. */
function authorization(view: ConfigView, pod: Resource): DescribeAuthzRow[] {
  const dump = generatedDump(view, pod);
  if (!dump.ok) return [];
  return authzCheck(dump.dump).map((r) => {
    const ap = r.name ? view.find(KINDS.AuthorizationPolicy, r.namespace, r.name) : undefined;
    return { action: r.action, policy: r.policy, rules: r.rules, ...(ap ? { ref: refOf(ap) } : {}) };
  });
}

export function answerDescribe(raw: unknown, state: QueryState): DescribeResult {
  const bag = argBag(raw);
  const arg = optString(bag, 'pod');
  if (arg === undefined || arg.trim() === '') throw new QueryError('The describe query needs a pod (its key, or namespace/name).');
  const view = state.view;
  const pod = resolvePod(view, arg.trim());
  if (!pod) throw new QueryError(`No pod "${arg}" in the workspace (give namespace/name of a pod, or of the Deployment that runs it).`);
  const description = describePod(view, pod, { describeNamespace: pod.namespace });
  const printed = describePodText(description);
  const out: DescribeResult = {
    pod: { key: pod.key, namespace: pod.namespace, name: pod.name },
    description,
    text: printed.text,
    ...(printed.error !== undefined ? { textError: printed.error } : {}),
    authorization: description.pod.hasSidecar ? authorization(view, pod) : [],
    sources: {},
  };
  if (description.pod.meshMode === 'ambient') out.ambient = ambientFacts(view, pod, optString(bag, 'traceFrom'));
  out.sources = collectSources(state, [out.description, out.authorization, out.ambient]);
  // A near miss's reasons point at the field that misses (the label, the host, exportTo).
  for (const a of description.almostApplies) {
    for (const r of a.reasons) {
      if (!('fieldPath' in r)) continue;
      const ref = { ...a.ref, fieldPath: r.fieldPath };
      const at = out.sources[describeSourceKey(ref)] ?? locateRef(state, ref);
      if (at) out.sources[describeSourceKey(ref)] = at;
    }
  }
  // The trace's policies are linked as the Data plane view links them.
  if (out.ambient?.trace) {
    for (const h of out.ambient.trace.hops) {
      for (const p of h.policies ?? []) {
        if (!p.resourceKey || out.ambient.trace.locations[p.resourceKey]) continue;
        const parsed = parseResourceKey(p.resourceKey);
        const info = parsed && kindById(parsed.kindId);
        const r = parsed && info ? view.find(info, parsed.namespace, parsed.name) : undefined;
        const loc = r ? sourceLocation(r, state) : undefined;
        if (loc) out.ambient.trace.locations[p.resourceKey] = loc;
      }
    }
  }
  return out;
}
