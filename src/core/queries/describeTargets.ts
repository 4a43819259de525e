// The `describeTargets` view: the pods a resource selects, for "Describe selected pods" in
// the editor's context menu. A pod selects itself; a controller its pods; a Service, a
// policy, a Sidecar or an EnvoyFilter by its selector (none: its namespace, or the mesh from
// the root namespace); a DestinationRule by its workloadSelector, else through its host's
// Service; an AuthorizationPolicy with targetRefs through the Services it targets; an Istio
// Gateway by its selector, in every namespace.
import type { Resource } from '../document/types.ts';
import { KINDS, kindById, type KindInfo } from '../document/kinds.ts';
import { isObj, str, type Obj } from '../document/read.ts';
import type { ConfigView } from '../config/configView.ts';
import { toLabelMap, type LabelMap } from '../config/labels.ts';
import { podIndex, podsSelectedBy } from '../config/workloads.ts';
import { resolveShortname } from '../xds/hostname.ts';
import { refOf } from './describe/routes.ts';
import { argBag, optString, sourceLocation, type QueryState } from './common.ts';
import { parseResourceKey } from './resource.ts';
import type { DescribeTargetsResult } from './describeViews.ts';

/** Kinds "Describe selected pods" reads, and where each keeps its workload selector. */
const POLICY_SELECTOR: ReadonlyArray<{ kind: KindInfo; path: readonly string[] }> = [
  { kind: KINDS.PeerAuthentication, path: ['selector', 'matchLabels'] },
  { kind: KINDS.AuthorizationPolicy, path: ['selector', 'matchLabels'] },
  { kind: KINDS.RequestAuthentication, path: ['selector', 'matchLabels'] },
  { kind: KINDS.Telemetry, path: ['selector', 'matchLabels'] },
  { kind: KINDS.WasmPlugin, path: ['selector', 'matchLabels'] },
  { kind: KINDS.Sidecar, path: ['workloadSelector', 'labels'] },
  { kind: KINDS.EnvoyFilter, path: ['workloadSelector', 'labels'] },
];

const CONTROLLERS: readonly KindInfo[] = [KINDS.Deployment, KINDS.StatefulSet, KINDS.DaemonSet, KINDS.ReplicaSet, KINDS.Job, KINDS.CronJob];

/** Every kind whose resources the context menu may describe from. */
export const DESCRIBE_TARGET_KINDS: readonly KindInfo[] = [
  KINDS.Pod,
  ...CONTROLLERS,
  KINDS.Service,
  KINDS.DestinationRule,
  KINDS.Gateway,
  ...POLICY_SELECTOR.map((s) => s.kind),
];

const MAX_PODS = 500;

function spec(r: Resource): Obj {
  return isObj(r.body.spec) ? r.body.spec : {};
}

function at(o: Obj, path: readonly string[]): unknown {
  let cur: unknown = o;
  for (const p of path) cur = isObj(cur) ? cur[p] : undefined;
  return cur;
}

