// The comparison of the xds oracle (issue #29), shared by `npm run oracle -- xds`
// (scripts/oracle/xds.ts) and the `oracle-xds` fuzz target: both sides' resources of one proxy
// matched by name and compared field by field after normalisation (xdsNormalise.ts), each
// differing resource put under a known cause when one explains every differing field.
//
// Both sides must see the same workloads. Our analysis gives every pod without `status.podIP` an
// address of ours, derives pods from Deployments whose pods are not in the files, and assumes
// Istio's ingress gateway Pod and Service; istiod, which reads a cluster, would see those pods
// with their addresses. So the oracle gets the workspace's files followed by one more file
// (workloadsFile) that writes out every Pod of our view (with its address) and every Service we
// assumed; the oracle takes a later object over an earlier one of the same kind, namespace and name.
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import type { QueryState } from '../../src/core/queries/index.ts';
import { KINDS } from '../../src/core/document/kinds.ts';
import { podAddress, podShape } from '../../src/core/config/workloads.ts';
import { sidecarInjected } from '../../src/core/config/workloadState.ts';
import { assumedServiceIps } from '../../src/core/config/services.ts';
import type { ProtoSchema } from '../../src/core/xds/configdump/protoSchema.ts';
import { parseAllDocuments } from 'yaml';
import { normalise, type Normalisation } from './xdsNormalise.ts';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Obj = { [k: string]: Json };
export const TYPES = ['clusters', 'listeners', 'routes', 'endpoints'] as const;
export type ResourceType = (typeof TYPES)[number];
export type Resources = Record<ResourceType, Map<string, Obj>>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function analyze(files: { path: string; text: string }[]): Promise<QueryState> {
  const w = new WorkspaceAnalyzer();
  w.update(files, []);
  await w.run(defaultAnalysisSettings());
  const s = w.analyzedState();
  if (!s) throw new Error('the files could not be analyzed');
  return s;
}

/** The Pods of our view with their addresses, and the Services we assumed, as Kubernetes YAML (JSON documents). */
export function workloadsFile(state: QueryState): string {
  const docs: unknown[] = [];
  for (const pod of state.view.list(KINDS.Pod)) {
    const body = pod.body;
    const meta = isObj(body.metadata) ? body.metadata : {};
    const status = isObj(body.status) ? body.status : {};
    // A pod our model takes as injected carries the label the injector gives the pods it
    // injects (security.istio.io/tlsMode: istio), as it would once admitted.
    const labels: Record<string, string> = { ...pod.labels };
    if (labels['security.istio.io/tlsMode'] === undefined && sidecarInjected(state.view, podShape(pod)).inject) labels['security.istio.io/tlsMode'] = 'istio';
    docs.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { ...meta, name: pod.name, namespace: pod.namespace, labels, annotations: { ...pod.annotations } },
      spec: isObj(body.spec) ? body.spec : {},
      status: { ...status, podIP: podAddress(state.view, pod) },
    });
  }
  // Services: the ones we assumed, and every Service written without a cluster IP, with the one
  // we allocated (the API server would have given it one; istiod reads it from the Service).
  const ips = assumedServiceIps(state.view);
  for (const svc of state.view.list(KINDS.Service)) {
    const ip = ips.get(svc);
    if (svc.synthetic !== 'placeholder' && ip === undefined) continue;
    const spec = isObj(svc.body.spec) ? svc.body.spec : {};
    docs.push({
      ...svc.body,
      metadata: { ...(isObj(svc.body.metadata) ? svc.body.metadata : {}), name: svc.name, namespace: svc.namespace },
      spec: ip === undefined ? spec : { ...spec, clusterIP: ip, clusterIPs: [ip] },
    });
  }
  return docs.map((d) => JSON.stringify(d)).join('\n---\n') + '\n';
}

function byName(list: Json[] | undefined, name: (o: Obj) => string): Map<string, Obj> {
  const m = new Map<string, Obj>();
  for (const x of list ?? []) {
    if (!isObj(x)) continue;
    const { '@type': _t, ...rest } = x;
    m.set(name(x), rest);
  }
  return m;
}

