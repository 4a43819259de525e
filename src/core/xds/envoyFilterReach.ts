// Whether each EnvoyFilter patch takes effect on some proxy of the mesh. istiod applies what
// matches and silently skips the rest (its only trace is the pilot_envoy_filter_status
// metric), so a mistyped listener name or context does nothing at all. This generates the
// config of the proxies a filter selects, with its patches, until every patch has taken
// effect somewhere; a patch that took effect on none is reported (analysis, envoyfilter.PatchReachAnalyzer).
import type { ConfigView } from '../config/configView.ts';
import type { Resource } from '../document/types.ts';
import type { Proxy } from './types.ts';
import { KINDS } from '../document/kinds.ts';
import { podServiceAccount } from '../config/workloads.ts';
import { listProxies, proxyForPod, type ProxyRef } from './proxy.ts';
import { pushContext } from './pushContext.ts';
import { envoyFiltersForProxy, rawProxyMetadata, wrapperOf } from './envoyfilter/select.ts';
import { generateWithPatches } from './generate.ts';
import { IMPLEMENTED } from './envoyfilter/apply.ts';
import type { PatchWrapper } from './envoyfilter/wrapper.ts';
import { describePatch } from './envoyfilter/describe.ts';
import { VALUE_TYPES, type ApplyTo } from './envoyfilter/wrapper.ts';
import { checkEnvoyResource, type ProtoProblem } from './proto/check.ts';

/**
 * What became of one patch over the mesh:
 * - `applied`: it changed the config of some proxy;
 * - `no-proxy`: its EnvoyFilter selects no proxy of the files;
 * - `proxy-mismatch`: its `match.proxy` (version or metadata) fits none of the proxies selected;
 * - `no-match`: it reached proxies (`proxies` of them) and matched nothing in their config;
 * - `bootstrap`: a BOOTSTRAP patch, which istiod no longer applies to any proxy (it removed
 *   bootstrap discovery in Istio 1.21, commit f6337a9d "agent: remove BDS");
 * - `unknown`: not decided (more proxies than the limit).
 */
export type PatchReach = 'applied' | 'no-proxy' | 'proxy-mismatch' | 'no-match' | 'bootstrap' | 'unknown';

export interface PatchReachResult {
  index: number;
  reach: PatchReach;
  /** Proxies whose config was generated with the patch in reach (for no-match). */
  proxies: number;
  /** The patch in a few words (applyTo, operation and its match). */
  summary: string;
  applyTo: PatchWrapper['applyTo'];
}

/** Proxies generated at most per check: beyond, an undecided patch is `unknown` (never a false "applies to no proxy"). */
export const REACH_PROXY_LIMIT = 24;

/**
 * Replicas of one workload get the same config but for their addresses: one stands for all.
 * Metadata a patch matches on (NODE_NAME, …) is part of the key when some patch reads it.
 */
function representativeKey(ref: ProxyRef, metadataKeys: readonly string[], metadata: () => Record<string, string>): string {
  const pod = ref.pod;
  const meta = metadataKeys.length > 0 ? metadata() : {};
  return JSON.stringify([
    ref.type,
    pod.namespace,
    pod.derivedFrom ? `${pod.derivedFrom.kind}/${pod.derivedFrom.name}` : pod.name,
    Object.entries(pod.labels).sort(),
    Object.entries(pod.annotations).sort(),
    podServiceAccount(pod),
    metadataKeys.map((k) => meta[k] ?? ''),
  ]);
}