const byKey = (a: Resource, b: Resource) =>
  a.namespace !== b.namespace ? (a.namespace < b.namespace ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/** The pods of a Service's selector (none for a Service without one). */
function servicePods(view: ConfigView, svc: Resource): Resource[] {
  const sel = toLabelMap(spec(svc).selector);
  return Object.keys(sel).length === 0 ? [] : podsSelectedBy(view, sel, svc.namespace);
}

/** A host's Kubernetes Service (`name.namespace.svc.<domain>`), if the workspace has it. */
function hostService(view: ConfigView, host: string, namespace: string): Resource | undefined {
  const fqdn = resolveShortname(host, namespace, view.meshConfig.trustDomain || 'cluster.local');
  const m = /^([^.]+)\.([^.]+)\.svc(?:\.|$)/.exec(fqdn);
  return m ? view.find(KINDS.Service, m[2] as string, m[1] as string) : undefined;
}

/** The pods a resource selects, and how. */
export function selectedPods(view: ConfigView, r: Resource): { pods: Resource[]; how: string } {
  const root = view.meshConfig.rootNamespace || 'istio-system';
  const kind = r.gvk;
  const is = (k: KindInfo) => kind.group === k.group && kind.kind === k.kind;
  if (is(KINDS.Pod)) return { pods: [r], how: 'the pod itself' };
  if (CONTROLLERS.some(is)) {
    const derived = podIndex(view).all.filter(
      (p) => p.derivedFrom?.kind === kind.kind && p.derivedFrom.namespace === r.namespace && p.derivedFrom.name === r.name,
    );
    const sel = toLabelMap(at(spec(r), ['selector', 'matchLabels']));
    const matching = Object.keys(sel).length > 0 ? podsSelectedBy(view, sel, r.namespace).filter((p) => !p.synthetic) : [];
    return { pods: [...new Set([...derived, ...matching])], how: `the ${kind.kind}'s pods` };
  }
  if (is(KINDS.Service)) return { pods: servicePods(view, r), how: 'its selector' };
  if (is(KINDS.Gateway)) {
    const sel = toLabelMap(spec(r).selector);
    return { pods: Object.keys(sel).length === 0 ? [] : podsSelectedBy(view, sel), how: 'its selector (gateway pods of any namespace)' };
  }
  if (is(KINDS.DestinationRule)) {
    const ws = toLabelMap(at(spec(r), ['workloadSelector', 'matchLabels']));
    if (Object.keys(ws).length > 0) return { pods: podsSelectedBy(view, ws, r.namespace === root ? undefined : r.namespace), how: 'its workloadSelector' };
    const svc = hostService(view, str(spec(r).host), r.namespace);
    return svc ? { pods: servicePods(view, svc), how: `the pods of its host's Service ${svc.namespace}/${svc.name}` } : { pods: [], how: 'its host' };
  }
  const policy = POLICY_SELECTOR.find((p) => is(p.kind));
  if (!policy) return { pods: [], how: `a ${kind.kind} selects no pods` };
  const targets = Array.isArray(spec(r).targetRefs) ? (spec(r).targetRefs as unknown[]).filter(isObj) : [];
  if (targets.length > 0) {
    const pods = targets.flatMap((t) => {
      const svc = str(t.kind) === 'Service' ? view.find(KINDS.Service, str(t.namespace) || r.namespace, str(t.name)) : undefined;
      return svc ? servicePods(view, svc) : [];
    });
    return { pods: [...new Set(pods)], how: 'the pods of the Services it targets' };
  }
  const sel: LabelMap = toLabelMap(at(spec(r), policy.path));
  const ns = r.namespace === root ? undefined : r.namespace;
  if (Object.keys(sel).length === 0) {
    const pods = ns === undefined ? [...podIndex(view).all] : [...(podIndex(view).byNamespace.get(ns) ?? [])];
    return { pods, how: ns === undefined ? 'no selector, in the root namespace: every pod' : `no selector: every pod of namespace ${ns}` };
  }
  return { pods: podsSelectedBy(view, sel, ns), how: ns === undefined ? 'its selector, in every namespace (root namespace)' : 'its selector' };
}

/** The resource written at a file line: of those in the file whose document holds the line, the last that starts at or above it. */
export function resourceAt(state: QueryState, file: string, line: number): Resource | undefined {
  let best: { r: Resource; line: number } | undefined;
  for (const kind of DESCRIBE_TARGET_KINDS) {
    for (const r of state.view.list(kind)) {
      if (r.synthetic || r.source?.file !== file) continue;
      const loc = sourceLocation(r, state);
      if (!loc || line < loc.startLine || line > loc.endLine) continue;
      if (!best || (loc.startLine <= line && loc.startLine > best.line)) best = { r, line: loc.startLine };
    }
  }
  return best?.r;
}

export function answerDescribeTargets(raw: unknown, state: QueryState): DescribeTargetsResult {
  const bag = argBag(raw);
  const key = optString(bag, 'resource');
  const file = optString(bag, 'file');
  const line = typeof bag.line === 'number' && Number.isFinite(bag.line) ? bag.line : undefined;
  let r: Resource | undefined;
  if (key !== undefined) {
    const parsed = parseResourceKey(key);
    const info = parsed && kindById(parsed.kindId);
    r = parsed && info ? state.view.find(info, parsed.namespace, parsed.name) : undefined;
  } else if (file !== undefined && line !== undefined) r = resourceAt(state, file, line);
  if (!r) return { resource: null, pods: [], total: 0, how: '' };
  const { pods, how } = selectedPods(state.view, r);
  const sorted = [...pods].filter((p) => p.synthetic !== 'placeholder' || p === r).sort(byKey);
  return {
    resource: refOf(r),
    pods: sorted.slice(0, MAX_PODS).map((p) => ({ key: p.key, id: `${p.namespace}/${p.name}` })),
    total: sorted.length,
    how,
  };
}