/** The dynamic resources of our config dump (what istiod sends; the static ones come from the bootstrap). */
export function oursFromDump(dump: unknown): Resources {
  const configs = isObj(dump) && Array.isArray(dump.configs) ? dump.configs.filter(isObj) : [];
  const of = (t: string) => configs.find((c) => c['@type'] === `type.googleapis.com/envoy.admin.v3.${t}`) ?? {};
  const pick = (list: Json | undefined, ...path: string[]): Json[] =>
    (Array.isArray(list) ? list : []).map((x) => path.reduce<Json>((v, k) => (isObj(v) ? (v[k] ?? null) : null), x)).filter((x) => x !== null);
  const name = (o: Obj) => String(o.name ?? '');
  return {
    clusters: byName(pick(of('ClustersConfigDump').dynamicActiveClusters, 'cluster'), name),
    listeners: byName(pick(of('ListenersConfigDump').dynamicListeners, 'activeState', 'listener'), name),
    routes: byName(pick(of('RoutesConfigDump').dynamicRouteConfigs, 'routeConfig'), name),
    endpoints: byName(pick(of('EndpointsConfigDump').dynamicEndpointConfigs, 'endpointConfig'), (o) => String(o.clusterName ?? '')),
  };
}

export function theirsFromOracle(out: Obj): Resources {
  const name = (o: Obj) => String(o.name ?? '');
  const list = (k: string) => (Array.isArray(out[k]) ? (out[k] as Json[]) : []);
  return {
    clusters: byName(list('clusters'), name),
    listeners: byName(list('listeners'), name),
    routes: byName(list('routes'), name),
    endpoints: byName(list('endpoints'), (o) => String(o.clusterName ?? '')),
  };
}

/** Field paths where two values differ (arrays by index), at most `limit`. */
export function fieldDiff(
  a: Json | undefined,
  b: Json | undefined,
  path = '',
  out: { path: string; istiod?: Json; ours?: Json }[] = [],
  limit = 40,
): typeof out {
  if (out.length >= limit) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) fieldDiff(a[i], b[i], `${path}[${i}]`, out, limit);
    return out;
  }
  if (isObj(a) && isObj(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) fieldDiff(a[k], b[k], path ? `${path}.${k}` : k, out, limit);
    return out;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) {
    const short = (v: Json | undefined) => (v !== undefined && JSON.stringify(v).length > 300 ? `${JSON.stringify(v).slice(0, 297)}...` : v);
    out.push({ path, istiod: short(a), ours: short(b) });
  }
  return out;
}

/**
 * Differences whose cause is known and tracked elsewhere. A differing resource is put under the
 * first cause that explains every one of its differing fields; the rest are reported unexplained.
 */
/** What of a workspace's config a known cause needs to know. */
export interface WorkspaceFacts {
  /** The `applyTo` values of its EnvoyFilter patches. */
  applyTo: ReadonlySet<string>;
  /** Hosts written in more than one ServiceEntry of one namespace. */
  sharedServiceEntryHosts: ReadonlySet<string>;
  /** `outbound|PORT||HOST` of each ServiceEntry port written without a protocol (sniffed: "auto"). */
  autoServiceEntryClusters: ReadonlySet<string>;
}

export interface KnownCause {
  id: string;
  why: string;
  /** True when this cause explains one differing field (its path and both values) of the resource `name`. */
  explains: (t: ResourceType, path: string, facts: WorkspaceFacts, field: { istiod?: Json; ours?: Json }, name: string) => boolean;
  /** True when this cause explains a resource only one side has. */
  explainsMissing?: (t: ResourceType, name: string, side: 'istiod' | 'ours', facts: WorkspaceFacts) => boolean;
  /** True when this cause explains the whole difference of a resource both sides have (both normalised), where no field-by-field rule can. */
  explainsResource?: (t: ResourceType, name: string, istiod: Obj, ours: Obj, facts: WorkspaceFacts) => boolean;
}

/** The host of an outbound cluster name (`outbound|PORT|SUBSET|HOST`), or undefined. */
const clusterHost = (name: string): string | undefined => /^outbound\|\d+\|[^|]*\|(.+)$/.exec(name)?.[1];

