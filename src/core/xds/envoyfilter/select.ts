// Which EnvoyFilter patches reach a proxy (pilot/pkg/model/push_context.go EnvoyFilters and
// envoyfilter.go proxyMatch): the filters of the mesh root namespace and of the proxy's config
// namespace that ShouldAttachPolicy lets through (workloadSelector, or targetRefs for Gateway
// API gateways and waypoints), ordered by priority, root namespace first, creation time, then
// name.namespace; then each patch whose proxy match (version regex, metadata) fits.
import type { ConfigView } from '../../config/configView.ts';
import { KINDS } from '../../document/kinds.ts';
import type { Proxy } from '../types.ts';
import { policyMatcherForProxy, shouldAttachPolicy } from '../authz/selection.ts';
import { envoyFilterWrapper, type ApplyTo, type EnvoyFilterWrapper, type PatchWrapper } from './wrapper.ts';

export interface MergedPatches {
  /** The selected EnvoyFilters, in the order istiod merges them. */
  filters: EnvoyFilterWrapper[];
  /** Patches by applyTo, in application order, after the proxy match. */
  byApplyTo: Map<ApplyTo, PatchWrapper[]>;
  /** Every patch of the selected filters, with whether its proxy match let it through. */
  all: { patch: PatchWrapper; proxyMatched: boolean }[];
  /** The version the proxy matches were made against. */
  proxyVersion: string;
}

const wrappers = new WeakMap<object, EnvoyFilterWrapper>();

/** The EnvoyFilter as istiod reads it, made once per body. */
export function wrapperOf(r: Parameters<typeof envoyFilterWrapper>[0]): EnvoyFilterWrapper {
  let w = wrappers.get(r.body);
  if (!w || w.resource !== r) {
    w = envoyFilterWrapper(r);
    wrappers.set(r.body, w);
  }
  return w;
}

