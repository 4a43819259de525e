// EnvoyFilters as istiod pre-processes them (pilot/pkg/model/envoyfilter.go
// convertToEnvoyFilterWrapper): each config patch with its match, its value read as the Envoy
// message its applyTo names, and its proxy version match compiled. Read from the raw spec
// (either field spelling, enums by name or number) so every operation istiod knows is kept.
import type { Resource } from '../../document/types.ts';
import { creationTime } from '../../config/services.ts';
import { readMessage, ValueError, type Json } from './protoJson.ts';

export const APPLY_TO = [
  'INVALID',
  'LISTENER',
  'FILTER_CHAIN',
  'NETWORK_FILTER',
  'HTTP_FILTER',
  'ROUTE_CONFIGURATION',
  'VIRTUAL_HOST',
  'HTTP_ROUTE',
  'CLUSTER',
  'EXTENSION_CONFIG',
  'BOOTSTRAP',
  'LISTENER_FILTER',
] as const;
export type ApplyTo = (typeof APPLY_TO)[number];

export const OPERATIONS = ['INVALID', 'MERGE', 'ADD', 'REMOVE', 'INSERT_BEFORE', 'INSERT_AFTER', 'INSERT_FIRST', 'REPLACE', 'MERGE_AND_REPLACE_LIST'] as const;
export type Operation = (typeof OPERATIONS)[number];

export const CONTEXTS = ['ANY', 'SIDECAR_INBOUND', 'SIDECAR_OUTBOUND', 'GATEWAY'] as const;
export type PatchContext = (typeof CONTEXTS)[number];

const ROUTE_ACTIONS = ['ANY', 'ROUTE', 'REDIRECT', 'DIRECT_RESPONSE'] as const;
export type RouteAction = (typeof ROUTE_ACTIONS)[number];

/** The Envoy message BuildXDSObjectFromStruct reads a value as, per applyTo. */
export const VALUE_TYPES: Partial<Record<ApplyTo, string>> = {
  CLUSTER: 'envoy.config.cluster.v3.Cluster',
  LISTENER: 'envoy.config.listener.v3.Listener',
  ROUTE_CONFIGURATION: 'envoy.config.route.v3.RouteConfiguration',
  FILTER_CHAIN: 'envoy.config.listener.v3.FilterChain',
  HTTP_FILTER: 'envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter',
  NETWORK_FILTER: 'envoy.config.listener.v3.Filter',
  VIRTUAL_HOST: 'envoy.config.route.v3.VirtualHost',
  HTTP_ROUTE: 'envoy.config.route.v3.Route',
  EXTENSION_CONFIG: 'envoy.config.core.v3.TypedExtensionConfig',
  BOOTSTRAP: 'envoy.config.bootstrap.v3.Bootstrap',
  LISTENER_FILTER: 'envoy.config.listener.v3.ListenerFilter',
};

export interface FilterChainMatch {
  name: string;
  sni: string;
  transportProtocol: string;
  applicationProtocols: string;
  destinationPort: number;
  /** Present (even empty) when the match names a network filter. */
  filter?: { name: string; subFilter?: { name: string } };
}

export interface ListenerMatch {
  portNumber: number;
  name: string;
  listenerFilter: string;
  filterChain?: FilterChainMatch;
}

export interface RouteConfigurationMatch {
  portNumber: number;
  portName: string;
  gateway: string;
  name: string;
  vhost?: { name: string; domainName: string; route?: { name: string; action: RouteAction } };
}

export interface ClusterMatch {
  portNumber: number;
  service: string;
  subset: string;
  name: string;
}

export interface ObjectMatch {
  context: PatchContext;
  proxy?: { proxyVersion: string; metadata: Record<string, string> };
  listener?: ListenerMatch;
  routeConfiguration?: RouteConfigurationMatch;
  cluster?: ClusterMatch;
}