/** The host of a virtual host name (`host:port`, or `host`). */
const vhostHost = (name: string): string => (/:\d+$/.test(name) ? name.slice(0, name.lastIndexOf(':')) : name);

/** A virtual host's domains (its strings). */
const domains = (v: Obj): string[] => (Array.isArray(v.domains) ? v.domains.filter((d): d is string => typeof d === 'string') : []);

/** An IP address or CIDR, with or without `:port` (a service address among a virtual host's domains). */
const isAddressDomain = (d: string): boolean => /^(\d{1,3}(\.\d{1,3}){3}(\/\d+)?(:\d+)?|\[?[0-9a-fA-F:]*:[0-9a-fA-F:.]*\]?(\/\d+)?(:\d+)?)$/.test(d);

/**
 * True when two routes have the same virtual hosts (names, order and all but domains) and the
 * same domains in all, and only addresses sit in another virtual host's domains.
 */
function onlyAddressesMoved(a: Obj, b: Obj): boolean {
  const va = Array.isArray(a.virtualHosts) ? a.virtualHosts.filter(isObj) : [];
  const vb = Array.isArray(b.virtualHosts) ? b.virtualHosts.filter(isObj) : [];
  if (va.length !== vb.length) return false;
  const noDomains = (r: Obj, vs: Obj[]): Obj => ({ ...r, virtualHosts: vs.map(({ domains: _d, ...rest }) => rest) });
  if (fieldDiff(noDomains(a, va), noDomains(b, vb)).length > 0) return false;

  let moved = 0;
  for (let i = 0; i < va.length; i++) {
    const da = domains(va[i] as Obj);
    const db = domains(vb[i] as Obj);
    const setB = new Set(db);
    const setA = new Set(da);
    // The host's own names keep their order; only addresses come and go.
    if (JSON.stringify(da.filter((d) => setB.has(d))) !== JSON.stringify(db.filter((d) => setA.has(d)))) return false;
    for (const d of [...da.filter((x) => !setB.has(x)), ...db.filter((x) => !setA.has(x))]) {
      if (!isAddressDomain(d)) return false;
      moved++;
    }
  }
  if (moved === 0) return false;
  const all = (vs: Obj[]) => vs.flatMap(domains).sort();
  return JSON.stringify(all(va)) === JSON.stringify(all(vb));
}