/** sortEnvoyFilters: the per-namespace order. */
function sortInNamespace(a: EnvoyFilterWrapper, b: EnvoyFilterWrapper): number {
  if (a.priority !== b.priority) return a.priority - b.priority;
  if (a.creationTime !== b.creationTime) return a.creationTime - b.creationTime;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The raw node metadata istiod compares `match.proxy.metadata` with (string values only). */
export function rawProxyMetadata(proxy: Proxy): Record<string, string> {
  const out: Record<string, string> = {};
  const pod = proxy.workload;
  const spec = pod && typeof pod.body.spec === 'object' && pod.body.spec !== null ? (pod.body.spec as Record<string, unknown>) : undefined;
  const containers = spec && Array.isArray(spec.containers) ? spec.containers : [];
  for (const c of containers) {
    if (typeof c !== 'object' || c === null || (c as Record<string, unknown>).name !== 'istio-proxy') continue;
    const env = (c as Record<string, unknown>).env;
    for (const e of Array.isArray(env) ? env : []) {
      const ev = e as Record<string, unknown>;
      if (typeof ev.name === 'string' && ev.name.startsWith('ISTIO_META_') && typeof ev.value === 'string') out[ev.name.slice('ISTIO_META_'.length)] = ev.value;
    }
  }
  const set = (k: string, v: string | undefined) => {
    if (v !== undefined && v !== '') out[k] = v;
  };
  set('ISTIO_VERSION', proxy.istioVersion);
  set('CLUSTER_ID', proxy.clusterId);
  set('NAMESPACE', proxy.namespace);
  set('INTERCEPTION_MODE', proxy.interceptionMode);
  set('WORKLOAD_NAME', proxy.workloadName);
  set('NODE_NAME', proxy.nodeName);
  set('SERVICE_ACCOUNT', proxy.serviceAccount);
  set('NETWORK', proxy.network);
  set('MESH_ID', proxy.metadata.meshId);
  return out;
}

/** proxyMatch. */
export function proxyMatches(proxy: Proxy, p: PatchWrapper, meta: Record<string, string> = rawProxyMetadata(proxy)): boolean {
  const pm = p.match.proxy;
  if (!pm) return true;
  const v = p.proxyVersion;
  if (v.kind === 'never') return false;
  if (v.kind === 'prefix' && !proxy.istioVersion.startsWith(v.prefix)) return false;
  if (v.kind === 'regex') {
    if (proxy.istioVersion === '' || !v.re.test(proxy.istioVersion)) return false;
  }
  for (const [k, want] of Object.entries(pm.metadata)) {
    if (meta[k] !== want) return false;
  }
  return true;
}

/** The EnvoyFilters of one namespace that attach to the proxy, in that namespace's order. */
function matchedIn(
  list: readonly EnvoyFilterWrapper[],
  proxy: Proxy,
  rootNamespace: string,
  flags: { enableSelectorBasedK8sGatewayPolicy?: boolean },
): EnvoyFilterWrapper[] {
  const matcher = policyMatcherForProxy({ namespace: proxy.configNamespace, labels: proxy.labels, type: proxy.type }, { rootNamespace });
  return list.filter((w) => shouldAttachPolicy(matcher, w.namespace, { selector: w.selector, targetRef: undefined, targetRefs: w.targetRefs }, flags));
}

/** PushContext.EnvoyFilters(proxy), over the workspace's EnvoyFilters. */
export function envoyFiltersForProxy(
  view: ConfigView,
  proxy: Proxy,
  rootNamespace: string,
  flags: { enableSelectorBasedK8sGatewayPolicy?: boolean } = {},
): MergedPatches {
  const wrappers: EnvoyFilterWrapper[] = [];
  for (const r of view.list(KINDS.EnvoyFilter)) {
    if (r.namespace === rootNamespace || r.namespace === proxy.configNamespace) wrappers.push(wrapperOf(r));
  }
  return mergeEnvoyFilters(wrappers, proxy, rootNamespace, flags);
}

/** PushContext.EnvoyFilters(proxy) over already converted EnvoyFilters. */
export function mergeEnvoyFilters(
  wrappers: readonly EnvoyFilterWrapper[],
  proxy: Proxy,
  rootNamespace: string,
  flags: { enableSelectorBasedK8sGatewayPolicy?: boolean } = {},
): MergedPatches {
  const byNs = new Map<string, EnvoyFilterWrapper[]>();
  for (const w of wrappers) {
    const list = byNs.get(w.namespace) ?? [];
    list.push(w);
    byNs.set(w.namespace, list);
  }
  for (const list of byNs.values()) list.sort(sortInNamespace);
  return mergeFromIndex(byNs, proxy, rootNamespace, flags);
}

/** The per-namespace order istiod keeps its index in (priority, creation time, name). */
export function sortEnvoyFilters(list: EnvoyFilterWrapper[]): EnvoyFilterWrapper[] {
  return list.sort(sortInNamespace);
}

/** EnvoyFilters(proxy) over istiod's index (namespace → sorted filters), as its tests build one. */
export function mergeFromIndex(
  byNs: ReadonlyMap<string, readonly EnvoyFilterWrapper[]>,
  proxy: Proxy,
  rootNamespace: string,
  flags: { enableSelectorBasedK8sGatewayPolicy?: boolean } = {},
): MergedPatches {
  let matched: EnvoyFilterWrapper[] = [];
  if (rootNamespace !== '') matched = matchedIn(byNs.get(rootNamespace) ?? [], proxy, rootNamespace, flags);
  if (proxy.configNamespace !== rootNamespace) matched.push(...matchedIn(byNs.get(proxy.configNamespace) ?? [], proxy, rootNamespace, flags));
  matched.sort((a, b) => {
    if (a.priority !== b.priority) return a.priority - b.priority;
    if (a.namespace !== b.namespace && (a.namespace === rootNamespace || b.namespace === rootNamespace)) return a.namespace === rootNamespace ? -1 : 1;
    if (a.creationTime !== b.creationTime) return a.creationTime - b.creationTime;
    const an = `${a.name}.${a.namespace}`;
    const bn = `${b.name}.${b.namespace}`;
    return an < bn ? -1 : an > bn ? 1 : 0;
  });
  const byApplyTo = new Map<ApplyTo, PatchWrapper[]>();
  const all: MergedPatches['all'] = [];
  const meta = rawProxyMetadata(proxy);
  for (const w of matched) {
    for (const p of w.patches) {
      const ok = proxyMatches(proxy, p, meta);
      all.push({ patch: p, proxyMatched: ok });
      if (!ok) continue;
      const list = byApplyTo.get(p.applyTo) ?? [];
      list.push(p);
      byApplyTo.set(p.applyTo, list);
    }
  }
  return { filters: matched, byApplyTo, all, proxyVersion: proxy.istioVersion };
}

/** The patches of one applyTo (empty when none). */
export function patchesFor(m: MergedPatches | undefined, applyTo: ApplyTo): readonly PatchWrapper[] {
  return m?.byApplyTo.get(applyTo) ?? [];
}

/** patchContextMatch / commonConditionMatch. */
export function contextMatches(ctx: string, p: PatchWrapper): boolean {
  return p.match.context === ctx || p.match.context === 'ANY';
}