export interface PatchWrapper {
  /** The EnvoyFilter's resource key (provenance). */
  resourceKey: string;
  /** `namespace/name`. */
  fullName: string;
  /** Index in spec.configPatches. */
  index: number;
  applyTo: ApplyTo;
  operation: Operation;
  match: ObjectMatch;
  /** The value read as its applyTo's message; undefined when the patch has none. */
  value: Json | undefined;
  /** Any types in the value the descriptors lack (kept as written, merged without a schema). */
  opaqueTypes: string[];
  proxyVersion: { kind: 'any' } | { kind: 'prefix'; prefix: string } | { kind: 'regex'; re: RegExp } | { kind: 'never' };
}

export interface EnvoyFilterWrapper {
  resource: Resource;
  name: string;
  namespace: string;
  priority: number;
  creationTime: number;
  /** workloadSelector.labels; undefined without a workloadSelector. */
  selector: Record<string, string> | undefined;
  targetRefs: { group: string; kind: string; name: string; namespace: string }[];
  patches: PatchWrapper[];
  /** Patches istiod drops while converting (no patch, a value it cannot read), with why. */
  dropped: { index: number; reason: string }[];
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** A field by its JSON name or its proto name. */
function get(o: Record<string, unknown> | undefined, json: string): unknown {
  if (!o) return undefined;
  if (o[json] !== undefined) return o[json];
  const snake = json.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return o[snake];
}

function s(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function n(v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return 0;
}

function enumOf<T extends readonly string[]>(values: T, v: unknown): T[number] {
  if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T[number];
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < values.length) return values[v] as T[number];
  return values[0] as T[number];
}

function strMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const o = obj(v);
  if (o) for (const [k, x] of Object.entries(o)) if (typeof x === 'string') out[k] = x;
  return out;
}

function readMatch(raw: unknown): ObjectMatch {
  const m = obj(raw);
  const out: ObjectMatch = { context: enumOf(CONTEXTS, get(m, 'context')) };
  const proxy = obj(get(m, 'proxy'));
  if (proxy) out.proxy = { proxyVersion: s(get(proxy, 'proxyVersion')), metadata: strMap(get(proxy, 'metadata')) };
  const l = obj(get(m, 'listener'));
  const rc = obj(get(m, 'routeConfiguration'));
  const c = obj(get(m, 'cluster'));
  if (l) {
    const lm: ListenerMatch = { portNumber: n(get(l, 'portNumber')), name: s(get(l, 'name')), listenerFilter: s(get(l, 'listenerFilter')) };
    const fc = obj(get(l, 'filterChain'));
    if (fc) {
      const fcm: FilterChainMatch = {
        name: s(get(fc, 'name')),
        sni: s(get(fc, 'sni')),
        transportProtocol: s(get(fc, 'transportProtocol')),
        applicationProtocols: s(get(fc, 'applicationProtocols')),
        destinationPort: n(get(fc, 'destinationPort')),
      };
      const f = obj(get(fc, 'filter'));
      if (f) {
        fcm.filter = { name: s(get(f, 'name')) };
        const sub = obj(get(f, 'subFilter'));
        if (sub) fcm.filter.subFilter = { name: s(get(sub, 'name')) };
      }
      lm.filterChain = fcm;
    }
    out.listener = lm;
  } else if (rc) {
    const rm: RouteConfigurationMatch = {
      portNumber: n(get(rc, 'portNumber')),
      portName: s(get(rc, 'portName')),
      gateway: s(get(rc, 'gateway')),
      name: s(get(rc, 'name')),
    };
    const vh = obj(get(rc, 'vhost'));
    if (vh) {
      rm.vhost = { name: s(get(vh, 'name')), domainName: s(get(vh, 'domainName')) };
      const r = obj(get(vh, 'route'));
      if (r) rm.vhost.route = { name: s(get(r, 'name')), action: enumOf(ROUTE_ACTIONS, get(r, 'action')) };
    }
    out.routeConfiguration = rm;
  } else if (c) {
    out.cluster = { portNumber: n(get(c, 'portNumber')), service: s(get(c, 'service')), subset: s(get(c, 'subset')), name: s(get(c, 'name')) };
  }
  return out;
}