export const KNOWN_CAUSES: KnownCause[] = [
  {
    // Not a generator difference: istiod's choice among ServiceEntries writing one host in one
    // namespace follows the services' order, oldest first (SortServicesByCreationTime in
    // pilot/pkg/model/push_context.go initServiceRegistry; sidecar.go appendSidecarServices keeps
    // the first, merging ports only when canMergeServices), and ties on creation time, hostname
    // and namespace keep the registry's order, which is Go map order (the ServiceEntry
    // controller's krt collection List, pkg/kube/krt/collection.go maps.Values). xds-oracle
    // gives every config object one creation time, so istiod picks either entry from run to run;
    // ours keeps load order. What follows from the pick: the cluster of the host and its
    // endpoints (port, resolution), a route's virtual host of the host (BuildSidecarOutboundVirtualHosts
    // keys services by hostname, the last one wins), and a route's cluster name for the host
    // (its port). Listeners are built from both entries (the egress listener keeps both), so
    // only their chain order follows the pick (listener-filter-chain-order); the endpoints a
    // resolution NONE entry borrows from the other (ServiceEndpointsByPort) do not depend on it
    // and are generated as istiod does (src/core/xds/model.ts serviceEndpointsByPort).
    id: 'serviceentries-sharing-a-host',
    why: 'several ServiceEntries of one namespace write the same host with one creation time: istiod picks the one its cluster, endpoints and route virtual host follow in Go map order (run to run), ours in load order',
    explains: (t, path, facts, f, name) => {
      // A route's cluster for the host: the port of the entry picked.
      if (t === 'routes') {
        const hostOf = (v: Json | undefined) => (typeof v === 'string' ? clusterHost(v) : undefined);
        const hi = hostOf(f.istiod);
        return (
          /(\.cluster|\.weightedClusters\.clusters\[\d+\]\.name)$/.test(path) &&
          hi !== undefined &&
          hi === hostOf(f.ours) &&
          facts.sharedServiceEntryHosts.has(hi)
        );
      }
      const host = t === 'endpoints' || t === 'clusters' ? clusterHost(name) : undefined;
      return host !== undefined && facts.sharedServiceEntryHosts.has(host);
    },
    explainsMissing: (t, name, _side, facts) => {
      const host = clusterHost(name);
      return (t === 'endpoints' || t === 'clusters') && host !== undefined && facts.sharedServiceEntryHosts.has(host);
    },
    // A route whose virtual hosts of the shared hosts differ (present on one side, other domains,
    // routes or clusters), everything else equal. An address such a virtual host holds may sit in
    // another host's virtual host on the other side: istiod's dedupeDomains leaves an address two
    // hosts share with the virtual host built first, so it moves when the shared host's virtual
    // host comes or goes (an entry picked without the route's port has none).
    explainsResource: (t, _name, istiod, ours, facts) => {
      if (t !== 'routes' || facts.sharedServiceEntryHosts.size === 0) return false;
      const vhosts = (r: Obj): Json[] => (Array.isArray(r.virtualHosts) ? r.virtualHosts : []);
      const isShared = (v: Json): boolean => isObj(v) && typeof v.name === 'string' && facts.sharedServiceEntryHosts.has(vhostHost(v.name));
      const moved = new Set<string>();
      for (const r of [istiod, ours]) for (const v of vhosts(r)) if (isObj(v) && isShared(v)) for (const d of domains(v)) if (isAddressDomain(d)) moved.add(d);
      const without = (r: Obj): Obj => ({
        ...r,
        virtualHosts: vhosts(r)
          .filter((v) => !isShared(v))
          .map((v) =>
            isObj(v) && moved.size > 0 && Array.isArray(v.domains) ? { ...v, domains: v.domains.filter((d) => typeof d !== 'string' || !moved.has(d)) } : v,
          ),
      });
      return fieldDiff(without(istiod), without(ours)).length === 0;
    },
  },
  {
    // Not a generator difference: with two services on a route's port that share an address (a
    // ServiceEntry with one address and two hosts, say), istiod's BuildSidecarOutboundVirtualHosts
    // (pilot/pkg/networking/core/httproute.go) gives the address to the virtual host built
    // first and dedupeDomains drops it from the other; the virtual hosts of services without a
    // VirtualService are built in the Go map order of servicesByName
    // (route.BuildSidecarVirtualHostWrapper, pilot/pkg/networking/core/route/route.go ranges
    // over the map), so which host gets it changes from run to run. Ours gives it to the first in
    // service order, one of istiod's outcomes.
    id: 'vhost-address-in-go-map-order',
    why: 'an address two services of a route share sits in the domains of whichever virtual host istiod builds first, in Go map order (route.BuildSidecarVirtualHostWrapper ranges over a map; dedupeDomains keeps the first); ours gives it to the first service',
    explains: () => false,
    explainsResource: (t, _name, istiod, ours) => t === 'routes' && onlyAddressesMoved(istiod, ours),
  },
  {
    // A version difference, not a generator one: the oracle's Istio module (eed52ebb, on the
    // release-1.31 branch, the version the Go module proxy serves nearest the commit we follow)
    // returns early in buildSidecarOutboundListener (pilot/pkg/networking/core/listener.go) when
    // a port of unset protocol ("auto") meets a wildcard listener that is already sniffed
    // (protocol Unsupported, as a NONE or address-less HTTP ServiceEntry makes it). Master at
    // 86c9f01, which we follow, merges the auto port's TCP chains into that listener instead
    // (conflict TCPOverAuto, since #60642 "move headless service listener to use filter chains",
    // 2026-07-22): its match-all tcp_proxy chain becomes the default chain in place of the
    // passthrough. Ours does what master does (src/core/xds/listeners/outbound.ts).
    id: 'auto-port-on-sniffed-wildcard-release-1.31',
    why: "a ServiceEntry port without a protocol on a wildcard listener another service already made sniffed: the oracle's Istio (release-1.31) leaves its TCP chain out, master at the commit we follow (#60642) merges it in, as ours does",
    explains: () => false,
    explainsResource: (t, name, istiod, ours, facts) => {
      if (t !== 'listeners' || !name.startsWith('0.0.0.0_') || facts.autoServiceEntryClusters.size === 0) return false;
      const theirs = withoutAutoTcpChains(istiod, facts.autoServiceEntryClusters);
      const mine = withoutAutoTcpChains(ours, facts.autoServiceEntryClusters);
      // istiod has none of those chains, ours has some, and the rest is the same.
      return theirs.dropped === 0 && mine.dropped > 0 && fieldDiff(theirs.rest, mine.rest).length === 0;
    },
  },
];