/** Each EnvoyFilter of the view with what became of each of its patches (by spec.configPatches index). */
export function envoyFilterReach(view: ConfigView, limit = REACH_PROXY_LIMIT): Map<Resource, PatchReachResult[]> {
  const out = new Map<Resource, PatchReachResult[]>();
  const filters = view.list(KINDS.EnvoyFilter);
  if (filters.length === 0) return out;
  // By patch: the wrappers are made once per EnvoyFilter body (select.ts wrapperOf), so every proxy's selection hands back the same objects.
  interface State {
    selected: boolean;
    proxyMatched: boolean;
    applied: boolean;
    proxies: number;
    undecided: boolean;
  }
  const states = new Map<PatchWrapper, State>();
  const stateOf = (p: PatchWrapper): State => {
    let s = states.get(p);
    if (!s) states.set(p, (s = { selected: false, proxyMatched: false, applied: false, proxies: 0, undecided: false }));
    return s;
  };
  const rootNamespace = pushContext(view).mesh.rootNamespace;
  const metadataKeys = [...new Set(filters.flatMap((f) => wrapperOf(f).patches.flatMap((p) => Object.keys(p.match.proxy?.metadata ?? {}))))].sort();
  const seen = new Set<string>();
  let generated = 0;
  for (const ref of listProxies(view)) {
    let proxy: Proxy | undefined;
    const proxyOf = (): Proxy => (proxy ??= proxyForPod(view, ref));
    const key = representativeKey(ref, metadataKeys, () => rawProxyMetadata(proxyOf()));
    if (seen.has(key)) continue;
    seen.add(key);
    const merged = envoyFiltersForProxy(view, proxyOf(), rootNamespace);
    if (merged.all.length === 0) continue;
    // Only a proxy some undecided patch reaches is worth generating.
    let worth = false;
    for (const { patch, proxyMatched } of merged.all) {
      const s = stateOf(patch);
      s.selected = true;
      if (proxyMatched) s.proxyMatched = true;
      if (proxyMatched && !s.applied && IMPLEMENTED.has(patch.applyTo)) worth = true;
    }
    if (!worth) continue;
    if (generated >= limit) {
      for (const { patch, proxyMatched } of merged.all) if (proxyMatched && !stateOf(patch).applied) stateOf(patch).undecided = true;
      continue;
    }
    generated++;
    const run = generateWithPatches(view, proxyOf()).patches;
    for (const { patch, proxyMatched } of merged.all) {
      if (!proxyMatched) continue;
      const s = stateOf(patch);
      s.proxies++;
      if (run?.applied.has(patch)) s.applied = true;
    }
  }
  for (const f of filters) {
    const results: PatchReachResult[] = [];
    for (const p of wrapperOf(f).patches) {
      const s = states.get(p);
      const summary = describePatch(p);
      let reach: PatchReach;
      if (p.applyTo === 'BOOTSTRAP') reach = 'bootstrap';
      else if (!IMPLEMENTED.has(p.applyTo)) reach = 'unknown';
      else if (!s?.selected) reach = 'no-proxy';
      else if (s.applied) reach = 'applied';
      else if (s.undecided) reach = 'unknown';
      else if (!s.proxyMatched) reach = 'proxy-mismatch';
      else reach = 'no-match';
      results.push({ index: p.index, reach, proxies: s?.proxies ?? 0, summary, applyTo: p.applyTo });
    }
    out.set(f, results);
  }
  return out;
}

/** A patch value's problems under the strict proto3-JSON check (proto/check.ts) against the message its applyTo names. */
export interface PatchValueProblems {
  index: number;
  /** The Envoy message the value is read as (`envoy.config.cluster.v3.Cluster`). */
  type: string;
  problems: ProtoProblem[];
}

/**
 * Every config patch value of the EnvoyFilter checked as Envoy reads it. istiod's webhook
 * decodes each value into its message (pkg/config/xds BuildXDSObjectFromStruct): a value that
 * does not decode is refused, unknown fields are warned about; this names each problem and
 * where it is. Deprecations and the protos' validation rules are left out (not the decoding).
 */
export function envoyFilterValueProblems(f: Resource): PatchValueProblems[] {
  const spec = f.body.spec;
  const patches =
    typeof spec === 'object' && spec !== null && Array.isArray((spec as Record<string, unknown>).configPatches)
      ? ((spec as Record<string, unknown>).configPatches as unknown[])
      : [];
  const out: PatchValueProblems[] = [];
  patches.forEach((raw, index) => {
    if (typeof raw !== 'object' || raw === null) return;
    const cp = raw as Record<string, unknown>;
    const applyTo = (cp.applyTo ?? cp.apply_to) as ApplyTo | undefined;
    const patch = cp.patch;
    if (typeof applyTo !== 'string' || typeof patch !== 'object' || patch === null) return;
    const value = (patch as Record<string, unknown>).value;
    const type = VALUE_TYPES[applyTo];
    if (!type || typeof value !== 'object' || value === null || Array.isArray(value)) return;
    const problems = checkEnvoyResource(value, type, { constraints: false, deprecations: false, maxProblems: 20 });
    if (problems.length > 0) out.push({ index, type, problems });
  });
  return out;
}