// Regexes istiod turns into prefix matches (an optimisation that must not change results).
const WELL_KNOWN_VERSIONS: Record<string, string> = Object.fromEntries(['16', '17', '18', '19', '20', '21', '22', '23'].map((m) => [`^1\\.${m}.*`, `1.${m}`]));
const MAX_PROXY_VERSION_LEN = 1024;

function compileVersion(v: string): PatchWrapper['proxyVersion'] {
  if (v === '') return { kind: 'any' };
  const prefix = Object.hasOwn(WELL_KNOWN_VERSIONS, v) ? WELL_KNOWN_VERSIONS[v] : undefined;
  if (prefix !== undefined) return { kind: 'prefix', prefix };
  if (v.length > MAX_PROXY_VERSION_LEN) return { kind: 'never' };
  try {
    return { kind: 'regex', re: new RegExp(v) };
  } catch {
    // istiod ignores the compile error (validation is meant to catch it): no version constraint.
    return { kind: 'any' };
  }
}

/** convertToEnvoyFilterWrapper. */
export function envoyFilterWrapper(r: Resource): EnvoyFilterWrapper {
  const spec = obj(r.body.spec) ?? {};
  const ws = obj(get(spec, 'workloadSelector'));
  const refs = Array.isArray(get(spec, 'targetRefs')) ? (get(spec, 'targetRefs') as unknown[]) : [];
  const out: EnvoyFilterWrapper = {
    resource: r,
    name: r.name,
    namespace: r.namespace,
    priority: n(get(spec, 'priority')),
    creationTime: creationTime(r),
    selector: ws ? strMap(get(ws, 'labels')) : undefined,
    targetRefs: refs.map((x) => obj(x) ?? {}).map((x) => ({ group: s(x.group), kind: s(x.kind), name: s(x.name), namespace: s(x.namespace) })),
    patches: [],
    dropped: [],
  };
  const cps = Array.isArray(get(spec, 'configPatches')) ? (get(spec, 'configPatches') as unknown[]) : [];
  cps.forEach((raw, index) => {
    const cp = obj(raw) ?? {};
    const patch = obj(get(cp, 'patch'));
    if (!patch) {
      out.dropped.push({ index, reason: 'no patch' });
      return;
    }
    const applyTo = enumOf(APPLY_TO, get(cp, 'applyTo'));
    let operation = enumOf(OPERATIONS, get(patch, 'operation'));
    const rawValue = get(patch, 'value');
    let value: Json | undefined;
    let opaqueTypes: string[] = [];
    if (rawValue !== undefined && rawValue !== null) {
      const type = VALUE_TYPES[applyTo];
      if (!type) {
        out.dropped.push({ index, reason: `no object type for applyTo ${applyTo}` });
        return;
      }
      try {
        const read = readMessage(rawValue, type);
        value = read.value;
        opaqueTypes = read.opaqueTypes;
      } catch (e) {
        if (!(e instanceof ValueError)) throw e;
        out.dropped.push({ index, reason: `value is not a valid ${type}: ${e.message}` });
        return;
      }
    }
    const match = get(cp, 'match') === undefined || get(cp, 'match') === null ? { context: 'ANY' as const } : readMatch(get(cp, 'match'));
    // INSERT_* only mean something for filters and routes; istiod turns the rest into ADD.
    if (
      (operation === 'INSERT_BEFORE' || operation === 'INSERT_AFTER' || operation === 'INSERT_FIRST') &&
      !['HTTP_FILTER', 'NETWORK_FILTER', 'HTTP_ROUTE', 'LISTENER_FILTER'].includes(applyTo)
    ) {
      operation = 'ADD';
    }
    out.patches.push({
      resourceKey: r.key,
      fullName: `${r.namespace}/${r.name}`,
      index,
      applyTo,
      operation,
      match,
      value,
      opaqueTypes,
      proxyVersion: compileVersion(match.proxy?.proxyVersion ?? ''),
    });
  });
  return out;
}