/** The cluster a filter chain's only network filter, a tcp_proxy, sends to (undefined for any other chain). */
function tcpProxyCluster(chain: Json | undefined): string | undefined {
  if (!isObj(chain) || !Array.isArray(chain.filters) || chain.filters.length !== 1) return undefined;
  const f = chain.filters[0];
  if (!isObj(f) || f.name !== 'envoy.filters.network.tcp_proxy' || !isObj(f.typedConfig)) return undefined;
  return typeof f.typedConfig.cluster === 'string' ? f.typedConfig.cluster : undefined;
}

/**
 * A listener without the TCP chains to `clusters` and without its default chain (where such a
 * chain goes when it matches everything, and the passthrough when none does), and how many of
 * those TCP chains it had.
 */
function withoutAutoTcpChains(l: Obj, clusters: ReadonlySet<string>): { rest: Obj; dropped: number } {
  const isAuto = (c: Json | undefined) => {
    const cluster = tcpProxyCluster(c);
    return cluster !== undefined && clusters.has(cluster);
  };
  const chains = Array.isArray(l.filterChains) ? l.filterChains : [];
  const kept = chains.filter((c) => !isAuto(c));
  const dropped = chains.length - kept.length + (isAuto(l.defaultFilterChain) ? 1 : 0);
  const { defaultFilterChain: _default, ...rest } = l;
  return { rest: { ...rest, filterChains: kept }, dropped };
}

/** A listener with its filter chains in a canonical order. */
function sortedChains(l: Obj): Obj {
  if (!Array.isArray(l.filterChains)) return l;
  return {
    ...l,
    filterChains: [...l.filterChains].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0)),
  };
}

/**
 * A cause for a whole resource rather than its fields: the same filter chains in another order.
 * Envoy picks a listener's filter chain by its filter_chain_match (destination port, addresses,
 * server names, transport and application protocols), never by its position, so the order does
 * not change what Envoy does; istiod's follows its service order (creation time, then name), in
 * which the assumed ingress gateway Service (no creationTimestamp) comes before config objects.
 */
export const FILTER_CHAIN_ORDER = {
  id: 'listener-filter-chain-order',
  why: 'the same filter chains in another order: Envoy selects a chain by its match, not its position; istiod orders them by its service order (creation time, then name), ours by another',
};

/** The `applyTo` values of the EnvoyFilter patches in a sample's files. */
export function envoyFilterTargets(texts: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const text of texts) {
    if (!/^kind:\s*EnvoyFilter\b/m.test(text)) continue;
    for (const m of text.matchAll(/applyTo:\s*([A-Z_]+)/g)) out.add(m[1] as string);
  }
  return out;
}

/** The facts the known causes read, from a workspace's files. */
export function workspaceFacts(texts: readonly string[]): WorkspaceFacts {
  const seHosts = new Map<string, number>();
  const autoServiceEntryClusters = new Set<string>();
  for (const text of texts) {
    if (!/kind["']?:\s*["']?ServiceEntry/.test(text)) continue;
    let docs: ReturnType<typeof parseAllDocuments>;
    try {
      docs = parseAllDocuments(text) as ReturnType<typeof parseAllDocuments>;
    } catch {
      continue;
    }
    for (const d of Array.isArray(docs) ? docs : [docs]) {
      let o: unknown;
      try {
        o = d.toJS();
      } catch {
        continue;
      }
      if (!isObj(o) || !isObj(o.spec)) continue;
      const ns = isObj(o.metadata) && typeof o.metadata.namespace === 'string' ? o.metadata.namespace : 'default';
      if (o.kind === 'ServiceEntry' && Array.isArray(o.spec.hosts)) {
        for (const h of new Set(o.spec.hosts)) if (typeof h === 'string') seHosts.set(`${ns}/${h}`, (seHosts.get(`${ns}/${h}`) ?? 0) + 1);
        // A ServiceEntry port's protocol comes from its protocol field alone (serviceentry
        // conversion.go convertPort), never from its name.
        for (const port of Array.isArray(o.spec.ports) ? o.spec.ports : []) {
          if (!isObj(port) || typeof port.number !== 'number' || (typeof port.protocol === 'string' && port.protocol !== '')) continue;
          for (const h of o.spec.hosts) if (typeof h === 'string') autoServiceEntryClusters.add(`outbound|${port.number}||${h}`);
        }
      }
    }
  }
  const sharedServiceEntryHosts = new Set([...seHosts].filter(([, n]) => n > 1).map(([k]) => k.slice(k.indexOf('/') + 1)));
  return { applyTo: envoyFilterTargets(texts), sharedServiceEntryHosts, autoServiceEntryClusters };
}

export function knownCause(
  t: ResourceType,
  fields: readonly { path: string; istiod?: Json; ours?: Json }[],
  facts: WorkspaceFacts,
  name = '',
): string | undefined {
  return KNOWN_CAUSES.find((c) => fields.length > 0 && fields.every((f) => c.explains(t, f.path, facts, f, name)))?.id;
}

/** A known cause that explains a differing resource as a whole (KnownCause.explainsResource). */
export function knownResourceCause(t: ResourceType, name: string, istiod: Obj, ours: Obj, facts: WorkspaceFacts): string | undefined {
  return KNOWN_CAUSES.find((c) => c.explainsResource?.(t, name, istiod, ours, facts))?.id;
}

export function knownMissingCause(t: ResourceType, name: string, side: 'istiod' | 'ours', facts: WorkspaceFacts): string | undefined {
  return KNOWN_CAUSES.find((c) => c.explainsMissing?.(t, name, side, facts))?.id;
}

export type FieldDiff = ReturnType<typeof fieldDiff>;

/** One resource type of one proxy: names that agree, differ (with fields and cause), or are on one side only. */
export interface TypeComparison {
  agree: string[];
  differ: { name: string; cause?: string; fields: FieldDiff }[];
  onlyIstiod: string[];
  onlyOurs: string[];
  /** Known causes of the names only one side has. */
  missingCauses?: Record<string, string>;
}

/** Compares one proxy's resources, type by type. */
export function compareResources(
  theirs: Resources,
  ours: Resources,
  facts: WorkspaceFacts,
  schema: ProtoSchema,
  normalisations: Map<string, Normalisation>,
): Record<ResourceType, TypeComparison> {
  const out = {} as Record<ResourceType, TypeComparison>;
  for (const t of TYPES) {
    const cell: TypeComparison = { agree: [], differ: [], onlyIstiod: [], onlyOurs: [] };
    out[t] = cell;
    for (const [name, want] of theirs[t]) {
      const got = ours[t].get(name);
      if (!got) {
        cell.onlyIstiod.push(name);
        continue;
      }
      const [w, g] = normalise(t, want, got, schema, normalisations);
      const fields = fieldDiff(w, g);
      if (fields.length === 0) cell.agree.push(name);
      else {
        const cause =
          knownCause(t, fields, facts, name) ??
          (isObj(w) && isObj(g) ? knownResourceCause(t, name, w, g, facts) : undefined) ??
          (t === 'listeners' && fieldDiff(sortedChains(w), sortedChains(g)).length === 0 ? FILTER_CHAIN_ORDER.id : undefined);
        cell.differ.push({ name, ...(cause ? { cause } : {}), fields });
      }
    }
    for (const name of ours[t].keys()) if (!theirs[t].has(name)) cell.onlyOurs.push(name);
    for (const [list, side] of [
      [cell.onlyIstiod, 'istiod'],
      [cell.onlyOurs, 'ours'],
    ] as const) {
      for (const name of list) {
        const cause = knownMissingCause(t, name, side, facts);
        if (cause) (cell.missingCauses ??= {})[name] = cause;
      }
    }
  }
  return out;
}
