// Gateway API → Istio Gateway / VirtualService / DestinationRule, and the status istiod writes
// back, as pilot/pkg/config/kube/gateway does it (conversion.go, gateway_collection.go,
// route_collections.go, backend_policies.go, conditions.go and gatewaycommon/). Pure: the
// inputs are plain objects and a service registry; nothing here reads the workspace.
import {
  type CondSpec, type ConfigError, type GwObject, type Json,
  bundleHasCertificate, extractCertInfo, extractRoot, humanJoin, isObject, list, nsName, num, obj, optNum, optStr,
  readConditions, secretData, setConditions, spec, str, stringRecord, x509KeyPairError,
} from './model.ts';
import { sha256Hex } from './sha256.ts';
import { parseGoDuration } from '../../go/duration.ts';
import { formatProtoDuration } from '../../go/protoDuration.ts';
import { hostIntersection } from './hostnames.ts';
import { hostMatches, hostSubsetOf, isWildcardHost } from '../hosts.ts';
import { inferencePoolStatus } from './inferencePoolStatus.ts';
import { EASTWEST_CONTROLLER, GATEWAY_CONTROLLER, KUBERNETES_GATEWAY_NAME, MESH_CONTROLLER, UNMANAGED_CONTROLLER, builtinGatewayClasses, internalGatewayName } from './builtins.ts';
import { listAt, mapAt } from '../../model/maps.ts';

// ---------------------------------------------------------------------------------------------
// Names and constants istiod uses (the gateway names and built-in classes are in builtins.ts,
// which analysis reads without loading the conversion)

export { EASTWEST_CONTROLLER, GATEWAY_CONTROLLER, KUBERNETES_GATEWAY_NAME, MESH_CONTROLLER, UNMANAGED_CONTROLLER, builtinGatewayClasses, internalGatewayName, isInternalGatewayName } from './builtins.ts';


export const ANNOTATION_PARENTS = 'internal.istio.io/parents';
export const ANNOTATION_PARENT_NAMESPACE = 'internal.istio.io/parent-namespace';
export const ANNOTATION_ROUTE_SEMANTICS = 'internal.istio.io/route-semantics';
export const ANNOTATION_GATEWAY_SEMANTICS = 'internal.istio.io/gateway-semantics';
export const ANNOTATION_GATEWAY_SERVICE = 'internal.istio.io/gateway-service';
export const ANNOTATION_SERVICE_ACCOUNT = 'internal.istio.io/service-account-name';

const GW_GROUP = 'gateway.networking.k8s.io';
const GWX_GROUP = 'gateway.networking.x-k8s.io';
const ISTIO_NET_GROUP = 'networking.istio.io';
const INFERENCE_GROUP = 'inference.networking.k8s.io';
const MCS_GROUP = 'multicluster.x-k8s.io';

// ---------------------------------------------------------------------------------------------
// Inputs

/** A service as istiod's registry knows it (model.Service plus its endpoints). */
export interface RegistryService {
  hostname: string;
  namespace: string;
  ports: readonly { name: string; port: number }[];
  /** Endpoint (workload) ports behind each service port number; absent or empty: no endpoints. */
  endpointPorts: ReadonlyMap<number, readonly number[]>;
  /** Cluster VIPs. */
  addresses: readonly string[];
  /** LoadBalancer ingress / external IPs. */
  externalAddresses: readonly string[];
  loadBalancer: boolean;
  labels: Readonly<Record<string, string>>;
}

export interface ServiceRegistry {
  /** Every service with this hostname, one per namespace that defines it. */
  byHostname(hostname: string): readonly RegistryService[];
}

export interface ConvertOptions {
  domainSuffix: string;
  registry: ServiceRegistry;
  /** Written as every condition's lastTransitionTime. */
  now: string;
  /** EnableAmbient: routes report the ResolvedWaypoints condition. */
  ambient?: boolean;
  /** EnableAmbientWaypoints (default true): the `istio-waypoint` class. */
  waypoints?: boolean;
  /** PILOT_MULTI_NETWORK_DISCOVER_GATEWAY_API (default true): the `istio-remote` class. */
  multiNetwork?: boolean;
  /** EnableAmbientMultiNetwork (default false): the `istio-east-west` class. */
  eastWest?: boolean;
  /** PILOT_ENABLE_ALPHA_GATEWAY_API (default false): XBackend and XBackendTrafficPolicy. */
  alpha?: boolean;
  /** ENABLE_GATEWAY_API_INFERENCE_EXTENSION (default false): InferencePool backends. */
  inferenceExtension?: boolean;
}

/** An Istio config object generated from Gateway API objects. */
export interface IstioConfig {
  apiVersion: string;
  kind: 'Gateway' | 'VirtualService' | 'DestinationRule';
  metadata: { annotations: Record<string, string>; creationTimestamp?: string; name: string; namespace: string };
  spec: Json;
  /** Creation time of the object it came from (ms), for istiod's ordering. */
  created: number;
}

/** A status istiod writes back, in the shape of the object it belongs to. */
export interface StatusWrite {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  created: number;
  status: Json;
}

export interface GatewayApiResult {
  /** Istio Gateways (valid listeners only), sorted by creation time, namespace, name. */
  gateways: IstioConfig[];
  virtualServices: IstioConfig[];
  destinationRules: IstioConfig[];
  statuses: StatusWrite[];
  /** Every GatewayClass used: given ones and the built-in ones assumed (`assumed: true`). */
  classes: { name: string; controller: string; assumed: boolean }[];
}

// ---------------------------------------------------------------------------------------------
// Classes

interface ClassInfo {
  controller: string;
  description: string;
  disableRouteGeneration: boolean;
  supportsListenerSet: boolean;
  disableNameSuffix: boolean;
  addressType: '' | 'Hostname' | 'IPAddress';
}

function classInfos(o: ConvertOptions): Map<string, ClassInfo> {
  const m = new Map<string, ClassInfo>();
  m.set(GATEWAY_CONTROLLER, { controller: GATEWAY_CONTROLLER, description: 'The default Istio GatewayClass', disableRouteGeneration: false, supportsListenerSet: true, disableNameSuffix: false, addressType: 'Hostname' });
  if (o.multiNetwork !== false) {
    m.set(UNMANAGED_CONTROLLER, { controller: UNMANAGED_CONTROLLER, description: 'Remote to this cluster. Does not deploy or affect configuration.', disableRouteGeneration: true, supportsListenerSet: false, disableNameSuffix: false, addressType: 'Hostname' });
  }
  if (o.waypoints !== false) {
    m.set(MESH_CONTROLLER, { controller: MESH_CONTROLLER, description: 'The default Istio waypoint GatewayClass', disableRouteGeneration: false, supportsListenerSet: false, disableNameSuffix: true, addressType: '' });
  }
  if (o.eastWest) {
    m.set(EASTWEST_CONTROLLER, { controller: EASTWEST_CONTROLLER, description: 'The default GatewayClass for Istio East West Gateways', disableRouteGeneration: false, supportsListenerSet: false, disableNameSuffix: true, addressType: '' });
  }
  return m;
}


// ---------------------------------------------------------------------------------------------
// References

interface GK {
  group: string;
  kind: string;
}

const KNOWN_GK: readonly GK[] = [
  { group: '', kind: 'Service' }, { group: '', kind: 'Secret' }, { group: '', kind: 'ConfigMap' }, { group: '', kind: 'Namespace' },
  { group: GW_GROUP, kind: 'Gateway' }, { group: GW_GROUP, kind: 'GatewayClass' }, { group: GW_GROUP, kind: 'HTTPRoute' },
  { group: GW_GROUP, kind: 'GRPCRoute' }, { group: GW_GROUP, kind: 'TCPRoute' }, { group: GW_GROUP, kind: 'TLSRoute' },
  { group: GW_GROUP, kind: 'ReferenceGrant' }, { group: GW_GROUP, kind: 'BackendTLSPolicy' }, { group: GW_GROUP, kind: 'ListenerSet' },
  { group: GWX_GROUP, kind: 'XBackend' }, { group: GWX_GROUP, kind: 'XBackendTrafficPolicy' }, { group: GWX_GROUP, kind: 'XListenerSet' },
  { group: ISTIO_NET_GROUP, kind: 'ServiceEntry' }, { group: INFERENCE_GROUP, kind: 'InferencePool' },
];

/** gatewaycommon.NormalizeReference: group/kind with defaults for absent fields. */
function normalizeRef(group: string | undefined, kind: string | undefined, def: GK): GK {
  const gk = { group: group ?? def.group, kind: kind ?? def.kind };
  // "core" is how the registry spells the empty group.
  if (gk.group === 'core') gk.group = '';
  const known = KNOWN_GK.find((k) => k.group === gk.group && k.kind === gk.kind);
  return known ?? gk;
}

function gkEq(a: GK, b: GK): boolean {
  return a.group === b.group && a.kind === b.kind;
}

const GK_GATEWAY: GK = { group: GW_GROUP, kind: 'Gateway' };
const GK_LISTENERSET: GK = { group: GW_GROUP, kind: 'ListenerSet' };
const GK_SERVICE: GK = { group: '', kind: 'Service' };
const GK_SERVICEENTRY: GK = { group: ISTIO_NET_GROUP, kind: 'ServiceEntry' };
const GK_SECRET: GK = { group: '', kind: 'Secret' };
const GK_CONFIGMAP: GK = { group: '', kind: 'ConfigMap' };
const GK_XBACKEND: GK = { group: GWX_GROUP, kind: 'XBackend' };
const GK_INFERENCEPOOL: GK = { group: INFERENCE_GROUP, kind: 'InferencePool' };
const GK_NONE: GK = { group: '', kind: '' };

function gkString(gk: GK): string {
  // config.GroupVersionKind.String(): core kinds print as `core/v1/Kind`-like; istiod prints group/version/kind.
  return `${gk.group || 'core'}/${VERSIONS[`${gk.group}/${gk.kind}`] ?? 'v1'}/${gk.kind}`;
}

const VERSIONS: Record<string, string> = {
  [`${GW_GROUP}/TLSRoute`]: 'v1',
  [`${GW_GROUP}/ReferenceGrant`]: 'v1beta1',
  [`${GWX_GROUP}/XBackend`]: 'v1alpha1',
  [`${GWX_GROUP}/XBackendTrafficPolicy`]: 'v1alpha1',
};

// ---------------------------------------------------------------------------------------------
// The conversion

interface ParentKey {
  kind: GK;
  name: string;
  namespace: string;
}

function parentKeyString(p: ParentKey): string {
  return `${p.kind.group}/${p.kind.kind}/${p.namespace}/${p.name}`;
}

interface RouteGroupKind {
  group?: string;
  kind: string;
}

interface ParentInfo {
  internalName: string;
  allowedKinds: RouteGroupKind[];
  hostnames: string[];
  originalHostname: string;
  sectionName: string;
  port: number;
  protocol: string;
}

interface ParentError {
  reason: string;
  message: string;
}

interface RouteParentRef {
  internalName: string;
  internalKind: GK;
  hostname: string;
  deniedReason?: ParentError;
  /** The parentRef as written, and a key that tells two written refs apart as Go's map does. */
  original: Json;
  originalKey: string;
  bannedHostnames: Set<string>;
  parentKey: ParentKey;
  parentSection: string;
  waypointError?: ConfigError;
}

interface GatewayEntry {
  config: IstioConfig;
  parent: ParentKey;
  info: ParentInfo;
  valid: boolean;
}

const MESH_PARENT: ParentInfo = {
  internalName: 'mesh',
  allowedKinds: [
    { group: GW_GROUP, kind: 'HTTPRoute' }, { group: GW_GROUP, kind: 'GRPCRoute' },
    { group: GW_GROUP, kind: 'TCPRoute' }, { group: GW_GROUP, kind: 'TLSRoute' },
  ],
  hostnames: [],
  originalHostname: '',
  sectionName: '',
  port: 0,
  protocol: '',
};

function sortByCreation<T extends { created: number; namespace: string; name: string }>(xs: T[]): T[] {
  return xs.sort((a, b) => a.created - b.created || cmp(a.namespace, b.namespace) || cmp(a.name, b.name));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

function apiVersionOf(o: GwObject): string {
  const group = o.apiVersion.includes('/') ? o.apiVersion.slice(0, o.apiVersion.indexOf('/')) : '';
  if (group === GWX_GROUP) return `${GWX_GROUP}/v1alpha1`;
  if (group === GW_GROUP) return `${GW_GROUP}/v1`;
  return o.apiVersion;
}

/** Converts every Gateway API object in `objects` (plus the Services, ServiceEntries, Secrets, ConfigMaps and Namespaces they refer to). */
export function convertGatewayApi(objects: readonly GwObject[], opts: ConvertOptions): GatewayApiResult {
  const ctx = new ConversionContext(objects, opts);
  convertGatewayClasses(ctx);
  convertGatewaysAndListenerSets(ctx);
  const vs: IstioConfig[] = [];
  const base: RouteWithKey[] = [];
  for (const r of sortByCreation(ctx.all('TCPRoute').slice())) vs.push(...convertTCPOrTLSRoute(ctx, r, 'TCPRoute'));
  for (const r of sortByCreation(ctx.all('TLSRoute').slice())) vs.push(...convertTCPOrTLSRoute(ctx, r, 'TLSRoute'));
  for (const r of sortByCreation(ctx.all('HTTPRoute').slice())) base.push(...convertHTTPOrGRPCRoute(ctx, r, 'HTTPRoute'));
  for (const r of sortByCreation(ctx.all('GRPCRoute').slice())) base.push(...convertHTTPOrGRPCRoute(ctx, r, 'GRPCRoute'));
  vs.push(...mergeHTTPRoutes(base));
  const drs = destinationRules(ctx);
  writeFinalGatewayStatuses(ctx);
  if (ctx.opts.inferenceExtension) {
    const inputs = { httpRoutes: ctx.all('HTTPRoute'), findGateway: (ns: string, name: string) => ctx.find('Gateway', ns, name), findService: (ns: string, name: string) => ctx.find('Service', ns, name), builtinClasses: ctx.builtinClasses, now: ctx.now };
    for (const pool of ctx.all('InferencePool')) ctx.writeStatus(pool, inferencePoolStatus(pool, inputs));
  }
  const gateways = ctx.gatewayEntries.filter((g) => g.valid).map((g) => g.config);
  const byCreation = (xs: IstioConfig[]) =>
    xs.sort((a, b) => a.created - b.created || cmp(a.metadata.namespace, b.metadata.namespace) || cmp(a.metadata.name, b.metadata.name));
  const usedClasses = new Map<string, { name: string; controller: string; assumed: boolean }>();
  for (const c of ctx.gatewayClasses.values()) usedClasses.set(c.name, { ...c, assumed: false });
  for (const [name, controller] of ctx.builtinClasses) if (!usedClasses.has(name)) usedClasses.set(name, { name, controller, assumed: true });
  return {
    gateways: byCreation(gateways),
    virtualServices: byCreation(vs),
    destinationRules: byCreation(drs),
    statuses: ctx.statuses,
    classes: [...usedClasses.values()],
  };
}

type RouteKind = 'HTTPRoute' | 'GRPCRoute' | 'TCPRoute' | 'TLSRoute';

interface RouteWithKey {
  config: IstioConfig;
  key: string;
  created: number;
  namespace: string;
  name: string;
}

interface BackendPolicy {
  sourceKind: string;
  sourceNs: string;
  sourceName: string;
  targetKind: string;
  targetNs: string;
  targetName: string;
  host: string;
  sectionName?: string;
  port?: number;
  tls?: Json;
  loadBalancer?: Json;
  retryBudget?: Json;
  created: number;
}

/**
 * One conversion: the objects and options it reads, and what each step leaves for the later ones
 * (the steps run in convertGatewayApi's order; each field says who writes and who reads it).
 */
class ConversionContext {
  readonly opts: ConvertOptions;
  /** Written as every condition's lastTransitionTime. */
  readonly now: string;
  /** The controllers istiod handles, by controller name (classinfo.go). */
  readonly classInfos: Map<string, ClassInfo>;
  /** The GatewayClasses istiod creates when missing: name → controller. */
  readonly builtinClasses: Map<string, string>;
  /** GatewayClasses in the input handled by one of classInfos' controllers, by name (the GatewayClass step; fetchClass). */
  readonly gatewayClasses = new Map<string, { name: string; controller: string }>();
  /** Every status written, in order (all steps; the final Gateway step updates ListenerSets' in place). */
  readonly statuses: StatusWrite[] = [];
  /** One Istio Gateway per listener of Gateways and attached ListenerSets (the Gateway step; the result). */
  readonly gatewayEntries: GatewayEntry[] = [];
  /** What routes can attach to, by parentKeyString (BuildRouteParents, after the Gateway step; route parents). */
  readonly routeParents = new Map<string, ParentInfo[]>();
  /** Gateway and ListenerSet status waiting for attached-route counts (the Gateway step; the final Gateway step). */
  readonly gatewayStatuses = new Map<string, { obj: GwObject; status: Json }>();
  readonly listenerSetStatuses = new Map<string, { obj: GwObject; status: Json }>();
  /** Route attachments already counted, one per route, parent and section (the route steps). */
  readonly routeAttachments = new Set<string>();
  /** Attached routes per Gateway or ListenerSet (`namespace/name`) and listener (the route steps; the final Gateway step). */
  readonly attachedRouteCounts = new Map<string, Map<string, number>>();
  /** Gateways each backend is reached from, through a route (the route steps; backend policy ancestors). */
  readonly ancestorBackends: { gateway: string; backendKind: string; backend: string }[] = [];
  private readonly byKind = new Map<string, GwObject[]>();
  private readonly index = new Map<string, GwObject>();

  constructor(objects: readonly GwObject[], opts: ConvertOptions) {
    for (const o of objects) {
      listAt(this.byKind, o.kind).push(o);
      const key = `${o.kind}/${o.namespace}/${o.name}`;
      if (!this.index.has(key)) this.index.set(key, o);
    }
    this.opts = opts;
    this.classInfos = classInfos(opts);
    this.builtinClasses = builtinGatewayClasses(opts);
    this.now = opts.now;
  }

  all(kind: string): GwObject[] {
    return this.byKind.get(kind) ?? [];
  }

  find(kind: string, ns: string, name: string): GwObject | undefined {
    return this.index.get(`${kind}/${ns}/${name}`);
  }

  lookupService(hostname: string, namespace: string): RegistryService | undefined {
    return this.opts.registry.byHostname(hostname).find((s) => s.namespace === namespace);
  }

  writeStatus(o: GwObject, status: Json): void {
    this.statuses.push({ apiVersion: apiVersionOf(o), kind: o.kind, namespace: o.namespace, name: o.name, created: o.created, status });
  }

  fetchClass(name: string): { name: string; controller: string } | undefined {
    const c = this.gatewayClasses.get(name);
    if (c) return c;
    const b = this.builtinClasses.get(name);
    return b ? { name, controller: b } : undefined;
  }

  namespaceLabels(ns: string): Record<string, string> | undefined {
    const o = this.find('Namespace', '', ns);
    return o ? { ...o.labels } : undefined;
  }
}

// -- GatewayClass -----------------------------------------------------------------------------

/** GatewayClass status: Accepted for each class one of istiod's controllers handles; ctx.fetchClass finds these first. */
function convertGatewayClasses(ctx: ConversionContext): void {
  for (const gc of ctx.all('GatewayClass')) {
    const controller = str(spec(gc).controllerName);
    if (!ctx.classInfos.has(controller)) continue;
    if (!ctx.gatewayClasses.has(gc.name)) ctx.gatewayClasses.set(gc.name, { name: gc.name, controller });
    const existing = obj(gc.body.status);
    const conditions = setConditions(gc.generation, readConditions(existing.conditions), {
      Accepted: { reason: 'Accepted', message: 'Handled by Istio controller' },
    }, ctx.now);
    ctx.writeStatus(gc, { ...existing, conditions });
  }
}

// -- Gateways and ListenerSets ---------------------------------------------------------------

function namespaceAcceptedByAllowListeners(ctx: ConversionContext, localNs: string, parent: GwObject): boolean {
  const lr = obj(spec(parent).allowedListeners);
  if (!isObject(lr.namespaces)) return false;
  const n = obj(lr.namespaces);
  const from = optStr(n.from);
  if (from !== undefined) {
    if (from === 'All') return true;
    if (from === 'Same') return localNs === parent.namespace;
    if (from !== 'Selector') return false;
  }
  if (!isObject(n.selector)) return false;
  const labels = ctx.namespaceLabels(localNs);
  if (!labels) return false;
  return selectorMatches(n.selector, withNameLabel(localNs, labels));
}

function listenerSetsFor(ctx: ConversionContext, gw: GwObject): GwObject[] {
  return ctx.all('ListenerSet').filter((ls) => {
    const p = obj(spec(ls).parentRef);
    return (optStr(p.namespace) ?? ls.namespace) === gw.namespace && str(p.name) === gw.name;
  });
}

/** gatewaycommon.GatewayListenerConflictCollection for one Gateway: owner key → listener → reason. */
function conflictsFor(ctx: ConversionContext, gw: GwObject): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  const cls = ctx.fetchClass(str(spec(gw).gatewayClassName));
  if (!cls) return out;
  const info = ctx.classInfos.get(cls.controller);
  if (!info || !info.supportsListenerSet) return out;
  const eligible = listenerSetsFor(ctx, gw).filter((ls) => namespaceAcceptedByAllowListeners(ctx, ls.namespace, gw));
  const merged: { l: Json; owner: string }[] = [];
  for (const l of list(spec(gw).listeners)) merged.push({ l: obj(l), owner: `Gateway/${gw.namespace}/${gw.name}` });
  const sets = eligible.slice().sort((a, b) => a.created - b.created || cmp(`${a.namespace}/${a.name}`, `${b.namespace}/${b.name}`));
  for (const ls of sets) {
    for (const raw of list(spec(ls).listeners)) {
      const l = { ...obj(raw) };
      const p = listenerEntryPort(l);
      if (p.port !== undefined) l.port = p.port;
      merged.push({ l, owner: `ListenerSet/${ls.namespace}/${ls.name}` });
    }
  }
  const accepted: Json[] = [];
  for (const e of merged) {
    const prior = accepted.find((p) => !listenersDistinct(e.l, p));
    if (prior) {
      const m = mapAt(out, e.owner);
      m.set(str(e.l.name), listenerConflictReason(e.l, prior));
      continue;
    }
    accepted.push(e.l);
  }
  return out;
}

/** The Istio Gateways of every Gateway and of the ListenerSets attached to it (ctx.gatewayEntries), then what routes can attach to (BuildRouteParents: ctx.routeParents). */
function convertGatewaysAndListenerSets(ctx: ConversionContext): void {
  // ListenerSets first: a Gateway includes the listeners of the valid ones attached to it.
  const fromSets = new Map<string, { entry: GatewayEntry; parent: ParentKey }[]>();
  for (const ls of ctx.all('ListenerSet')) {
    const r = convertListenerSet(ctx, ls);
    if (!r) continue;
    for (const e of r.entries) {
      listAt(fromSets, r.gateway).push({ entry: e, parent: e.parent });
    }
  }
  for (const gw of ctx.all('Gateway')) convertGateway(ctx, gw, fromSets.get(nsName(gw.namespace, gw.name)) ?? []);
  for (const e of ctx.gatewayEntries) {
    const k = parentKeyString(e.parent);
    listAt(ctx.routeParents, k).push(e.info);
  }
}

/** ListenerSetCollection for one ListenerSet: its listeners' Istio Gateways, for the parent Gateway (`namespace/name`) to take in, and its status. */
function convertListenerSet(ctx: ConversionContext, ls: GwObject): { gateway: string; entries: GatewayEntry[] } | undefined {
  const s = spec(ls);
  const p = obj(s.parentRef);
  if (!gkEq(normalizeRef(optStr(p.group), optStr(p.kind), GK_GATEWAY), GK_GATEWAY)) return undefined;
  const pns = optStr(p.namespace) ?? ls.namespace;
  const parentGw = ctx.find('Gateway', pns, str(p.name));
  if (!parentGw) return undefined;
  const cls = ctx.fetchClass(str(spec(parentGw).gatewayClassName));
  if (!cls) return undefined;
  const controller = cls.controller;
  const info = ctx.classInfos.get(controller);
  if (!info) return undefined;
  const existing = obj(ls.body.status);
  const status: Json = { ...existing };
  const gwKey = nsName(parentGw.namespace, parentGw.name);
  if (!info.supportsListenerSet) {
    reportNotAllowedListenerSet(ctx, ls, status, `The ${JSON.stringify(cls.name)} GatewayClass does not support ListenerSet`);
    return { gateway: gwKey, entries: [] };
  }
  if (!namespaceAcceptedByAllowListeners(ctx, ls.namespace, parentGw)) {
    reportNotAllowedListenerSet(ctx, ls, status, "The parent Gateway does not allow this reference; check the 'spec.allowedRoutes'");
    return { gateway: gwKey, entries: [] };
  }
  const { services, error } = extractGatewayServices(ctx, parentGw, info);
  if (services.length === 0 && error) {
    reportListenerSetStatus(ctx, parentGw, ls, status, services, [], error, true);
    ctx.listenerSetStatuses.set(nsName(ls.namespace, ls.name), { obj: ls, status });
    return { gateway: gwKey, entries: [] };
  }
  const conflicts = conflictsFor(ctx, parentGw).get(`ListenerSet/${ls.namespace}/${ls.name}`);
  const servers: Json[] = [];
  const entries: GatewayEntry[] = [];
  let validListeners = 0;
  let listenerStatus = list(existing.listeners).map((x) => obj(x));
  list(s.listeners).forEach((raw, i) => {
    const l = { ...obj(raw) };
    const { port, error: portErr } = listenerEntryPort(l);
    l.port = port ?? 0;
    const name = str(l.name);
    const reason = conflicts?.get(name);
    if (reason !== undefined) {
      listenerStatus = reportListenerConflict(ctx, i, l, ls, listenerStatus, reason);
      return;
    }
    const r = buildListener(ctx, ls, listenerStatus, spec(parentGw), l, i, controller, portErr);
    listenerStatus = r.statuses;
    if (!r.server) return;
    if (r.ok) validListeners++;
    servers.push(r.server);
    if (controller === MESH_CONTROLLER) return;
    if (controller === EASTWEST_CONTROLLER && num(l.port) === 15008) return;
    const annotations: Record<string, string> = {
      [ANNOTATION_PARENTS]: `ListenerSet/${ls.name}/${name}.${ls.namespace}`,
      [ANNOTATION_GATEWAY_SEMANTICS]: 'gateway',
      [ANNOTATION_GATEWAY_SERVICE]: services.join(','),
      [ANNOTATION_PARENT_NAMESPACE]: parentGw.namespace,
      [ANNOTATION_SERVICE_ACCOUNT]: isManaged(spec(parentGw))
        ? parentGw.annotations['gateway.istio.io/service-account'] || defaultName(parentGw, info)
        : '',
    };
    entries.push(listenerGatewayEntry(ls, GK_LISTENERSET, l, r.server, r.ok, annotations));
  });
  status.listeners = listenerStatus;
  reportListenerSetStatus(ctx, parentGw, ls, status, services, servers, error, validListeners > 0);
  ctx.listenerSetStatuses.set(nsName(ls.namespace, ls.name), { obj: ls, status });
  return { gateway: gwKey, entries };
}

function reportNotAllowedListenerSet(ctx: ConversionContext, ls: GwObject, status: Json, message: string): void {
  const err = { reason: 'NotAllowed', message };
  delete status.listeners;
  status.conditions = setConditions(ls.generation, readConditions(status.conditions), {
    Accepted: { reason: 'Accepted', error: err },
    Programmed: { reason: 'Programmed', error: err },
  }, ctx.now);
  ctx.writeStatus(ls, status);
}

function reportListenerSetStatus(ctx: ConversionContext, parentGw: GwObject, ls: GwObject, status: Json, services: string[], servers: Json[], gatewayErr: ConfigError | undefined, listenersValid: boolean): void {
  const res = resolveGatewayInstances(ctx, parentGw.namespace, services, servers);
  const conds: Record<string, CondSpec> = {
    Accepted: { reason: 'Accepted', message: 'Resource accepted' },
    Programmed: { reason: 'Programmed', message: 'Resource programmed' },
  };
  const listenersErr = listenersValid ? undefined : { reason: 'ListenersNotValid', message: "None of the ListenerSet's listeners are valid" };
  if (gatewayErr) (conds.Accepted as CondSpec).error = { reason: gatewayErr.reason, message: `Parent not accepted: ${gatewayErr.message}` };
  else if (listenersErr) (conds.Accepted as CondSpec).error = listenersErr;
  setProgrammed(conds, res.internal, services, res.warnings, res.allUsable);
  if (listenersErr) (conds.Programmed as CondSpec).error = listenersErr;
  // Prune listeners that are gone.
  const have = new Set(list(spec(ls).listeners).map((l) => str(obj(l).name)));
  const kept: Json[] = [];
  for (const l of list(status.listeners).map(obj)) {
    if (have.has(str(l.name))) {
      have.delete(str(l.name));
      kept.push(l);
    }
  }
  status.listeners = kept;
  status.conditions = setConditions(ls.generation, readConditions(status.conditions), conds, ctx.now);
  ctx.writeStatus(ls, status);
}

function extractGatewayServices(ctx: ConversionContext, gw: GwObject, info: ClassInfo): { services: string[]; error?: ConfigError } {
  const s = spec(gw);
  const suffix = ctx.opts.domainSuffix;
  if (isManaged(s)) {
    const name = gw.annotations['gateway.istio.io/name-override'] || defaultName(gw, info);
    return { services: [`${name}.${gw.namespace}.svc.${suffix}`] };
  }
  const services: string[] = [];
  const skipped: string[] = [];
  for (const raw of list(s.addresses)) {
    const a = obj(raw);
    const type = optStr(a.type);
    if (type !== undefined && type !== 'Hostname') {
      skipped.push(str(a.value));
      continue;
    }
    let fqdn = str(a.value);
    if (!fqdn.includes('.')) fqdn = `${fqdn}.${gw.namespace}.svc.${suffix}`;
    services.push(fqdn);
  }
  if (skipped.length > 0) return { services, error: { reason: 'UnsupportedAddress', message: `only Hostname is supported, ignoring [${skipped.join(' ')}]` } };
  if (Object.prototype.hasOwnProperty.call(gw.annotations, 'networking.istio.io/service-type')) {
    return { services, error: { reason: 'DeprecatedField', message: 'annotation networking.istio.io/service-type is deprecated, use Spec.Infrastructure.Routeability' } };
  }
  return { services };
}

/** GatewayCollection for one Gateway: an Istio Gateway per listener, those of its valid ListenerSets, and its status. */
function convertGateway(ctx: ConversionContext, gw: GwObject, fromSets: { entry: GatewayEntry; parent: ParentKey }[]): void {
  const s = spec(gw);
  const cls = ctx.fetchClass(str(s.gatewayClassName));
  if (!cls) return;
  const controller = cls.controller;
  const info = ctx.classInfos.get(controller);
  if (!info) return;
  const existing = obj(gw.body.status);
  const status: Json = { ...existing };
  const key = nsName(gw.namespace, gw.name);
  if (info.disableRouteGeneration) {
    status.addresses = list(s.addresses).map((a) => ({ ...obj(a) }));
    delete status.listeners;
    status.conditions = setConditions(gw.generation, readConditions(status.conditions), {
      Accepted: { reason: 'Accepted', message: 'Resource accepted' },
      Programmed: { reason: 'Programmed', message: 'This Gateway is remote; Istio will not program it' },
    }, ctx.now);
    ctx.gatewayStatuses.set(key, { obj: gw, status });
    return;
  }
  const servers: Json[] = [];
  let { services, error } = extractGatewayServices(ctx, gw, info);
  if (services.length === 0 && error) {
    const backendTLSErr = validateBackendClientCertificateRef(ctx, gw);
    reportGatewayStatus(ctx, gw, status, info, services, servers, 0, error, backendTLSErr, 0);
    ctx.gatewayStatuses.set(key, { obj: gw, status });
    return;
  }
  if (!error) error = validateParametersRef(ctx, gw);
  const serviceAccount = isManaged(s) ? gw.annotations['gateway.istio.io/service-account'] || defaultName(gw, info) : '';
  let validListeners = 0;
  const conflicts = conflictsFor(ctx, gw).get(`Gateway/${gw.namespace}/${gw.name}`);
  let listenerStatus = list(existing.listeners).map((x) => obj(x));
  list(s.listeners).forEach((raw, i) => {
    const l = obj(raw);
    const name = str(l.name);
    const reason = conflicts?.get(name);
    if (reason !== undefined) {
      listenerStatus = reportListenerConflict(ctx, i, l, gw, listenerStatus, reason);
      return;
    }
    const r = buildListener(ctx, gw, listenerStatus, s, l, i, controller, undefined);
    listenerStatus = r.statuses;
    if (r.ok) validListeners++;
    if (!r.server) return;
    servers.push(r.server);
    if (controller === MESH_CONTROLLER) return;
    if (controller === EASTWEST_CONTROLLER && num(l.port) === 15008) return;
    const annotations: Record<string, string> = {
      [ANNOTATION_PARENTS]: `Gateway/${gw.name}/${name}.${gw.namespace}`,
      [ANNOTATION_GATEWAY_SEMANTICS]: 'gateway',
      [ANNOTATION_GATEWAY_SERVICE]: services.join(','),
      [ANNOTATION_SERVICE_ACCOUNT]: serviceAccount,
    };
    ctx.gatewayEntries.push(listenerGatewayEntry(gw, GK_GATEWAY, l, r.server, r.ok, annotations));
  });
  status.listeners = listenerStatus;
  const attachedSets = new Set<string>();
  for (const { entry } of fromSets) {
    if (!entry.valid) continue;
    attachedSets.add(parentKeyString(entry.parent));
    servers.push(...(entry.config.spec.servers as Json[]));
    ctx.gatewayEntries.push(entry);
  }
  const backendTLSErr = validateBackendClientCertificateRef(ctx, gw);
  reportGatewayStatus(ctx, gw, status, info, services, servers, attachedSets.size, error, backendTLSErr, validListeners);
  ctx.gatewayStatuses.set(key, { obj: gw, status });
}

function validateParametersRef(ctx: ConversionContext, gw: GwObject): ConfigError | undefined {
  const infra = obj(spec(gw).infrastructure);
  if (!isObject(infra.parametersRef)) return undefined;
  const p = obj(infra.parametersRef);
  if (str(p.kind) !== 'ConfigMap' || str(p.group) !== '') {
    return { reason: 'InvalidParameters', message: `Unsupported parametersRef group/kind ${str(p.group)}/${str(p.kind)}, only ConfigMap is supported` };
  }
  if (!ctx.find('ConfigMap', gw.namespace, str(p.name))) {
    return { reason: 'InvalidParameters', message: `parametersRef ConfigMap ${gw.namespace}/${str(p.name)} does not exist` };
  }
  return undefined;
}

function validateBackendClientCertificateRef(ctx: ConversionContext, gw: GwObject): ConfigError | undefined {
  const backend = obj(obj(spec(gw).tls).backend);
  if (!isObject(backend.clientCertificateRef)) return undefined;
  const ref = obj(backend.clientCertificateRef);
  const ns = gw.namespace;
  const refStr = secretRefString(ref);
  if (!gkEq(normalizeRef(optStr(ref.group), optStr(ref.kind), GK_SECRET), GK_SECRET)) {
    return { reason: 'InvalidClientCertificateRef', message: `invalid clientCertificateRef ${refStr}, only secret is allowed` };
  }
  const credNs = optStr(ref.namespace) ?? ns;
  const key = `${credNs}/${str(ref.name)}`;
  const secret = ctx.find('Secret', credNs, str(ref.name));
  if (!secret) return { reason: 'InvalidClientCertificateRef', message: `invalid clientCertificateRef ${refStr}, secret ${key} not found` };
  const ci = extractCertInfo(secretData(secret));
  if ('error' in ci) return { reason: 'InvalidClientCertificateRef', message: `invalid clientCertificateRef ${refStr}, ${ci.error}` };
  const pairErr = x509KeyPairError(ci.cert, ci.key);
  if (pairErr) return { reason: 'InvalidClientCertificateRef', message: `invalid clientCertificateRef ${refStr}, the certificate is malformed: ${pairErr}` };
  if (credNs !== ns && !secretAllowed(ctx, GK_GATEWAY, `kubernetes-gateway://${credNs}/${str(ref.name)}`, ns)) {
    return { reason: 'RefNotPermitted', message: `clientCertificateRef ${str(ref.name)}/${credNs} not accessible to a Gateway in namespace ${JSON.stringify(ns)} (missing a ReferenceGrant?)` };
  }
  return undefined;
}

function reportListenerConflict(ctx: ConversionContext, index: number, l: Json, o: GwObject, statuses: Json[], reason: string): Json[] {
  const msg = 'Listener has a conflict with another listener attached to the same Gateway';
  return reportListenerCondition(ctx, index, l, o, statuses, {
    Accepted: { error: { reason, message: msg } },
    Programmed: { error: { reason, message: msg } },
    Conflicted: { reason, message: msg, status: 'True' },
  });
}

function reportListenerCondition(ctx: ConversionContext, index: number, l: Json, o: GwObject, statuses: Json[], conds: Record<string, CondSpec>): Json[] {
  const out = statuses.slice();
  while (index >= out.length) out.push({});
  const prior = readConditions(obj(out[index]).conditions);
  const sk = supportedKinds(l);
  if (!sk.valid) conds.ResolvedRefs = { reason: 'InvalidRouteKinds', status: 'False', message: 'Invalid route kinds' };
  out[index] = {
    attachedRoutes: 0,
    conditions: setConditions(o.generation, prior, conds, ctx.now),
    name: str(l.name),
    supportedKinds: sk.kinds.map((k) => ({ ...(k.group !== undefined ? { group: k.group } : {}), kind: k.kind })),
  };
  return out;
}

function buildListener(
  ctx: ConversionContext, o: GwObject, statuses: Json[], gwSpec: Json, l: Json, index: number, controller: string, portErr: string | undefined,
): { server: Json | undefined; statuses: Json[]; ok: boolean } {
  const conds: Record<string, CondSpec> = {
    Accepted: { reason: 'Accepted', message: 'No errors found' },
    Programmed: { reason: 'Programmed', message: 'No errors found' },
    Conflicted: { reason: 'NoConflicts', message: 'No errors found', status: 'False' },
    ResolvedRefs: { reason: 'ResolvedRefs', message: 'No errors found' },
  };
  let ok = true;
  const port = num(l.port);
  const tlsCfg = isObject(l.tls) ? obj(l.tls) : undefined;
  const { tls, error: tlsErr } = buildTLS(ctx, resolveGatewayTLS(port, gwSpec), tlsCfg, o, isAutoPassthrough(o.labels, l));
  if (tlsErr) {
    (conds.ResolvedRefs as CondSpec).error = tlsErr;
    (conds.Programmed as CondSpec).error = { reason: 'Invalid', message: 'Bad TLS configuration' };
    if (tlsErr.reason === 'InvalidCACertificateRef' || tlsErr.reason === 'InvalidCACertificateKind' || tlsErr.reason === 'RefNotPermitted') {
      (conds.Accepted as CondSpec).error = { reason: 'NoValidCACertificate', message: tlsErr.message };
    }
    ok = false;
  }
  const hosts = buildHostnameMatch(ctx, o.namespace, l);
  if (portErr !== undefined) {
    (conds.Accepted as CondSpec).error = { reason: 'UnsupportedProtocol', message: portErr };
    ok = false;
  }
  const protocol = str(l.protocol);
  const p = listenerProtocolToIstio(controller, protocol);
  if ('error' in p) {
    (conds.Accepted as CondSpec).error = { reason: 'UnsupportedProtocol', message: p.error };
    ok = false;
  }
  if (controller === MESH_CONTROLLER && (port !== 15008 || protocol !== 'HBONE')) {
    (conds.Accepted as CondSpec).error = { reason: 'UnsupportedProtocol', message: 'Expected a single listener on port 15008 with protocol "HBONE"' };
  }
  if (controller === EASTWEST_CONTROLLER && unexpectedEastWestListener(l)) {
    (conds.Accepted as CondSpec).error = {
      reason: 'UnsupportedProtocol',
      message: 'East-west gateway listeners must be either port 15008 with protocol "HBONE" and TLS.Mode == Terminate, or TLS with TLS.Mode == Passthrough',
    };
  }
  let server: Json | undefined = {
    port: { name: 'default', number: port, ...('error' in p ? {} : { protocol: p.protocol }) },
    hosts,
    ...(tls ? { tls } : {}),
  };
  if (!tls && (protocol === 'HTTPS' || protocol === 'TLS')) {
    server = undefined;
    if (o.kind === 'ListenerSet') {
      ok = false;
      (conds.Accepted as CondSpec).error = { reason: 'UnsupportedProtocol', message: `protocol is ${protocol} but no TLS section is defined` };
      (conds.Programmed as CondSpec).error = { reason: 'Invalid', message: 'Bad TLS configuration' };
    }
  }
  return { server, statuses: reportListenerCondition(ctx, index, l, o, statuses, conds), ok };
}

function buildHostnameMatch(ctx: ConversionContext, localNs: string, l: Json): string[] {
  const hostname = optStr(l.hostname) ?? '*';
  const resp: string[] = [];
  for (const ns of namespacesFromSelector(ctx, localNs, l.allowedRoutes)) if (ns.length > 0) resp.push(`${ns}/${hostname}`);
  return resp.length === 0 ? [`~/${hostname}`] : resp;
}

function namespacesFromSelector(ctx: ConversionContext, localNs: string, allowedRoutes: unknown): string[] {
  const ar = isObject(allowedRoutes) ? allowedRoutes : undefined;
  const nsCfg = ar && isObject(ar.namespaces) ? ar.namespaces : undefined;
  const from = nsCfg ? optStr(nsCfg.from) : undefined;
  if (!nsCfg || from === undefined || from === 'Same') return [localNs];
  if (from === 'All') return ['*'];
  if (!isObject(nsCfg.selector)) return ['*'];
  const sel = nsCfg.selector;
  if (!validSelector(sel)) return [];
  const out: string[] = [];
  for (const n of ctx.all('Namespace')) if (selectorMatches(sel, withNameLabel(n.name, { ...n.labels }))) out.push(n.name);
  return out.sort();
}

function buildTLS(ctx: ConversionContext, gatewayTLS: Json | undefined, tls: Json | undefined, gw: GwObject, autoPassthrough: boolean): { tls?: Json; error?: ConfigError } {
  if (!tls) return {};
  const out: Json = {};
  const mode = optStr(tls.mode) ?? 'Terminate';
  const namespace = gw.namespace;
  const options = stringRecord(tls.options);
  const ownKind = gw.kind === 'ListenerSet' ? GK_LISTENERSET : GK_GATEWAY;
  if (mode === 'Terminate') {
    out.mode = 'SIMPLE';
    const tm = options['gateway.istio.io/tls-terminate-mode'];
    if (tm === 'MUTUAL') out.mode = 'MUTUAL';
    else if (tm === 'OPTIONAL_MUTUAL') out.mode = 'OPTIONAL_MUTUAL';
    else if (tm === 'ISTIO_SIMPLE') return { tls: { mode: 'SIMPLE', credentialName: 'builtin://' } };
    else if (tm === 'ISTIO_MUTUAL') return { tls: { mode: 'ISTIO_MUTUAL' } };
    const refs = list(tls.certificateRefs).map(obj);
    if (refs.length > 2) return { tls: out, error: { reason: 'InvalidCertificateRef', message: 'TLS mode can only support up to 2 server certificates' } };
    const names: string[] = refs.map(() => '');
    let valid = 0;
    let combined: ConfigError | undefined;
    refs.forEach((ref, i) => {
      const credNs = optStr(ref.namespace) ?? namespace;
      if (credNs !== namespace && !secretAllowed(ctx, ownKind, `kubernetes-gateway://${credNs}/${str(ref.name)}`, namespace)) {
        combined = joinErrors(combined, {
          reason: 'RefNotPermitted',
          message: `certificateRef ${str(ref.name)}/${credNs} not accessible to a Gateway in namespace ${JSON.stringify(namespace)} (missing a ReferenceGrant?)`,
        });
        return;
      }
      const r = buildSecretReference(ctx, ref, gw);
      if ('error' in r) {
        combined = joinErrors(combined, r.error);
        return;
      }
      names[i] = r.name;
      valid++;
    });
    if (valid === 0) return { tls: out, error: combined };
    if (valid === 1) out.credentialName = names[0];
    else out.credentialNames = names;
    const validation = gatewayTLS ? obj(gatewayTLS.validation) : {};
    const caRefs = list(validation.caCertificateRefs).map(obj);
    if (gatewayTLS && isObject(gatewayTLS.validation) && caRefs.length > 0) {
      if (caRefs.length > 1) return { tls: out, error: { reason: 'InvalidCACertificateRef', message: 'only one caCertificateRef is supported' } };
      const ca = caRefs[0] as Json;
      const caNs = optStr(ca.namespace) ?? namespace;
      const caType = gkEq(normalizeRef(optStr(ca.group) ?? '', optStr(ca.kind) ?? '', GK_NONE), GK_SECRET) ? 'kubernetes-gateway' : 'configmap';
      const caResource = `${caType}://${caNs}/${str(ca.name)}-cacert`;
      if (caNs !== namespace && !secretAllowed(ctx, ownKind, caResource, namespace)) {
        return {
          tls: out,
          error: { reason: 'RefNotPermitted', message: `caCertificateRef ${caNs}/${str(ca.name)} not accessible to a Gateway in namespace ${JSON.stringify(namespace)} (missing a ReferenceGrant?)` },
        };
      }
      const cred = buildCaCertificateReference(ctx, ca, gw);
      if ('error' in cred) return { tls: out, error: cred.error };
      out.mode = 'MUTUAL';
      out.insecureSkipVerify = false;
      if (str(validation.mode) === 'AllowInsecureFallback') {
        out.mode = 'OPTIONAL_MUTUAL';
        out.insecureSkipVerify = true;
      }
      out.caCertCredentialName = cred.name;
      if (tm === 'MUTUAL') {
        out.mode = 'MUTUAL';
        out.insecureSkipVerify = false;
      } else if (tm === 'OPTIONAL_MUTUAL') {
        out.mode = 'OPTIONAL_MUTUAL';
        out.insecureSkipVerify = false;
      }
    }
  } else if (mode === 'Passthrough') {
    // PASSTHROUGH is the enum's zero value: proto3 JSON leaves it out.
    if (autoPassthrough) out.mode = 'AUTO_PASSTHROUGH';
  }
  const ciphers = options['gateway.istio.io/tls-cipher-suites'];
  if (ciphers) {
    const filtered = filterCipherSuites(ciphers.split(',').map((c) => c.trim()));
    if (filtered.length > 0) out.cipherSuites = filtered;
  }
  return { tls: out };
}

function buildSecretReference(ctx: ConversionContext, ref: Json, gw: GwObject): { name: string } | { error: ConfigError } {
  const refStr = secretRefString(ref);
  if (!gkEq(normalizeRef(optStr(ref.group), optStr(ref.kind), GK_SECRET), GK_SECRET)) {
    return { error: { reason: 'InvalidCertificateRef', message: `invalid certificate reference ${refStr}, only secret is allowed` } };
  }
  const ns = optStr(ref.namespace) ?? gw.namespace;
  const key = `${ns}/${str(ref.name)}`;
  const secret = ctx.find('Secret', ns, str(ref.name));
  if (!secret) return { error: { reason: 'InvalidCertificateRef', message: `invalid certificate reference ${refStr}, secret ${key} not found` } };
  const ci = extractCertInfo(secretData(secret));
  if ('error' in ci) return { error: { reason: 'InvalidCertificateRef', message: `invalid certificate reference ${refStr}, ${ci.error}` } };
  const pairErr = x509KeyPairError(ci.cert, ci.key);
  if (pairErr) return { error: { reason: 'InvalidCertificateRef', message: `invalid certificate reference ${refStr}, the certificate is malformed: ${pairErr}` } };
  return { name: `kubernetes-gateway://${ns}/${str(ref.name)}` };
}

function buildCaCertificateReference(ctx: ConversionContext, ref: Json, gw: GwObject): { name: string } | { error: ConfigError } {
  const ns = optStr(ref.namespace) ?? gw.namespace;
  const name = str(ref.name);
  const refStr = `${str(ref.group)}/${str(ref.kind)}/${name}.${str(ref.namespace)}`;
  const gk = normalizeRef(optStr(ref.group) ?? '', optStr(ref.kind) ?? '', GK_NONE);
  let type: string;
  let root: { cert: string } | { error: string };
  if (gkEq(gk, GK_CONFIGMAP)) {
    type = 'configmap';
    const cm = ctx.find('ConfigMap', ns, name);
    if (!cm) return { error: { reason: 'InvalidCACertificateRef', message: `invalid CA certificate reference ${refStr}, configmap ${ns}/${name} not found` } };
    root = extractRoot(stringRecord(cm.body.data));
  } else if (gkEq(gk, GK_SECRET)) {
    type = 'kubernetes-gateway';
    const secret = ctx.find('Secret', ns, name);
    if (!secret) return { error: { reason: 'InvalidCACertificateRef', message: `invalid CA certificate reference ${refStr}, secret ${ns}/${name} not found` } };
    root = extractRoot(secretData(secret));
  } else {
    return { error: { reason: 'InvalidCACertificateKind', message: `invalid CA certificate reference ${refStr}, only secret and configmap are allowed` } };
  }
  if ('error' in root) return { error: { reason: 'InvalidCACertificateRef', message: `invalid CA certificate reference ${refStr}, ${root.error}` } };
  if (!bundleHasCertificate(root.cert)) return { error: { reason: 'InvalidCACertificateRef', message: `invalid CA certificate reference ${refStr}, the bundle is malformed` } };
  return { name: `${type}://${ns}/${name}-cacert` };
}

/** gatewaycommon.ReferenceGrants.SecretAllowed */
function secretAllowed(ctx: ConversionContext, from: GK, resourceName: string, namespace: string): boolean {
  let kind: GK;
  let rest: string;
  if (resourceName.startsWith('kubernetes-gateway://')) {
    kind = GK_SECRET;
    rest = resourceName.slice('kubernetes-gateway://'.length);
  } else if (resourceName.startsWith('configmap://')) {
    kind = GK_CONFIGMAP;
    rest = resourceName.slice('configmap://'.length);
  } else {
    return false;
  }
  const parts = rest.split('/');
  if (parts.length < 2 || !parts[0] || !parts[1]) return false;
  return grantAllows(ctx, from, namespace, kind, parts[0], parts[1]);
}

function grantAllows(ctx: ConversionContext, from: GK, fromNs: string, to: GK, toNs: string, name: string): boolean {
  for (const rg of ctx.all('ReferenceGrant')) {
    if (rg.namespace !== toNs) continue;
    const s = spec(rg);
    const fromOk = list(s.from).map(obj).some((f) => {
      const gk = normalizeRef(str(f.group), str(f.kind), GK_NONE);
      const allowed = [GK_GATEWAY, { group: GW_GROUP, kind: 'HTTPRoute' }, { group: GW_GROUP, kind: 'GRPCRoute' }, { group: GW_GROUP, kind: 'TLSRoute' }, { group: GW_GROUP, kind: 'TCPRoute' }, GK_LISTENERSET];
      return allowed.some((a) => gkEq(a, gk)) && gkEq(gk, from) && str(f.namespace) === fromNs;
    });
    if (!fromOk) continue;
    for (const t of list(s.to).map(obj)) {
      const gk = normalizeRef(str(t.group), str(t.kind), GK_NONE);
      if (![GK_CONFIGMAP, GK_SECRET, GK_SERVICE, GK_XBACKEND, GK_INFERENCEPOOL].some((a) => gkEq(a, gk))) continue;
      if (!gkEq(gk, to)) continue;
      const tn = optStr(t.name);
      if (tn === undefined || tn === name) return true;
    }
  }
  return false;
}

/** gatewaycommon.GatewayContext.ResolveGatewayInstances */
function resolveGatewayInstances(ctx: ConversionContext, namespace: string, gwsvcs: string[], servers: Json[]): {
  internal: string[]; internalIP: string[]; external: string[]; pending: string[]; warnings: string[]; allUsable: boolean;
} {
  const ports = [...new Set(servers.map((s) => num(obj(s.port).number)))];
  const internal = new Set<string>();
  const internalIP = new Set<string>();
  const external = new Set<string>();
  const pending = new Set<string>();
  const warnings: string[] = [];
  let unusable = false;
  for (const g of gwsvcs) {
    const all = ctx.opts.registry.byHostname(g);
    const svc = all.find((s) => s.namespace === namespace);
    if (!svc) {
      const others = [...new Set(all.map((s) => `"${s.namespace}"`))].sort();
      warnings.push(others.length > 0
        ? `hostname ${JSON.stringify(g)} not found in namespace ${JSON.stringify(namespace)}, but it was found in namespace(s) ${others.join(', ')}`
        : `hostname ${JSON.stringify(g)} not found`);
      unusable = true;
      continue;
    }
    for (const port of ports) {
      const instances = svc.endpointPorts.get(port) ?? [];
      if (svc.ports.some((p) => p.port === port) && instances.length > 0) {
        internal.add(`${g}:${port}`);
        for (const a of svc.addresses) internalIP.add(a);
        if (svc.externalAddresses.length > 0) {
          for (const a of svc.externalAddresses) external.add(a);
        } else if (svc.loadBalancer && !pending.has(g)) {
          warnings.push(`address pending for hostname ${JSON.stringify(g)}`);
          pending.add(g);
        }
        continue;
      }
      const byPort = [...svc.endpointPorts.entries()];
      if (byPort.every(([, eps]) => eps.length === 0)) {
        warnings.push(`no instances found for hostname ${JSON.stringify(g)}`);
        continue;
      }
      const hint = new Set<string>();
      for (const [sp, eps] of byPort) for (const ep of eps) if (ep === port) hint.add(String(sp));
      if (hint.size > 0) {
        warnings.push(`port ${port} not found for hostname ${JSON.stringify(g)} (hint: the service port should be specified, not the workload port. Did you mean one of these ports: [${[...hint].sort().join(' ')}]?)`);
        unusable = true;
      } else {
        const managed = Object.prototype.hasOwnProperty.call(svc.labels, 'gateway.istio.io/managed');
        const portExists = svc.ports.some((p) => p.port === port);
        if (!managed || !portExists) {
          warnings.push(`port ${port} not found for hostname ${JSON.stringify(g)}`);
          unusable = true;
        }
      }
    }
  }
  warnings.sort();
  return {
    internal: [...internal].sort(), internalIP: [...internalIP].sort(), external: [...external].sort(), pending: [...pending].sort(),
    warnings, allUsable: !unusable,
  };
}

function reportGatewayStatus(
  ctx: ConversionContext, gw: GwObject, status: Json, info: ClassInfo, services: string[], servers: Json[], listenerSetCount: number,
  gatewayErr: ConfigError | undefined, backendTLSErr: ConfigError | undefined, validListeners: number,
): void {
  const res = resolveGatewayInstances(ctx, gw.namespace, services, servers);
  const conds: Record<string, CondSpec> = {
    Accepted: { reason: 'Accepted', message: 'Resource accepted' },
    Programmed: { reason: 'Programmed', message: 'Resource programmed' },
    ResolvedRefs: { reason: 'ResolvedRefs', message: 'All references resolved' },
  };
  const total = list(spec(gw).listeners).length;
  if (gatewayErr) (conds.Accepted as CondSpec).error = gatewayErr;
  else if (total > 0 && validListeners < total) {
    if (validListeners === 0) (conds.Accepted as CondSpec).error = { reason: 'ListenersNotValid', message: "None of the Gateway's listeners are valid" };
    else conds.Accepted = { reason: 'ListenersNotValid', message: "One or more of the Gateway's listeners are invalid" };
  }
  if (backendTLSErr) (conds.ResolvedRefs as CondSpec).error = backendTLSErr;
  if (listenerSetCount !== 0) status.attachedListenerSets = listenerSetCount;
  let existingConds = readConditions(status.conditions);
  const frontend = obj(spec(gw).tls).frontend;
  if (isObject(frontend)) {
    let insecure = str(obj(obj(frontend.default).validation).mode) === 'AllowInsecureFallback';
    if (!insecure) insecure = list(frontend.perPort).some((pp) => str(obj(obj(obj(pp).tls).validation).mode) === 'AllowInsecureFallback');
    if (insecure) {
      conds.InsecureFrontendValidationMode = { status: 'True', reason: 'ConfigurationChanged', message: 'Gateway is operating in AllowInsecureFallback mode for frontend validation' };
    } else {
      existingConds = existingConds.filter((c) => c.type !== 'InsecureFrontendValidationMode');
    }
  }
  setProgrammed(conds, res.internal, services, res.warnings, res.allUsable);
  let addresses = res.external;
  if (addresses.length === 0) {
    const want = gw.annotations['networking.istio.io/address-type'] ?? info.addressType;
    addresses = [];
    if (want !== 'Hostname') addresses = res.internalIP.slice();
    if (want !== 'IPAddress') {
      for (const hp of res.internal) {
        const h = hp.slice(0, hp.lastIndexOf(':'));
        if (!res.pending.includes(h) && !addresses.includes(h)) addresses.push(h);
      }
    }
  }
  if (addresses.length > 0) status.addresses = addresses.map((a) => ({ type: isIP(a) ? 'IPAddress' : 'Hostname', value: a }));
  const have = new Set(list(spec(gw).listeners).map((l) => str(obj(l).name)));
  const kept: Json[] = [];
  for (const l of list(status.listeners).map(obj)) {
    if (have.has(str(l.name))) {
      have.delete(str(l.name));
      kept.push(l);
    }
  }
  status.listeners = kept;
  status.conditions = setConditions(gw.generation, existingConds, conds, ctx.now);
}

// -- Routes ------------------------------------------------------------------------------------

function routeHostnames(r: GwObject, kind: RouteKind): string[] {
  if (kind === 'TCPRoute') return [];
  return list(spec(r).hostnames).map(str);
}

function waypointManagedByAnotherController(ctx: ConversionContext, kind: GK, ns: string, name: string): boolean {
  let labels: Record<string, string>;
  if (gkEq(kind, GK_SERVICE)) {
    const svc = ctx.find('Service', ns, name);
    if (!svc) return false;
    labels = { ...svc.labels };
  } else if (gkEq(kind, GK_SERVICEENTRY)) {
    const se = ctx.find('ServiceEntry', ns, name);
    if (!se) return false;
    labels = { ...se.labels };
  } else {
    return false;
  }
  let wp = labels['istio.io/use-waypoint'];
  if (wp === undefined) {
    const nsl = ctx.namespaceLabels(ns);
    if (!nsl) return false;
    labels = nsl;
    wp = labels['istio.io/use-waypoint'];
  }
  if (wp === undefined || wp === '' || wp.toLowerCase() === 'none') return false;
  const wpNs = labels['istio.io/use-waypoint-namespace'] || ns;
  const waypoint = ctx.find('Gateway', wpNs, wp);
  if (!waypoint) return false;
  const cls = ctx.all('GatewayClass').find((c) => c.name === str(spec(waypoint).gatewayClassName));
  if (!cls) return false;
  const ctrl = str(spec(cls).controllerName);
  return ctrl !== MESH_CONTROLLER && ctrl !== GATEWAY_CONTROLLER;
}

function referenceAllowed(ctx: ConversionContext, parent: ParentInfo, routeKind: RouteKind, ref: { kind: GK; ns: string; name: string; section: string; port: number }, hostnames: string[], localNs: string): { denied?: ParentError; waypoint?: ConfigError } {
  const missingLabel = { reason: 'MissingUseWaypointLabel', message: 'istio.io/use-waypoint label missing from parent and parent namespace; in ambient mode, route will not be respected' };
  const noParent = { reason: 'NoMatchingParent', message: 'parent not found' };
  if (gkEq(ref.kind, GK_SERVICE)) {
    const svc = ctx.find('Service', ref.ns, ref.name);
    if (!svc) return { denied: { reason: 'NoMatchingParent', message: `parent service: ${JSON.stringify(ref.name)} not found` }, waypoint: noParent };
    if (!waypointConfigured(svc.labels)) {
      const nsl = ctx.namespaceLabels(svc.namespace);
      if (nsl && !waypointConfigured(nsl)) return { waypoint: missingLabel };
    }
  } else if (gkEq(ref.kind, GK_SERVICEENTRY)) {
    const se = ctx.find('ServiceEntry', ref.ns, ref.name);
    if (!se) return { denied: { reason: 'NoMatchingParent', message: `parent service entry: ${JSON.stringify(ref.name)} not found` }, waypoint: noParent };
    if (!waypointConfigured(se.labels)) {
      const nsl = ctx.namespaceLabels(ref.ns);
      if (nsl && !waypointConfigured(nsl)) return { waypoint: missingLabel };
    }
  } else {
    if (ref.port !== 0 && ref.port !== parent.port) return { denied: { reason: 'NoMatchingParent', message: `port ${ref.port} not found` } };
    if (ref.section.length > 0 && ref.section !== parent.sectionName) {
      return { denied: { reason: 'NoMatchingParent', message: `sectionName ${JSON.stringify(ref.section)} not found` } };
    }
    const hs = hostnames.length === 0 ? ['*'] : hostnames;
    if (parent.hostnames.length > 0) {
      let matched = false;
      let hostMatched = false;
      out: for (const rh of hs) {
        for (const phn of parent.hostnames) {
          let pns: string;
          let ph: string;
          if (phn.includes('/')) {
            const spl = phn.split('/');
            pns = spl[0] as string;
            ph = spl[1] as string;
          } else {
            pns = '*';
            ph = phn;
          }
          const hm = hostMatches(ph, rh);
          const nm = pns === '*' || pns === localNs;
          hostMatched = hostMatched || hm;
          if (hm && nm) {
            matched = true;
            break out;
          }
        }
      }
      if (!matched) {
        if (hostMatched) {
          return { denied: { reason: 'NotAllowedByListeners', message: `hostnames matched parent hostname ${JSON.stringify(parent.originalHostname)}, but namespace ${JSON.stringify(localNs)} is not allowed by the parent` } };
        }
        return { denied: { reason: 'NoMatchingListenerHostname', message: `no hostnames matched parent hostname ${JSON.stringify(parent.originalHostname)}` } };
      }
    }
  }
  const kindOk = parent.allowedKinds.some((ak) => ak.kind === routeKind && (ak.group ?? GW_GROUP) === GW_GROUP);
  if (!kindOk) return { denied: { reason: 'NotAllowedByListeners', message: `kind ${gkString({ group: GW_GROUP, kind: routeKind })} is not allowed` } };
  return {};
}

function extractParentReferenceInfo(ctx: ConversionContext, route: GwObject, kind: RouteKind): RouteParentRef[] {
  const localNs = route.namespace;
  const hostnames = routeHostnames(route, kind);
  const out: RouteParentRef[] = [];
  list(spec(route).parentRefs).forEach((raw, refIndex) => {
    const ref = obj(raw);
    const gk = normalizeRef(optStr(ref.group), optStr(ref.kind), GK_GATEWAY);
    if (![GK_GATEWAY, GK_SERVICE, GK_SERVICEENTRY, GK_LISTENERSET].some((a) => gkEq(a, gk))) return;
    const pk: ParentKey = { kind: gk, name: str(ref.name), namespace: optStr(ref.namespace) ?? localNs };
    const section = str(ref.sectionName);
    const port = num(ref.port);
    let currentParents: ParentInfo[];
    if (gkEq(gk, GK_SERVICE) || gkEq(gk, GK_SERVICEENTRY)) {
      if (waypointManagedByAnotherController(ctx, gk, pk.namespace, pk.name)) return;
      currentParents = [MESH_PARENT];
    } else {
      currentParents = ctx.routeParents.get(parentKeyString(pk)) ?? [];
    }
    const anyPointer = ['group', 'kind', 'namespace', 'sectionName', 'port'].some((f) => ref[f] !== undefined && ref[f] !== null);
    const originalKey = `${parentRefString(ref, localNs)}${anyPointer ? `#${refIndex}` : ''}`;
    for (const pr of currentParents) {
      const banned = new Set<string>();
      for (const g of currentParents) {
        if (g === pr || g.port !== pr.port || g.protocol !== pr.protocol) continue;
        banned.add(g.originalHostname);
      }
      banned.delete(pr.originalHostname);
      const r = referenceAllowed(ctx, pr, kind, { kind: gk, ns: pk.namespace, name: pk.name, section, port }, hostnames, localNs);
      out.push({
        internalName: pr.internalName,
        internalKind: gk,
        hostname: pr.originalHostname,
        ...(r.denied ? { deniedReason: r.denied } : {}),
        ...(r.waypoint ? { waypointError: r.waypoint } : {}),
        original: ref,
        originalKey,
        bannedHostnames: banned,
        parentKey: pk,
        parentSection: pr.sectionName,
      });
    }
  });
  return stableSortBy(out, (r) => parentRefString(r.original, localNs));
}

/** gatewayRouteAttachmentCountCollection: the route counts once per Gateway or ListenerSet section it attached to. */
function recordAttachments(ctx: ConversionContext, route: GwObject, kind: RouteKind, refs: RouteParentRef[]): void {
  for (const e of filteredReferences(refs)) {
    if (!gkEq(e.parentKey.kind, GK_GATEWAY) && !gkEq(e.parentKey.kind, GK_LISTENERSET)) continue;
    const to = nsName(e.parentKey.namespace, e.parentKey.name);
    const id = `${kind}/${route.namespace}/${route.name}/${to}/${e.parentSection}`;
    if (ctx.routeAttachments.has(id)) continue;
    ctx.routeAttachments.add(id);
    const m = mapAt(ctx.attachedRouteCounts, to);
    m.set(e.parentSection, (m.get(e.parentSection) ?? 0) + 1);
  }
}

/** extractAncestorBackends: the Gateways each backend of the route is reached from (for backend policy ancestors). */
function recordAncestors(ctx: ConversionContext, route: GwObject, backendRefs: Json[]): void {
  const gateways = new Set<string>();
  for (const raw of list(spec(route).parentRefs)) {
    const r = obj(raw);
    if (!gkEq(normalizeRef(optStr(r.group), optStr(r.kind), GK_GATEWAY), GK_GATEWAY)) continue;
    gateways.add(nsName(optStr(r.namespace) ?? route.namespace, str(r.name)));
  }
  const backends = new Set<string>();
  for (const b of backendRefs) {
    const gk = normalizeRef(optStr(b.group), optStr(b.kind), GK_SERVICE);
    if (!KNOWN_GK.some((k) => gkEq(k, gk))) continue;
    backends.add(`${gk.kind}/${optStr(b.namespace) ?? route.namespace}/${str(b.name)}`);
  }
  for (const g of gateways) for (const b of backends) ctx.ancestorBackends.push({ gateway: g, backendKind: b.split('/')[0] as string, backend: b });
}

/** computeRoute: parents, the mesh and gateway conversions, and the route's status. */
function computeRoute<O>(ctx: ConversionContext, route: GwObject, kind: RouteKind, translate: (mesh: boolean) => Iterable<[O | undefined, ConfigError | undefined]>): {
  refs: RouteParentRef[]; mesh: { routes: O[]; error?: ConfigError }; gw: { routes: O[]; error?: ConfigError };
} {
  const refs = extractParentReferenceInfo(ctx, route, kind);
  const convert = (mesh: boolean) => {
    const res: { routes: O[]; error?: ConfigError } = { routes: [] };
    for (const [vs, err] of translate(mesh)) {
      if (vs === undefined) return { routes: [], error: err };
      if (err) res.error = err;
      res.routes.push(vs);
    }
    return res;
  };
  const needMesh = refs.some((r) => r.internalName === 'mesh');
  const needGw = refs.some((r) => r.internalName !== 'mesh');
  const mesh = needMesh ? convert(true) : { routes: [] as O[] };
  const gw = needGw ? convert(false) : { routes: [] as O[] };
  const results = refs.map((r) => ({
    ref: r,
    denied: r.deniedReason ? { ...r.deniedReason } : undefined,
    routeError: r.internalName === 'mesh' ? mesh.error : gw.error,
    waypointError: r.internalName === 'mesh' ? r.waypointError : undefined,
  }));
  const existing = obj(route.body.status);
  const parents = createRouteStatus(ctx, results, route.namespace, route.generation, list(existing.parents).map(obj));
  ctx.writeStatus(route, { ...existing, parents });
  recordAttachments(ctx, route, kind, refs);
  return { refs, mesh, gw };
}

/** createRouteStatus: one status.parents entry per parentRef as written, keeping other controllers' entries. */
function createRouteStatus(
  ctx: ConversionContext, results: { ref: RouteParentRef; denied?: ParentError; routeError?: ConfigError; waypointError?: ConfigError }[],
  ns: string, generation: number, current: Json[],
): Json[] {
  const parents = current.slice();
  const indexes = new Map<string, number>();
  current.forEach((p, i) => {
    if (str(p.controllerName) !== GATEWAY_CONTROLLER) return;
    const rs = parentRefString(obj(p.parentRef), ns);
    if (!indexes.has(rs)) indexes.set(rs, i);
  });
  const seen = new Map<string, typeof results>();
  const success = new Map<string, number>();
  for (const r of results) {
    const k = r.ref.originalKey;
    if (!r.denied) success.set(k, (success.get(k) ?? 0) + 1);
    listAt(seen, k).push(r);
  }
  const rank = (r: (typeof results)[number]) => {
    if (!r.denied) return 0;
    switch (r.denied.reason) {
      case 'NotAllowedByListeners': return 1;
      case 'NoMatchingListenerHostname': return 2;
      case 'ParentRefConflict': return 3;
      case 'NoMatchingParent': return 4;
    }
    return 0;
  };
  const toAppend: Json[] = [];
  for (const [k, rs] of seen) {
    let toReport = { ...(rs[0] as (typeof results)[number]) };
    let best = rank(toReport);
    for (const r of rs.slice(1)) {
      const rr = rank(r);
      if (rr < best) {
        best = rr;
        toReport = { ...r };
      } else if (rr === best) {
        if (!toReport.denied) toReport.denied = r.denied ? { ...r.denied } : undefined;
        else if (r.denied) toReport.denied = { ...toReport.denied, message: `${toReport.denied.message}; ${r.denied.message}` };
      }
    }
    const n = success.get(k) ?? 0;
    const conds: Record<string, CondSpec> = {
      Accepted: { reason: 'Accepted', message: n > 1 ? `Route was valid, bound to ${n} parents` : 'Route was valid' },
      ResolvedRefs: { reason: 'ResolvedRefs', message: 'All references resolved' },
    };
    if (toReport.routeError) (conds.ResolvedRefs as CondSpec).error = toReport.routeError;
    if (toReport.denied) (conds.Accepted as CondSpec).error = { reason: toReport.denied.reason, message: toReport.denied.message };
    if (ctx.opts.ambient) conds.ResolvedWaypoints = { reason: 'ResolvedWaypoints', message: toReport.waypointError?.message ?? 'All waypoints resolved' };
    const myRef = parentRefString(toReport.ref.original, ns);
    const cur = current.find((s) => parentRefString(obj(s.parentRef), ns) === myRef && str(s.controllerName) === GATEWAY_CONTROLLER);
    const entry: Json = {
      conditions: setConditions(generation, cur ? readConditions(cur.conditions) : [], conds, ctx.now),
      controllerName: GATEWAY_CONTROLLER,
      parentRef: { ...toReport.ref.original },
    };
    const idx = indexes.get(myRef);
    if (idx !== undefined) {
      parents[idx] = entry;
      indexes.delete(myRef);
    } else {
      toAppend.push(entry);
    }
  }
  toAppend.sort((a, b) => cmp(parentRefString(obj(b.parentRef), ns), parentRefString(obj(a.parentRef), ns)));
  const toDelete = new Set(indexes.values());
  return [...parents, ...toAppend].filter((_, i) => i >= parents.length || !toDelete.has(i));
}

/** The hosts of a mesh (GAMMA) parent: the Service's name, or the ServiceEntry's hosts. */
function meshHosts(ctx: ConversionContext, parent: RouteParentRef, route: GwObject): string[] {
  const ref = parent.original;
  const ns = optStr(ref.namespace) ?? route.namespace;
  if (gkEq(parent.internalKind, GK_SERVICEENTRY)) {
    const se = ctx.find('ServiceEntry', ns, str(ref.name));
    return se ? list(spec(se).hosts).map(str) : [];
  }
  return [`${str(ref.name)}.${ns}.svc.${ctx.opts.domainSuffix}`];
}

/** HTTPRouteCollection and GRPCRouteCollection for one route: a VirtualService per parent and host, keyed for mergeHTTPRoutes. */
function convertHTTPOrGRPCRoute(ctx: ConversionContext, route: GwObject, kind: 'HTTPRoute' | 'GRPCRoute'): RouteWithKey[] {
  const s = spec(route);
  const rules = list(s.rules).map(obj);
  recordAncestors(ctx, route, rules.flatMap((r) => list(r.backendRefs).map(obj)));
  const { refs, mesh, gw } = computeRoute<Json>(ctx, route, kind, (isMesh) => translateHTTPRules(ctx, route, kind, rules, !isMesh));
  const out: RouteWithKey[] = [];
  let count = 0;
  for (const parent of filteredReferences(refs)) {
    let routeKey = parent.internalName;
    let vsHosts = hostnameList(list(s.hostnames).map(str));
    let routes = gw.routes;
    if (parent.internalName === 'mesh') {
      routes = mesh.routes;
      routeKey = route.namespace;
      const port = optNum(parent.original.port);
      if (port !== undefined) {
        routes = augmentPortMatch(routes, port);
        routeKey += `/${port}`;
      }
      vsHosts = meshHosts(ctx, parent, route);
    }
    if (routes.length === 0) continue;
    for (const h of vsHosts) {
      if (!hostnameAllowedByIsolation(parent, h)) continue;
      sortHTTPRoutes(routes);
      const config = istioConfig('VirtualService', `${route.name}~${count}~${KUBERNETES_GATEWAY_NAME}`, route.namespace, routeMeta(route), {
        hosts: [h], gateways: [parent.internalName], http: clone(routes),
      }, route.created);
      out.push({ config, key: `${routeKey}/${h}`, created: route.created, namespace: route.namespace, name: route.name });
      count++;
    }
  }
  return out;
}

/** The rules of an HTTPRoute or GRPCRoute as Istio HTTP routes, one per match. */
function* translateHTTPRules(ctx: ConversionContext, route: GwObject, kind: 'HTTPRoute' | 'GRPCRoute', rules: Json[], enforceRefGrant: boolean): Iterable<[Json | undefined, ConfigError | undefined]> {
  for (let n = 0; n < rules.length; n++) {
    const r = rules[n] as Json;
    const matches = list(r.matches);
    const split = matches.length === 0 ? [undefined] : matches;
    for (const m of split) {
      const rule = m === undefined ? r : { ...r, matches: [m] };
      yield kind === 'HTTPRoute' ? convertHTTPRule(ctx, rule, route, n, enforceRefGrant) : convertGRPCRule(ctx, rule, route, n, enforceRefGrant);
    }
  }
}

function convertHTTPRule(ctx: ConversionContext, r: Json, route: GwObject, pos: number, enforce: boolean): [Json | undefined, ConfigError | undefined] {
  const vs: Json = {};
  vs.name = optStr(r.name) ?? `${route.namespace}.${route.name}.${pos}`;
  const matches: Json[] = [];
  for (const raw of list(r.matches)) {
    const m = obj(raw);
    const uri = createURIMatch(m);
    if ('error' in uri) return [undefined, uri.error];
    const headers = createHeadersMatch(list(m.headers), 'HeaderMatch');
    if ('error' in headers) return [undefined, headers.error];
    const qp = createHeadersMatch(list(m.queryParams), 'QueryParams');
    if ('error' in qp) return [undefined, qp.error];
    const mr: Json = { uri: uri.match };
    if (headers.match) mr.headers = headers.match;
    if (qp.match) mr.queryParams = qp.match;
    if (optStr(m.method) !== undefined) mr.method = { exact: str(m.method) };
    matches.push(mr);
  }
  if (matches.length > 0) vs.match = matches;
  let mirrorErr: ConfigError | undefined;
  for (const raw of list(r.filters)) {
    const f = obj(raw);
    const type = str(f.type);
    if (type === 'RequestHeaderModifier' || type === 'ResponseHeaderModifier') {
      const h = createHeadersFilter(type === 'RequestHeaderModifier' ? f.requestHeaderModifier : f.responseHeaderModifier);
      if ('error' in h) return [undefined, h.error];
      if (!h.ops) continue;
      const headers = obj(vs.headers);
      headers[type === 'RequestHeaderModifier' ? 'request' : 'response'] = h.ops;
      vs.headers = headers;
    } else if (type === 'RequestRedirect') {
      const rd = createRedirectFilter(f.requestRedirect);
      if (rd) vs.redirect = rd;
      else delete vs.redirect;
    } else if (type === 'RequestMirror') {
      const mirror = createMirrorFilter(ctx, f.requestMirror, route.namespace, enforce, 'HTTPRoute');
      if (mirror === undefined) continue;
      if ('error' in mirror) mirrorErr = mirror.error;
      else vs.mirrors = [...list(vs.mirrors), mirror.mirror];
    } else if (type === 'URLRewrite') {
      const rw = createRewriteFilter(f.urlRewrite);
      if (rw) vs.rewrite = rw;
      else delete vs.rewrite;
    } else if (type === 'CORS') {
      const c = createCorsFilter(f.cors);
      if (c) vs.corsPolicy = c;
    } else {
      return [undefined, { reason: 'InvalidFilter', message: `unsupported filter type ${JSON.stringify(type)}` }];
    }
  }
  if (isObject(r.retry)) {
    const retry = r.retry;
    const retryOn = ['connect-failure', 'refused-stream', 'unavailable', 'cancelled', ...list(retry.codes).map((c) => String(num(c)))];
    const attempts = optNum(retry.attempts) ?? 2;
    const rt: Json = {};
    if (attempts !== 0) {
      rt.attempts = attempts;
      rt.retryOn = retryOn.join(',');
    }
    const backoff = optStr(retry.backoff);
    if (backoff !== undefined) rt.backoff = formatProtoDuration(parseGoDuration(backoff) ?? 0n);
    vs.retries = rt;
  }
  if (isObject(r.timeouts)) {
    const req = optStr(r.timeouts.request);
    if (req !== undefined) {
      const d = parseGoDuration(req) ?? 0n;
      if (d !== 0n) vs.timeout = formatProtoDuration(d);
    }
    const be = optStr(r.timeouts.backendRequest);
    if (be !== undefined) {
      const d = parseGoDuration(be) ?? 0n;
      if (d !== 0n) {
        if (vs.retries) (vs.retries as Json).perTryTimeout = formatProtoDuration(d);
        else vs.timeout = formatProtoDuration(d);
      }
    }
  }
  const backendRefs = list(r.backendRefs).map(obj);
  if (weightSum(backendRefs) === 0 && !vs.redirect) {
    vs.directResponse = { status: 500 };
    return [vs, mirrorErr];
  }
  const d = buildHTTPDestination(ctx, backendRefs, route.namespace, enforce, 'HTTPRoute');
  if ('error' in d) return [undefined, d.error];
  if (d.route) vs.route = d.route;
  return [vs, joinErrors(d.backendError ? { ...d.backendError } : undefined, mirrorErr)];
}

function convertGRPCRule(ctx: ConversionContext, r: Json, route: GwObject, pos: number, enforce: boolean): [Json | undefined, ConfigError | undefined] {
  const vs: Json = {};
  vs.name = optStr(r.name) ?? `${route.namespace}.${route.name}.${pos}`;
  const matches: Json[] = [];
  for (const raw of list(r.matches)) {
    const m = obj(raw);
    const uri = createGRPCURIMatch(m);
    if ('error' in uri) return [undefined, uri.error];
    const headers = createHeadersMatch(list(m.headers), 'HeaderMatch');
    if ('error' in headers) return [undefined, headers.error];
    const mr: Json = {};
    if (uri.match) mr.uri = uri.match;
    if (headers.match) mr.headers = headers.match;
    matches.push(mr);
  }
  if (matches.length > 0) vs.match = matches;
  for (const raw of list(r.filters)) {
    const f = obj(raw);
    const type = str(f.type);
    if (type === 'RequestHeaderModifier' || type === 'ResponseHeaderModifier') {
      const h = createHeadersFilter(type === 'RequestHeaderModifier' ? f.requestHeaderModifier : f.responseHeaderModifier);
      if ('error' in h) return [undefined, h.error];
      if (!h.ops) continue;
      const headers = obj(vs.headers);
      headers[type === 'RequestHeaderModifier' ? 'request' : 'response'] = h.ops;
      vs.headers = headers;
    } else if (type === 'RequestMirror') {
      const mirror = createMirrorFilter(ctx, f.requestMirror, route.namespace, enforce, 'GRPCRoute');
      if (mirror === undefined) continue;
      if ('error' in mirror) return [undefined, mirror.error];
      vs.mirrors = [...list(vs.mirrors), mirror.mirror];
    } else {
      return [undefined, { reason: 'InvalidFilter', message: `unsupported filter type ${JSON.stringify(type)}` }];
    }
  }
  const backendRefs = list(r.backendRefs).map(obj);
  if (weightSum(backendRefs) === 0) {
    vs.directResponse = { status: 500 };
    return [vs, undefined];
  }
  const d = buildHTTPDestination(ctx, backendRefs, route.namespace, enforce, 'GRPCRoute');
  if ('error' in d) return [undefined, d.error];
  if (d.route) vs.route = d.route;
  return [vs, d.backendError];
}

function buildHTTPDestination(ctx: ConversionContext, forwardTo: Json[], ns: string, enforce: boolean, kind: RouteKind): { route?: Json[]; backendError?: ConfigError } | { error: ConfigError } {
  if (forwardTo.length === 0) return {};
  const action = forwardTo.filter((w) => (optNum(w.weight) ?? 1) !== 0);
  const weights = action.map((w) => optNum(w.weight) ?? 1);
  const single = weights.length === 1;
  let backendError: ConfigError | undefined;
  const res: Json[] = [];
  for (let i = 0; i < action.length; i++) {
    const fwd = action[i] as Json;
    const d = buildDestination(ctx, fwd, ns, enforce, kind);
    if (d.error) {
      if (isInvalidBackend(d.error)) backendError = d.error;
      else return { error: d.error };
    }
    const rd: Json = { destination: d.destination ?? {} };
    const w = single ? 0 : (weights[i] as number);
    if (w !== 0) rd.weight = w;
    for (const raw of list(fwd.filters)) {
      const f = obj(raw);
      const type = str(f.type);
      if (type === 'RequestHeaderModifier' || type === 'ResponseHeaderModifier') {
        const h = createHeadersFilter(type === 'RequestHeaderModifier' ? f.requestHeaderModifier : f.responseHeaderModifier);
        if ('error' in h) return { error: h.error };
        if (!h.ops) continue;
        const headers = obj(rd.headers);
        headers[type === 'RequestHeaderModifier' ? 'request' : 'response'] = h.ops;
        rd.headers = headers;
      } else {
        return { error: { reason: 'InvalidFilter', message: `unsupported filter type ${JSON.stringify(type)}` } };
      }
    }
    res.push(rd);
  }
  return { route: res, ...(backendError ? { backendError } : {}) };
}

function createMirrorFilter(ctx: ConversionContext, filter: unknown, ns: string, enforce: boolean, kind: RouteKind): { mirror: Json } | { error: ConfigError } | undefined {
  if (!isObject(filter)) return undefined;
  const d = buildDestination(ctx, { ...obj(filter.backendRef), weight: 1 }, ns, enforce, kind);
  if (d.error) return { error: d.error };
  const mirror: Json = { destination: d.destination ?? {} };
  if (isObject(filter.fraction)) {
    const f = filter.fraction;
    mirror.percentage = { value: (100 * num(f.numerator)) / (optNum(f.denominator) ?? 100) };
  } else if (optNum(filter.percent) !== undefined) {
    mirror.percentage = { value: num(filter.percent) };
  }
  return { mirror };
}

function buildDestination(ctx: ConversionContext, to: Json, ns: string, enforce: boolean, kind: RouteKind): { destination?: Json; error?: ConfigError } {
  const ref = normalizeRef(optStr(to.group), optStr(to.kind), GK_SERVICE);
  const name = str(to.name);
  const toNs = optStr(to.namespace);
  if (enforce && toNs !== undefined && toNs !== ns) {
    if (!grantAllows(ctx, { group: GW_GROUP, kind }, ns, ref, toNs, name)) {
      return {
        destination: {},
        error: { reason: 'RefNotPermitted', message: `backendRef ${name}/${toNs} not accessible to a ${kind} in namespace ${JSON.stringify(ns)} (missing a ReferenceGrant?)` },
      };
    }
  }
  const namespace = toNs ?? ns;
  const port = optNum(to.port);
  let hostname: string;
  let backendErr: ConfigError | undefined;
  const suffix = ctx.opts.domainSuffix;
  if (gkEq(ref, GK_XBACKEND)) {
    if (!ctx.opts.alpha) {
      return { destination: {}, error: { reason: 'InvalidKind', message: 'The Alpha Gateway API is not enabled, XBackend is invalid. To enable, set PILOT_ENABLE_ALPHA_GATEWAY_API to true in istiod.' } };
    }
    const backend = ctx.find('XBackend', namespace, name);
    if (!backend) return { destination: {}, error: { reason: 'BackendNotFound', message: `backend(${name}) not found` } };
    const bs = spec(backend);
    if (str(bs.type) !== 'ExternalHostname' || !isObject(bs.externalHostname)) {
      return { destination: {}, error: { reason: 'InvalidKind', message: `backend(${name}) type: expected ExternalHostname, got ${str(bs.type)}` } };
    }
    hostname = str(bs.externalHostname.hostname);
    if (!ctx.lookupService(hostname, namespace)) backendErr = { reason: 'BackendNotFound', message: `backend(${hostname}) not found` };
    const bport = num(obj(bs.port).port);
    if (port !== undefined && port !== bport) {
      return { destination: {}, error: { reason: 'BackendNotFound', message: `backend(${name}) does not expose port ${port}, expected ${bport}` } };
    }
    return { destination: { host: hostname, port: { number: bport } }, ...(backendErr ? { error: backendErr } : {}) };
  } else if (gkEq(ref, GK_SERVICE)) {
    if (name.includes('.')) return { error: { reason: 'InvalidDestination', message: 'service name invalid; the name of the Service must be used, not the hostname.' } };
    hostname = `${name}.${namespace}.svc.${suffix}`;
    if (!ctx.find('Service', namespace, name)) backendErr = { reason: 'BackendNotFound', message: `backend(${hostname}) not found` };
  } else if (ref.group === ISTIO_NET_GROUP && ref.kind === 'Hostname') {
    if (toNs !== undefined) return { error: { reason: 'InvalidDestination', message: 'namespace may not be set with Hostname type' } };
    hostname = name;
    if (!ctx.lookupService(hostname, namespace)) backendErr = { reason: 'BackendNotFound', message: `backend(${hostname}) not found` };
  } else if (ref.group === MCS_GROUP && ref.kind === 'ServiceImport') {
    hostname = `${name}.${namespace}.svc.${suffix}`;
    if (!ctx.find('Service', namespace, name)) backendErr = { reason: 'BackendNotFound', message: `backend(${hostname}) not found` };
  } else if (gkEq(ref, GK_INFERENCEPOOL)) {
    if (!ctx.opts.inferenceExtension) {
      return { destination: {}, error: { reason: 'InvalidKind', message: 'InferencePool is not enabled. To enable, set ENABLE_GATEWAY_API_INFERENCE_EXTENSION to true in istiod' } };
    }
    if (name.includes('.')) return { error: { reason: 'InvalidDestination', message: 'InferencePool.Name invalid; the name of the InferencePool must be used, not the hostname.' } };
    if (!ctx.find('InferencePool', namespace, name)) return { destination: {}, error: { reason: 'BackendNotFound', message: `backend(${name}) not found` } };
    hostname = `${inferencePoolServiceName(name)}.${namespace}.svc.${suffix}`;
    const svc = ctx.lookupService(hostname, namespace);
    if (!svc) return { destination: {}, error: { reason: 'BackendNotFound', message: `backend(${hostname}) not found` } };
    const l = svc.labels;
    if (!l['istio.io/inferencepool-extension-service'] || !l['istio.io/inferencepool-extension-port'] || !l['istio.io/inferencepool-extension-failure-mode']) {
      backendErr = { reason: 'InvalidDestination', message: 'InferencePool service invalid, extensionRef labels not found' };
    }
    return { destination: { host: hostname, port: { number: svc.ports[0]?.port ?? 0 } }, ...(backendErr ? { error: backendErr } : {}) };
  } else {
    return { destination: {}, error: { reason: 'InvalidKind', message: `referencing unsupported backendRef: group ${JSON.stringify(str(to.group))} kind ${JSON.stringify(str(to.kind))}` } };
  }
  if (port === undefined) return { error: { reason: 'InvalidDestination', message: 'port is required in backendRef' } };
  return { destination: { host: hostname, port: { number: port } }, ...(backendErr ? { error: backendErr } : {}) };
}

/** TCPRouteCollection and TLSRouteCollection for one route: a VirtualService per parent and host. */
function convertTCPOrTLSRoute(ctx: ConversionContext, route: GwObject, kind: 'TCPRoute' | 'TLSRoute'): IstioConfig[] {
  const s = spec(route);
  const rules = list(s.rules).map(obj);
  recordAncestors(ctx, route, rules.flatMap((r) => list(r.backendRefs).map(obj)));
  const hostnames = list(s.hostnames).map(str);
  const { refs, mesh, gw } = computeRoute<Json>(ctx, route, kind, (isMesh) => translateL4Rules(ctx, route, kind, rules, hostnames, !isMesh));
  const out: IstioConfig[] = [];
  let count = 0;
  for (const parent of filteredReferences(refs)) {
    let routes = gw.routes;
    let vsHosts = kind === 'TCPRoute' ? ['*'] : hostnameList(hostnames);
    const isMesh = parent.internalName === 'mesh';
    if (isMesh) {
      routes = mesh.routes;
      vsHosts = meshHosts(ctx, parent, route);
      const port = optNum(parent.original.port);
      if (kind === 'TCPRoute') {
        if (port !== undefined) routes = augmentTCPPortMatch(routes, port);
      } else {
        routes = augmentTLSPortMatch(routes, port, vsHosts);
      }
    } else if (kind === 'TLSRoute' && parent.hostname !== '') {
      vsHosts = hostIntersection(vsHosts, [parent.hostname]);
      routes = constrainTLSRoutesToListenerHost(routes, parent.hostname);
    }
    for (const h of vsHosts) {
      const filtered = isMesh && kind === 'TLSRoute' ? compatibleRoutesForHost(routes, h) : routes;
      const name = `${route.name}~${kind === 'TCPRoute' ? 'tcp' : 'tls'}~${count}~${KUBERNETES_GATEWAY_NAME}`;
      out.push(istioConfig('VirtualService', name, route.namespace, routeMeta(route), {
        hosts: [h], gateways: [parent.internalName], [kind === 'TCPRoute' ? 'tcp' : 'tls']: clone(filtered),
      }, route.created));
      count++;
    }
  }
  return out;
}

/** The rules of a TCPRoute or TLSRoute as Istio TCP or TLS routes. */
function* translateL4Rules(ctx: ConversionContext, route: GwObject, kind: 'TCPRoute' | 'TLSRoute', rules: Json[], hostnames: string[], enforce: boolean): Iterable<[Json | undefined, ConfigError | undefined]> {
  for (const r of rules) {
    const backendRefs = list(r.backendRefs).map(obj);
    if (weightSum(backendRefs) === 0) {
      yield [{ route: [{ destination: { host: 'internal.cluster.local', subset: 'zero-weight', port: { number: 65535 } } }] }, undefined];
      continue;
    }
    const d = buildTCPDestination(ctx, backendRefs, route.namespace, enforce, kind);
    if ('error' in d) {
      yield [undefined, d.error];
      continue;
    }
    const out: Json = {};
    if (kind === 'TLSRoute') out.match = [{ sniHosts: hostnameList(hostnames) }];
    if (d.route) out.route = d.route;
    yield [out, d.backendError];
  }
}

function buildTCPDestination(ctx: ConversionContext, forwardTo: Json[], ns: string, enforce: boolean, kind: RouteKind): { route?: Json[]; backendError?: ConfigError } | { error: ConfigError } {
  if (forwardTo.length === 0) return {};
  const action = forwardTo.filter((w) => (optNum(w.weight) ?? 1) !== 0);
  const weights = action.map((w) => optNum(w.weight) ?? 1);
  const single = weights.length === 1;
  let backendError: ConfigError | undefined;
  let hard: ConfigError | undefined;
  const res: Json[] = [];
  action.forEach((fwd, i) => {
    const d = buildDestination(ctx, fwd, ns, enforce, kind);
    if (d.error) {
      if (isInvalidBackend(d.error)) backendError = d.error;
      else hard ??= d.error;
    }
    const rd: Json = { destination: d.destination ?? {} };
    const w = single ? 0 : (weights[i] as number);
    if (w !== 0) rd.weight = w;
    res.push(rd);
  });
  if (hard) return { error: hard };
  return { route: res, ...(backendError ? { backendError } : {}) };
}

// -- Backend policies → DestinationRules --------------------------------------------------------

function referenceLookup(ctx: ConversionContext, group: string, kind: string, name: string, ns: string): { obj?: GwObject; error?: string } {
  const gk = normalizeRef(group, kind, GK_NONE);
  const kinds: Record<string, string> = { '/Service': 'Service', [`${ISTIO_NET_GROUP}/ServiceEntry`]: 'ServiceEntry', '/ConfigMap': 'ConfigMap', '/Secret': 'Secret' };
  const k = kinds[`${gk.group}/${gk.kind}`];
  if (!k) return { error: `unsupported kind ${kind}` };
  const o = ctx.find(k, ns, name);
  if (!o) return { error: `reference ${ns}/${name} (of kind ${kind}) not found` };
  return { obj: o };
}

function backendTLSCredentialName(ctx: ConversionContext, validation: Json, ns: string, conds: Record<string, CondSpec>): string {
  if (validation.wellKnownCACertificates !== undefined && validation.wellKnownCACertificates !== null) {
    const wk = str(validation.wellKnownCACertificates);
    if (wk !== 'System') (conds.Accepted as CondSpec).error = { reason: 'Invalid', message: `Unknown wellKnownCACertificates: ${wk}` };
    return '';
  }
  const refs = list(validation.caCertificateRefs).map(obj);
  if (refs.length === 0) return '';
  const ref = refs[0] as Json;
  if (refs.length > 1) (conds.Accepted as CondSpec).message = `${(conds.Accepted as CondSpec).message ?? ''}; warning: only the first caCertificateRefs will be used`;
  const r = referenceLookup(ctx, str(ref.group), str(ref.kind), str(ref.name), ns);
  let err: string | undefined = r.error;
  if (r.obj) {
    if (r.obj.kind === 'ConfigMap') {
      const root = extractRoot(stringRecord(r.obj.body.data));
      if ('error' in root) {
        err = root.error;
        (conds.ResolvedRefs as CondSpec).error = { reason: 'InvalidCACertificateRef', message: `Certificate invalid: ${err}` };
      } else {
        return `configmap://${ns}/${str(ref.name)}`;
      }
    } else {
      err = `unsupported reference kind: ${str(ref.kind)}`;
      (conds.ResolvedRefs as CondSpec).error = { reason: 'InvalidKind', message: `Certificate reference invalid: ${err}` };
    }
  } else if (err !== undefined) {
    if (err.includes('unsupported kind')) (conds.ResolvedRefs as CondSpec).error = { reason: 'InvalidKind', message: `Certificate reference not supported: ${err}` };
    else (conds.ResolvedRefs as CondSpec).error = { reason: 'InvalidCACertificateRef', message: `Certificate reference not found: ${err}` };
  }
  if (err !== undefined) {
    (conds.Accepted as CondSpec).error = { reason: 'NoValidCACertificate', message: `Certificate reference invalid: ${err}` };
    return 'invalid://';
  }
  return '';
}

function ancestorsOf(ctx: ConversionContext, kind: string, ns: string, name: string): string[] {
  const key = `${kind}/${ns}/${name}`;
  return [...new Set(ctx.ancestorBackends.filter((a) => a.backend === key).map((a) => a.gateway))].sort();
}

function ancestorStatus(ctx: ConversionContext, pr: Json, existing: Json, generation: number, conds: Record<string, CondSpec>, controller: string): Json {
  const cur = list(existing.ancestors).map(obj).find((a) => parentRefEqual(obj(a.ancestorRef), pr));
  return {
    ancestorRef: pr,
    conditions: setConditions(generation, cur ? readConditions(cur.conditions) : [], conds, ctx.now),
    controllerName: controller,
  };
}

function backendTLSPolicies(ctx: ConversionContext): BackendPolicy[] {
  const out: BackendPolicy[] = [];
  const ignored = (p: GwObject) => (p.annotations['istio.io/ignore-policy-attachment'] ?? '').toLowerCase() === 'true';
  const active = ctx.all('BackendTLSPolicy').filter((p) => !ignored(p));
  for (const p of ctx.all('BackendTLSPolicy')) {
    const s = spec(p);
    const existing = obj(p.body.status);
    const targets = list(s.targetRefs).map(obj);
    if (ignored(p)) {
      const parents = targets.map((t) => pickDefined({ group: t.group, kind: t.kind, name: t.name, sectionName: t.sectionName }));
      ctx.writeStatus(p, { ...existing, ancestors: ignoredAncestors(ctx, existing, p.generation, parents) });
      continue;
    }
    const validation = obj(s.validation);
    let conds: Record<string, CondSpec> = {
      Accepted: { reason: 'Accepted', message: 'Configuration is valid' },
      ResolvedRefs: { reason: 'ResolvedRefs', message: 'Configuration is valid' },
    };
    const tls: Json = { mode: 'SIMPLE' };
    if (str(validation.hostname)) tls.sni = str(validation.hostname);
    const sans = subjectAltNames(validation.subjectAltNames);
    if (sans.length > 0) tls.subjectAltNames = sans;
    const cred = backendTLSCredentialName(ctx, validation, p.namespace, conds);
    if (cred) tls.credentialName = cred;
    const ancestors: Json[] = [];
    const gateways = new Set<string>();
    targets.forEach((t, idx) => {
      conds = { ...conds };
      const r = referenceLookup(ctx, str(t.group), str(t.kind), str(t.name), p.namespace);
      let err = r.error;
      let sectionName: string | undefined;
      if (r.obj) {
        const sn = optStr(t.sectionName);
        if (r.obj.kind === 'Service' || r.obj.kind === 'ServiceEntry') {
          if (sn) {
            sectionName = sn;
            const ports = r.obj.kind === 'Service' ? list(spec(r.obj).ports) : list(spec(r.obj).ports);
            if (!ports.some((x) => str(obj(x).name) === sn)) err = `sectionName ${JSON.stringify(sn)} does not exist in ${r.obj.kind} ${r.obj.namespace}/${r.obj.name}`;
          }
        } else {
          err = `unsupported reference kind: ${str(t.kind)}`;
        }
      }
      if (err !== undefined) {
        (conds.Accepted as CondSpec).error = { reason: 'TargetNotFound', message: `targetRefs invalid: ${err}` };
      } else if (r.obj) {
        const targetKind = r.obj.kind;
        const hosts = targetKind === 'Service' ? [`${str(t.name)}.${p.namespace}.svc.${ctx.opts.domainSuffix}`] : list(spec(r.obj).hosts).map(str);
        const conflict = btlsConflict(p, t, active);
        if (conflict) {
          (conds.Accepted as CondSpec).error = { reason: 'Conflicted', message: `Conflicts with BackendTLSPolicy ${JSON.stringify(conflict)} targeting the same backend` };
        } else {
          for (const host of hosts) {
            out.push({
              sourceKind: 'BackendTLSPolicy', sourceNs: p.namespace, sourceName: p.name, targetKind, targetNs: p.namespace, targetName: str(t.name),
              host, ...(sectionName !== undefined ? { sectionName } : {}), tls, created: p.created,
            });
          }
        }
        for (const g of ancestorsOf(ctx, targetKind, p.namespace, str(t.name))) gateways.add(g);
        void idx;
      }
      const meshPR = pickDefined({ group: t.group, kind: t.kind, name: t.name, sectionName: t.sectionName });
      ancestors.push(ancestorStatus(ctx, meshPR, existing, p.generation, conds, MESH_CONTROLLER));
    });
    for (const g of [...gateways].sort()) {
      const pr = { group: GW_GROUP, kind: 'Gateway', name: g.slice(g.indexOf('/') + 1) };
      ancestors.push(ancestorStatus(ctx, pr, existing, p.generation, conds, GATEWAY_CONTROLLER));
    }
    ctx.writeStatus(p, { ...existing, ancestors: mergeAncestors(list(existing.ancestors).map(obj), ancestors, 16) });
  }
  return out;
}

function ignoredAncestors(ctx: ConversionContext, existing: Json, generation: number, parents: Json[]): Json[] {
  const conds: Record<string, CondSpec> = {
    Accepted: { reason: 'Accepted', message: 'Configuration is valid', error: { reason: 'IgnoredByIstio', message: 'Ignored by Istio due to annotation istio.io/ignore-policy-attachment=true' } },
  };
  const ancestors = parents.map((pr) => ancestorStatus(ctx, pr, existing, generation, conds, MESH_CONTROLLER));
  return mergeAncestors(list(existing.ancestors).map(obj), ancestors, 16);
}

function backendTrafficPolicies(ctx: ConversionContext): BackendPolicy[] {
  const out: BackendPolicy[] = [];
  if (!ctx.opts.alpha) return out;
  for (const p of ctx.all('XBackendTrafficPolicy')) {
    const s = spec(p);
    const existing = obj(p.body.status);
    const targets = list(s.targetRefs).map(obj);
    if ((p.annotations['istio.io/ignore-policy-attachment'] ?? '').toLowerCase() === 'true') {
      const parents = targets.map((t) => pickDefined({ group: t.group, kind: t.kind, name: t.name }));
      ctx.writeStatus(p, { ...existing, ancestors: ignoredAncestors(ctx, existing, p.generation, parents) });
      continue;
    }
    let conds: Record<string, CondSpec> = { Accepted: { reason: 'Accepted', message: 'Configuration is valid' } };
    const unsupported: string[] = [];
    if (isObject(s.sessionPersistence)) unsupported.push('sessionPersistence');
    let retryBudget: Json | undefined;
    if (isObject(s.retryConstraint)) {
      const rc = s.retryConstraint;
      const budget = obj(rc.budget);
      retryBudget = {};
      if (optNum(budget.percent) !== undefined) retryBudget.percent = num(budget.percent);
      retryBudget.budgetInterval = '10s';
      const iv = optStr(budget.interval);
      if (iv !== undefined) {
        const d = parseGoDuration(iv);
        if (d !== undefined) retryBudget.budgetInterval = formatProtoDuration(d);
      }
      retryBudget.minRetryConcurrency = 10;
      if (isObject(rc.minRetryRate)) retryBudget.minRetryConcurrency = num(rc.minRetryRate.count);
    }
    if (unsupported.length > 0) (conds.Accepted as CondSpec).message = `Configuration is valid, but Istio does not support the following fields: ${humanJoin(unsupported)}`;
    const ancestors: Json[] = [];
    targets.forEach((t) => {
      conds = { ...conds };
      const r = referenceLookup(ctx, str(t.group), str(t.kind), str(t.name), p.namespace);
      let err = r.error;
      if (r.obj && r.obj.kind !== 'Service') err = `unsupported reference kind: ${str(t.kind)}`;
      if (err !== undefined) {
        (conds.Accepted as CondSpec).error = { reason: 'TargetNotFound', message: `targetRefs invalid: ${err}` };
      } else {
        out.push({
          sourceKind: 'XBackendTrafficPolicy', sourceNs: p.namespace, sourceName: p.name, targetKind: 'Service', targetNs: p.namespace, targetName: str(t.name),
          host: `${str(t.name)}.${p.namespace}.svc.${ctx.opts.domainSuffix}`, loadBalancer: {}, ...(retryBudget ? { retryBudget } : {}), created: p.created,
        });
      }
      ancestors.push(ancestorStatus(ctx, pickDefined({ group: t.group, kind: t.kind, name: t.name }), existing, p.generation, conds, MESH_CONTROLLER));
    });
    ctx.writeStatus(p, { ...existing, ancestors: mergeAncestors(list(existing.ancestors).map(obj), ancestors, 16) });
  }
  return out;
}

function backendResources(ctx: ConversionContext): BackendPolicy[] {
  const out: BackendPolicy[] = [];
  if (!ctx.opts.alpha) return out;
  for (const b of ctx.all('XBackend')) {
    const s = spec(b);
    const existing = obj(b.body.status);
    const conds: Record<string, CondSpec> = {
      Accepted: { reason: 'Accepted', message: 'Configuration is valid' },
      ResolvedRefs: { reason: 'ResolvedRefs', message: 'Configuration is valid' },
    };
    if (str(s.type) !== 'ExternalHostname' || !isObject(s.externalHostname)) {
      (conds.Accepted as CondSpec).error = { reason: 'Invalid', message: `unsupported backend type: ${str(s.type)}` };
    } else {
      const tls = backendResourceTLS(ctx, b, conds);
      if (tls) {
        out.push({
          sourceKind: 'XBackend', sourceNs: b.namespace, sourceName: b.name, targetKind: 'XBackend', targetNs: b.namespace, targetName: b.name,
          host: str(s.externalHostname.hostname), port: num(obj(s.port).port), tls, created: b.created,
        });
      }
    }
    // XBackend's status names them parents (BackendAncestorStatus: parentRef, controllerName, conditions).
    const asParent = (a: Json): Json => ({ conditions: a.conditions, controllerName: a.controllerName, parentRef: a.ancestorRef });
    const prior = { ancestors: list(existing.parents).map(obj).map((p) => ({ ...p, ancestorRef: p.parentRef })) };
    const parents: Json[] = [asParent(ancestorStatus(ctx, { group: GWX_GROUP, kind: 'XBackend', name: b.name }, prior, b.generation, conds, MESH_CONTROLLER))];
    for (const g of ancestorsOf(ctx, 'XBackend', b.namespace, b.name)) {
      const [gns, gname] = [g.slice(0, g.indexOf('/')), g.slice(g.indexOf('/') + 1)];
      parents.push(asParent(ancestorStatus(ctx, { group: GW_GROUP, kind: 'Gateway', namespace: gns, name: gname }, prior, b.generation, conds, GATEWAY_CONTROLLER)));
    }
    const merged = mergeAncestors(prior.ancestors, parents.map((p) => ({ ...p, ancestorRef: p.parentRef })), 32).map(asParent);
    ctx.writeStatus(b, { ...existing, parents: merged });
  }
  return out;
}

function backendResourceTLS(ctx: ConversionContext, b: GwObject, conds: Record<string, CondSpec>): Json | undefined {
  const s = spec(b);
  if (!isObject(s.tls)) return undefined;
  const mode = str(s.tls.mode);
  if (mode === 'ClientAndServer') {
    (conds.Accepted as CondSpec).error = { reason: 'Invalid', message: 'unsupported ClientAndServer TLS mode: Istio does not support client certificates on backend' };
    return undefined;
  }
  if (mode === 'None') return undefined;
  if (mode !== 'ServerOnly') {
    (conds.Accepted as CondSpec).error = { reason: 'Invalid', message: `unsupported TLS mode: ${JSON.stringify(mode)}` };
    return undefined;
  }
  const validation = obj(s.tls.validation);
  const tls: Json = { mode: 'SIMPLE' };
  tls.sni = str(validation.hostname) || str(obj(s.externalHostname).hostname);
  if (tls.sni === '') delete tls.sni;
  const sans = subjectAltNames(validation.subjectAltNames);
  if (sans.length > 0) tls.subjectAltNames = sans;
  const cred = backendTLSCredentialName(ctx, validation, b.namespace, conds);
  if (cred) tls.credentialName = cred;
  return tls;
}

/** DestinationRuleCollection: one DestinationRule per backend policy target and host (the oldest policy's settings first); the policies' status is written on the way. */
function destinationRules(ctx: ConversionContext): IstioConfig[] {
  const all = [...backendTrafficPolicies(ctx), ...backendTLSPolicies(ctx), ...backendResources(ctx)];
  const groups = new Map<string, BackendPolicy[]>();
  for (const p of all) {
    const k = `${p.targetKind}/${p.targetNs}/${p.targetName}/${p.host}`;
    listAt(groups, k).push(p);
  }
  const out: IstioConfig[] = [];
  for (const pols of groups.values()) {
    pols.sort((a, b) => a.created - b.created || cmp(a.sourceNs, b.sourceNs) || cmp(a.sourceName, b.sourceName));
    const first = pols[0] as BackendPolicy;
    const tp: Json = {};
    let tlsSet = false;
    let lbSet = false;
    let rbSet = false;
    const portLevel = new Map<string, Json>();
    const numbered = new Map<number, Json>();
    const parents: string[] = [];
    for (const pol of pols) {
      if (pol.tls) {
        if (pol.port !== undefined) {
          if (!numbered.has(pol.port)) numbered.set(pol.port, { port: { number: pol.port }, tls: clone(pol.tls) });
        } else if (pol.sectionName !== undefined) {
          if (!portLevel.has(pol.sectionName)) portLevel.set(pol.sectionName, { port: {}, tls: clone(pol.tls) });
        } else {
          if (tlsSet) continue;
          tlsSet = true;
          tp.tls = clone(pol.tls);
        }
      }
      if (pol.loadBalancer) {
        if (lbSet) continue;
        lbSet = true;
        tp.loadBalancer = clone(pol.loadBalancer);
      }
      if (pol.retryBudget) {
        if (rbSet) continue;
        rbSet = true;
        tp.retryBudget = clone(pol.retryBudget);
      }
      const parentName = `${pol.sourceKind}/${pol.sourceNs}.${pol.sourceName}`;
      if (!parents.includes(parentName)) parents.push(parentName);
    }
    let servicePorts: { name: string; number: number }[] = [];
    if (first.targetKind === 'Service') {
      const svc = ctx.find('Service', first.targetNs, first.targetName);
      if (svc) servicePorts = list(spec(svc).ports).map((p) => ({ name: str(obj(p).name), number: num(obj(p).port) }));
    } else if (first.targetKind === 'ServiceEntry') {
      const se = ctx.find('ServiceEntry', first.targetNs, first.targetName);
      if (se) servicePorts = list(spec(se).ports).map((p) => ({ name: str(obj(p).name), number: num(obj(p).number) }));
    }
    const pls: Json[] = [];
    for (const [portName, pp] of portLevel) {
      const sp = servicePorts.find((p) => p.name === portName);
      if (sp) pp.port = sp.number ? { number: sp.number } : {};
      pls.push(pp);
    }
    for (const pp of numbered.values()) pls.push(pp);
    if (pls.length > 0) tp.portLevelSettings = stableSortBy(pls, (p) => num(obj(p.port).number));
    const name = first.targetKind === 'ServiceEntry' || first.targetKind === 'XBackend'
      ? `${first.targetName}~${first.host.replace(/\./g, '-')}~${KUBERNETES_GATEWAY_NAME}`
      : `${first.targetName}~${KUBERNETES_GATEWAY_NAME}`;
    out.push(istioConfig('DestinationRule', name, first.targetNs, { [ANNOTATION_PARENTS]: parents.join(',') }, { host: first.host, trafficPolicy: tp }, 0));
  }
  return out;
}

// -- Final statuses ----------------------------------------------------------------------------

/** FinalGatewayStatusCollection and FinalListenerSetStatusCollection: attachedRoutes per listener, once every route is converted. */
function writeFinalGatewayStatuses(ctx: ConversionContext): void {
  const finish = (m: Map<string, { obj: GwObject; status: Json }>) => {
    for (const [key, { obj: o, status }] of m) {
      const counts = ctx.attachedRouteCounts.get(key);
      const ls = list(status.listeners).map((l) => ({ ...obj(l), attachedRoutes: counts?.get(str(obj(l).name)) ?? 0 }));
      if (ls.length > 0) status.listeners = ls;
      else delete status.listeners;
      if (o.kind === 'Gateway') ctx.writeStatus(o, status);
      else {
        // The ListenerSet status was written already; update it in place.
        const w = ctx.statuses.find((s) => s.kind === o.kind && s.namespace === o.namespace && s.name === o.name);
        if (w) w.status = status;
      }
    }
  };
  finish(ctx.gatewayStatuses);
  finish(ctx.listenerSetStatuses);
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** The Istio Gateway made from one listener of a Gateway or ListenerSet, and what routes may attach to it. */
function listenerGatewayEntry(owner: GwObject, kind: ParentKey['kind'], l: Json, server: Json, valid: boolean, annotations: Record<string, string>): GatewayEntry {
  const name = str(l.name);
  const config = istioConfig('Gateway', internalGatewayName(owner.name, name), owner.namespace, annotations, { servers: [server] }, owner.created);
  return {
    config,
    valid,
    parent: { kind, name: owner.name, namespace: owner.namespace },
    info: {
      internalName: `${owner.namespace}/${config.metadata.name}`,
      allowedKinds: supportedKinds(l).kinds,
      hostnames: server.hosts as string[],
      originalHostname: str(l.hostname),
      sectionName: name,
      port: num(l.port),
      protocol: str(l.protocol),
    },
  };
}

function istioConfig(kind: IstioConfig['kind'], name: string, namespace: string, annotations: Record<string, string>, specBody: Json, created: number): IstioConfig {
  const metadata: IstioConfig['metadata'] = { annotations, name, namespace };
  // Kubernetes writes times to the second (RFC 3339); a zero time is left out.
  if (created) metadata.creationTimestamp = new Date(created).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { apiVersion: 'networking.istio.io/v1', kind, metadata, spec: specBody, created };
}

function routeMeta(route: GwObject): Record<string, string> {
  return { [ANNOTATION_PARENTS]: `${route.kind}/${route.name}.${route.namespace}`, [ANNOTATION_ROUTE_SEMANTICS]: 'gateway' };
}

function pickDefined(o: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

function stableSortBy<T>(xs: T[], key: (x: T) => string | number): T[] {
  return xs.map((x, i) => ({ x, i, k: key(x) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i)).map((e) => e.x);
}

function defaultName(gw: GwObject, info: ClassInfo): string {
  return info.disableNameSuffix ? gw.name : `${gw.name}-${str(spec(gw).gatewayClassName)}`;
}

/** gatewaycommon.IsManaged (manual deployment enabled, istiod's default). */
function isManaged(s: Json): boolean {
  const addrs = list(s.addresses);
  if (addrs.length === 0) return true;
  if (addrs.length > 1) return false;
  const t = optStr(obj(addrs[0]).type);
  return t === undefined || t === 'IPAddress';
}

function isIP(a: string): boolean {
  if (/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(a)) return a.split('.').every((p) => Number(p) <= 255 && (p === '0' || !p.startsWith('0')));
  return a.includes(':') && /^[0-9a-fA-F:.]+$/.test(a);
}

function setProgrammed(conds: Record<string, CondSpec>, internal: string[], services: string[], warnings: string[], allUsable: boolean): void {
  const p = conds.Programmed as CondSpec;
  if (internal.length > 0) p.message = `Resource programmed, assigned to service(s) ${humanJoin(internal)}`;
  if (services.length === 0) {
    p.error = { reason: 'UnsupportedAddress', message: 'Failed to assign to any requested addresses' };
  } else if (warnings.length > 0) {
    const msg = internal.length !== 0
      ? `Assigned to service(s) ${humanJoin(internal)}, but failed to assign to all requested addresses: ${warnings.join('; ')}`
      : `Failed to assign to any requested addresses: ${warnings.join('; ')}`;
    p.error = { reason: allUsable ? 'AddressNotAssigned' : 'AddressNotUsable', message: msg };
  }
}

function listenerEntryPort(l: Json): { port?: number; error?: string } {
  const p = num(l.port);
  if (p !== 0) return { port: p };
  const protocol = str(l.protocol);
  if (protocol === 'HTTP') return { port: 80 };
  if (protocol === 'HTTPS') return { port: 443 };
  return { port: 0, error: `protocol ${protocol} requires a port to be set` };
}

function isTCPUDP(p: string): boolean {
  return p === 'TCP' || p === 'UDP';
}

function isHTTPLike(p: string): boolean {
  return p === 'HTTP' || p === 'HTTPS' || p === 'TLS';
}

function listenerHostname(l: Json): string {
  const h = optStr(l.hostname);
  return h === undefined || h === '' ? '*' : h;
}

function listenersDistinct(a: Json, b: Json): boolean {
  if (num(a.port) !== num(b.port)) return true;
  const pa = str(a.protocol);
  const pb = str(b.protocol);
  if ((isTCPUDP(pa) && isHTTPLike(pb)) || (isHTTPLike(pa) && isTCPUDP(pb))) return false;
  if (isTCPUDP(pa) && isTCPUDP(pb)) return false;
  if (isHTTPLike(pa) && isHTTPLike(pb)) return listenerHostname(a) !== listenerHostname(b);
  return pa !== pb;
}

function listenerConflictReason(a: Json, b: Json): string {
  const pa = str(a.protocol);
  const pb = str(b.protocol);
  if (isTCPUDP(pa) && isTCPUDP(pb)) return 'ProtocolConflict';
  if (pa !== pb) return 'ProtocolConflict';
  return 'HostnameConflict';
}

function supportedKinds(l: Json): { kinds: RouteGroupKind[]; valid: boolean } {
  let supported: RouteGroupKind[] = [];
  const protocol = str(l.protocol);
  if (protocol === 'HTTP' || protocol === 'HTTPS') supported = [{ group: GW_GROUP, kind: 'HTTPRoute' }, { group: GW_GROUP, kind: 'GRPCRoute' }];
  else if (protocol === 'TCP') supported = [{ group: GW_GROUP, kind: 'TCPRoute' }];
  else if (protocol === 'TLS') {
    supported = [{ group: GW_GROUP, kind: 'TLSRoute' }];
    if (isObject(l.tls) && str(l.tls.mode) === 'Terminate') supported.push({ group: GW_GROUP, kind: 'TCPRoute' });
  }
  const ar = obj(l.allowedRoutes);
  const kinds = list(ar.kinds).map(obj);
  if (kinds.length > 0) {
    const inter = supported.filter((s) => kinds.some((k) => str(k.kind) === s.kind && (optStr(k.group) ?? GW_GROUP) === (s.group ?? GW_GROUP)));
    return { kinds: inter, valid: inter.length === kinds.length };
  }
  return { kinds: supported, valid: true };
}

function listenerProtocolToIstio(controller: string, p: string): { protocol: string } | { error: string } {
  if (p === 'HTTP' || p === 'HTTPS' || p === 'TLS' || p === 'TCP') return { protocol: p };
  if (p === 'HBONE') {
    if (controller !== MESH_CONTROLLER && controller !== EASTWEST_CONTROLLER) return { error: `protocol ${JSON.stringify(p)} is only supported for waypoint proxies` };
    return { protocol: p };
  }
  const up = p.toUpperCase();
  if (['HTTP', 'HTTPS', 'TLS', 'TCP', 'HBONE'].includes(up)) return { error: `protocol ${JSON.stringify(p)} is unsupported. hint: ${JSON.stringify(up)} (uppercase) may be supported` };
  return { error: `protocol ${JSON.stringify(p)} is unsupported` };
}

function unexpectedEastWestListener(l: Json): boolean {
  const tls = isObject(l.tls) ? l.tls : undefined;
  if (num(l.port) === 15008) return str(l.protocol) !== 'HBONE' || !tls || str(tls.mode) !== 'Terminate';
  if (str(l.protocol) === 'TLS' && tls && str(tls.mode) === 'Passthrough') return false;
  return true;
}

function isAutoPassthrough(gwLabels: Readonly<Record<string, string>>, l: Json): boolean {
  if (!isObject(l.tls)) return false;
  if (stringRecord(l.tls.options)['gateway.istio.io/listener-protocol'] === 'auto-passthrough') return true;
  if (!Object.prototype.hasOwnProperty.call(gwLabels, 'topology.istio.io/network')) return false;
  const expected = gwLabels['networking.istio.io/gatewayPort'] ?? '15443';
  return String(num(l.port)) === expected;
}

function resolveGatewayTLS(port: number, gwSpec: Json): Json | undefined {
  const tls = obj(gwSpec.tls);
  if (!isObject(tls.frontend)) return undefined;
  const f = tls.frontend;
  const pp = list(f.perPort).map(obj).find((x) => num(x.port) === port);
  if (pp) return obj(pp.tls);
  return obj(f.default);
}

const CIPHERS = new Set([
  'ECDHE-ECDSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-ECDSA-AES256-GCM-SHA384', 'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305', 'ECDHE-RSA-CHACHA20-POLY1305', 'ECDHE-ECDSA-AES128-SHA', 'ECDHE-RSA-AES128-SHA',
  'ECDHE-ECDSA-AES256-SHA', 'ECDHE-RSA-AES256-SHA', 'AES128-GCM-SHA256', 'AES256-GCM-SHA384', 'AES128-SHA', 'AES256-SHA', 'DES-CBC3-SHA',
]);

/** security.FilterCipherSuites: known names, first occurrence kept. */
function filterCipherSuites(xs: string[]): string[] {
  const out: string[] = [];
  for (const c of xs) if (CIPHERS.has(c) && !out.includes(c)) out.push(c);
  return out;
}

function secretRefString(ref: Json): string {
  return `${str(ref.group)}/${str(ref.kind)}/${str(ref.name)}.${str(ref.namespace)}`;
}

function joinErrors(a: ConfigError | undefined, b: ConfigError | undefined): ConfigError | undefined {
  if (!b) return a;
  if (!a) return b;
  return { reason: a.reason, message: `${a.message}; ${b.message}` };
}

/** parentRefString: `group/kind/name/section/port.namespace` with Gateway defaults. */
function parentRefString(ref: Json, ns: string): string {
  return `${optStr(ref.group) ?? GW_GROUP}/${optStr(ref.kind) ?? 'Gateway'}/${str(ref.name)}/${str(ref.sectionName)}/${num(ref.port)}.${optStr(ref.namespace) ?? ns}`;
}

function parentRefEqual(a: Json, b: Json): boolean {
  return ['group', 'kind', 'name', 'namespace', 'sectionName', 'port'].every((k) => (a[k] ?? null) === (b[k] ?? null));
}

function mergeAncestors(existing: Json[], incoming: Json[], max: number): Json[] {
  const inc = incoming.slice();
  const out: Json[] = [];
  for (const x of existing) {
    const c = str(x.controllerName);
    if (c !== GATEWAY_CONTROLLER && c !== MESH_CONTROLLER) {
      out.push(x);
      continue;
    }
    const i = inc.findIndex((s) => parentRefEqual(obj(s.ancestorRef), obj(x.ancestorRef)));
    if (i !== -1) {
      out.push(inc[i] as Json);
      inc.splice(i, 1);
    }
  }
  return [...out, ...inc].slice(0, max);
}

/** metadata.uid ('' when the file has none). */
function uidOf(o: GwObject): string {
  return str(obj(o.body.metadata).uid);
}

/**
 * btlsIsConflicted. istiod skips the policy itself by UID, so objects without one (as files
 * usually are; the API server gives every object its own) are never in conflict, as in
 * Istio's conversion goldens.
 */
function btlsConflict(p: GwObject, t: Json, all: GwObject[]): string | undefined {
  for (const other of all) {
    if (other === p || uidOf(other) === uidOf(p)) continue;
    const match = list(spec(other).targetRefs).map(obj).some((o) =>
      str(o.group) === str(t.group) && str(o.kind) === str(t.kind) && str(o.name) === str(t.name) && (o.sectionName ?? null) === (t.sectionName ?? null));
    if (!match || other.namespace !== p.namespace) continue;
    const higher = other.created !== p.created ? other.created < p.created : other.name < p.name;
    if (higher) return other.name;
  }
  return undefined;
}

function subjectAltNames(v: unknown): string[] {
  const out: string[] = [];
  for (const e of list(v).map(obj)) {
    if (str(e.type) === 'Hostname') out.push(str(e.hostname));
    else if (str(e.type) === 'URI') out.push(str(e.uri));
  }
  return out;
}

function isInvalidBackend(e: ConfigError): boolean {
  return e.reason === 'RefNotPermitted' || e.reason === 'BackendNotFound' || e.reason === 'InvalidKind';
}

function weightSum(refs: Json[]): number {
  return refs.reduce((s, r) => s + (optNum(r.weight) ?? 1), 0);
}

function hostnameList(h: string[]): string[] {
  return h.length === 0 ? ['*'] : h.slice();
}

function waypointConfigured(labels: Readonly<Record<string, string>>): boolean {
  const v = labels['istio.io/use-waypoint'];
  return v !== undefined && v.length > 0 && v.toLowerCase() !== 'none';
}

function filteredReferences(refs: RouteParentRef[]): RouteParentRef[] {
  return stableSortBy(refs.filter((r) => !r.deniedReason), (r) => r.internalName);
}

function hostnameAllowedByIsolation(r: RouteParentRef, routeHost: string): boolean {
  const ours = r.hostname;
  if (ours.length > 0 && !isWildcardHost(ours)) return true;
  if (ours.length > 0 && !hostMatches(routeHost, ours)) return false;
  for (const check of r.bannedHostnames) {
    if (ours.length > check.length) continue;
    if (hostSubsetOf(routeHost, check)) return false;
  }
  return true;
}

function augmentPortMatch(routes: Json[], port: number): Json[] {
  return routes.map((r0) => {
    const r = clone(r0);
    const m = list(r.match).map(obj);
    for (const x of m) x.port = port;
    r.match = m.length === 0 ? [{ port }] : m;
    return r;
  });
}

function augmentTCPPortMatch(routes: Json[], port: number): Json[] {
  return augmentPortMatch(routes, port);
}

function augmentTLSPortMatch(routes: Json[], port: number | undefined, parentHosts: string[]): Json[] {
  return routes.map((r0) => {
    const r = clone(r0);
    const m = list(r.match).map(obj);
    if (m.length === 1 && JSON.stringify(list((m[0] as Json).sniHosts)) === '["*"]') (m[0] as Json).sniHosts = parentHosts.slice();
    if (port !== undefined) for (const x of m) x.port = port;
    if (m.length > 0) r.match = m;
    return r;
  });
}

function compatibleRoutesForHost(routes: Json[], parentHost: string): Json[] {
  return routes.map((r) => {
    const m = list(r.match).map(obj);
    if (m.length === 1 && list((m[0] as Json).sniHosts).length > 1) {
      const c = clone(r);
      const cm = obj(list(c.match)[0]);
      cm.sniHosts = list(cm.sniHosts).map(str).filter((h) => hostMatches(parentHost, h));
      return c;
    }
    return r;
  });
}

function constrainTLSRoutesToListenerHost(routes: Json[], listenerHost: string): Json[] {
  if (listenerHost === '') return routes;
  const out: Json[] = [];
  for (const r0 of routes) {
    const r = clone(r0);
    const m = list(r.match).map(obj);
    for (const x of m) x.sniHosts = hostIntersection(list(x.sniHosts).map(str), [listenerHost]);
    const hasHosts = m.some((x) => list(x.sniHosts).length > 0);
    if (hasHosts || m.length === 0) out.push(r);
  }
  return out;
}

function uriRank(m: Json): number {
  const u = m.uri;
  if (!isObject(u)) return -1;
  if (u.exact !== undefined) return 3;
  if (u.prefix !== undefined) return 2;
  if (u.regex !== undefined) return 1;
  return -1;
}

function uriLength(m: Json): number {
  const u = m.uri;
  if (!isObject(u)) return 0;
  return str(u.prefix ?? u.exact ?? u.regex).length;
}

/** sortHTTPRoutes: Gateway API precedence, stable. */
export function sortHTTPRoutes(routes: Json[]): void {
  const less = (a: Json, b: Json): boolean => {
    const ma = list(a.match);
    const mb = list(b.match);
    if (ma.length === 0) return false;
    if (mb.length === 0) return true;
    const m1 = obj(ma[0]);
    const m2 = obj(mb[0]);
    const r1 = uriRank(m1);
    const r2 = uriRank(m2);
    const l1 = uriLength(m1);
    const l2 = uriLength(m2);
    if (r1 !== r2) return r1 > r2;
    if (l1 !== l2) return l1 > l2;
    if ((m1.method === undefined) !== (m2.method === undefined)) return m1.method !== undefined;
    const h1 = Object.keys(obj(m1.headers)).length;
    const h2 = Object.keys(obj(m2.headers)).length;
    if (h1 !== h2) return h1 > h2;
    return Object.keys(obj(m1.queryParams)).length > Object.keys(obj(m2.queryParams)).length;
  };
  const sorted = routes.map((r, i) => ({ r, i })).sort((a, b) => (less(a.r, b.r) ? -1 : less(b.r, a.r) ? 1 : a.i - b.i)).map((e) => e.r);
  for (let i = 0; i < routes.length; i++) routes[i] = sorted[i] as Json;
}

function mergeHTTPRoutes(base: RouteWithKey[]): IstioConfig[] {
  const groups = new Map<string, RouteWithKey[]>();
  for (const r of base) {
    listAt(groups, r.key).push(r);
  }
  const out: IstioConfig[] = [];
  for (const [key, configs] of groups) {
    const name = key.replace(/\//g, '~');
    if (configs.length === 1) {
      const c = clone((configs[0] as RouteWithKey).config);
      c.created = (configs[0] as RouteWithKey).created;
      c.metadata.name = name;
      out.push(c);
      continue;
    }
    sortByCreation(configs);
    const first = configs[0] as RouteWithKey;
    const merged = clone(first.config);
    merged.created = first.created;
    const http = list(merged.spec.http).map(obj);
    for (const c of configs.slice(1)) {
      http.push(...list(clone(c.config.spec.http)).map(obj));
      merged.metadata.annotations[ANNOTATION_PARENTS] = `${merged.metadata.annotations[ANNOTATION_PARENTS]},${c.config.metadata.annotations[ANNOTATION_PARENTS]}`;
    }
    sortHTTPRoutes(http);
    merged.spec.http = http;
    merged.metadata.name = name;
    out.push(merged);
  }
  return out;
}

function createURIMatch(m: Json): { match: Json } | { error: ConfigError } {
  const path = obj(m.path);
  const tp = optStr(path.type) ?? 'PathPrefix';
  let dest = optStr(path.value) ?? '/';
  if (tp === 'PathPrefix') {
    if (dest !== '/') dest = dest.endsWith('/') ? dest.slice(0, -1) : dest;
    return { match: { prefix: dest } };
  }
  if (tp === 'Exact') return { match: { exact: dest } };
  if (tp === 'RegularExpression') return { match: { regex: dest } };
  return { error: { reason: 'InvalidConfiguration', message: `unknown type: ${JSON.stringify(tp)} is not supported Path match type` } };
}

function createHeadersMatch(items: unknown[], what: 'HeaderMatch' | 'QueryParams'): { match?: Json } | { error: ConfigError } {
  const res: Json = {};
  for (const raw of items) {
    const h = obj(raw);
    const tp = optStr(h.type) ?? 'Exact';
    if (tp === 'Exact') res[str(h.name)] = { exact: str(h.value) };
    else if (tp === 'RegularExpression') res[str(h.name)] = { regex: str(h.value) };
    else return { error: { reason: 'InvalidConfiguration', message: `unknown type: ${JSON.stringify(tp)} is not supported ${what} type` } };
  }
  return Object.keys(res).length === 0 ? {} : { match: res };
}

function createGRPCURIMatch(m: Json): { match?: Json } | { error: ConfigError } {
  if (!isObject(m.method)) return {};
  const meth = m.method;
  const tp = optStr(meth.type) ?? 'Exact';
  const method = optStr(meth.method);
  const service = optStr(meth.service);
  if (method === undefined && service === undefined) return { error: { reason: 'InvalidConfiguration', message: 'gRPC match must have method or service defined' } };
  if (tp === 'Exact') {
    if (method === undefined) return { match: { prefix: `/${service}/` } };
    if (service === undefined) return { match: { regex: `/[^/]+/${method}` } };
    return { match: { exact: `/${service}/${method}` } };
  }
  if (tp === 'RegularExpression') {
    if (method === undefined) return { match: { regex: `/${service}/.+` } };
    if (service === undefined) return { match: { regex: `/[^/]+/${method}` } };
    return { match: { regex: `/${service}/${method}` } };
  }
  return { error: { reason: 'InvalidConfiguration', message: `unknown type: ${JSON.stringify(tp)} is not supported Path match type` } };
}

function isValidHeaderValue(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 0x09 || (c >= 0x20 && c !== 0x7f)) continue;
    return false;
  }
  return true;
}

function headerListToMap(hl: unknown[]): Record<string, string> | undefined {
  if (hl.length === 0) return undefined;
  const res: Record<string, string> = {};
  for (const raw of hl) {
    const e = obj(raw);
    const k = str(e.name).toLowerCase();
    if (Object.prototype.hasOwnProperty.call(res, k)) continue;
    res[k] = str(e.value);
  }
  return res;
}

function createHeadersFilter(f: unknown): { ops?: Json } | { error: ConfigError } {
  if (!isObject(f)) return {};
  for (const raw of [...list(f.set), ...list(f.add)]) {
    const h = obj(raw);
    if (!isValidHeaderValue(str(h.value))) return { error: { reason: 'InvalidFilter', message: `header ${JSON.stringify(str(h.name))} value contains invalid characters` } };
  }
  const ops: Json = {};
  const add = headerListToMap(list(f.add));
  const set = headerListToMap(list(f.set));
  const remove = list(f.remove).map(str);
  if (add) ops.add = add;
  if (remove.length > 0) ops.remove = remove;
  if (set) ops.set = set;
  return { ops };
}

function createRedirectFilter(f: unknown): Json | undefined {
  if (!isObject(f)) return undefined;
  const r: Json = {};
  if (optNum(f.statusCode) !== undefined) r.redirectCode = num(f.statusCode);
  if (optStr(f.hostname) !== undefined) r.authority = str(f.hostname);
  if (optStr(f.scheme) !== undefined) r.scheme = str(f.scheme);
  if (optNum(f.port) !== undefined) r.port = num(f.port);
  else r.derivePort = optStr(f.scheme) !== undefined ? 'FROM_PROTOCOL_DEFAULT' : 'FROM_REQUEST_PORT';
  if (isObject(f.path)) {
    const t = str(f.path.type);
    if (t === 'ReplaceFullPath') r.uri = str(f.path.replaceFullPath);
    else if (t === 'ReplacePrefixMatch') r.prefixRewrite = str(f.path.replacePrefixMatch);
  }
  for (const k of ['redirectCode', 'authority', 'scheme', 'uri', 'prefixRewrite']) if (r[k] === '' || r[k] === 0) delete r[k];
  return r;
}

function createRewriteFilter(f: unknown): Json | undefined {
  if (!isObject(f)) return undefined;
  const r: Json = {};
  if (isObject(f.path)) {
    const t = str(f.path.type);
    if (t === 'ReplacePrefixMatch') {
      let uri = str(f.path.replacePrefixMatch);
      if (uri.endsWith('/')) uri = uri.slice(0, -1);
      r.uri = uri === '' ? '/' : uri;
    } else if (t === 'ReplaceFullPath') {
      r.uriRegexRewrite = { match: '/.*', rewrite: str(f.path.replaceFullPath) };
    }
  }
  if (optStr(f.hostname) !== undefined && str(f.hostname) !== '') r.authority = str(f.hostname);
  if (!r.uri && !r.uriRegexRewrite && !r.authority) return undefined;
  return r;
}

function createCorsFilter(f: unknown): Json | undefined {
  if (!isObject(f)) return undefined;
  const res: Json = {};
  const origins: Json[] = [];
  for (const raw of list(f.allowOrigins)) {
    const rs = str(raw);
    if (rs.length === 0) continue;
    if (rs === '*') {
      origins.push({ regex: '^[a-zA-Z][a-zA-Z0-9+.-]*://[^/\\s?#]+$' });
      continue;
    }
    if (!rs.includes('*')) {
      origins.push({ exact: rs });
      continue;
    }
    if (rs.split('*').length - 1 === 1 && rs.endsWith('*')) {
      origins.push({ prefix: rs.slice(0, -1) });
      continue;
    }
    const quoted = rs.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&').replace(/\\\*/g, '.*');
    origins.push({ regex: `^${quoted}$` });
  }
  if (origins.length > 0) res.allowOrigins = origins;
  if (f.allowCredentials === true) res.allowCredentials = true;
  const methods = list(f.allowMethods).map(str);
  if (methods.length > 0) res.allowMethods = methods;
  const headers = list(f.allowHeaders).map(str);
  if (headers.length > 0) res.allowHeaders = headers;
  const expose = list(f.exposeHeaders).map(str);
  if (expose.length > 0) res.exposeHeaders = expose;
  if (num(f.maxAge) > 0) res.maxAge = `${num(f.maxAge)}s`;
  res.unmatchedPreflights = 'IGNORE';
  return res;
}

/** InferencePoolServiceName: the shadow Service istiod creates for a pool (`<pool>-ip-<sha256[:8]>`, at most 63 characters). */
export function inferencePoolServiceName(pool: string): string {
  const hash = sha256Hex(pool).slice(0, 8);
  const name = `${pool}-ip-${hash}`;
  return name.length > 63 ? `${pool.slice(0, 63 - 4 - 8)}-ip-${hash}` : name;
}

// Label selectors (metav1.LabelSelector) over namespaces.

function withNameLabel(name: string, labels: Record<string, string>): Record<string, string> {
  return { ...labels, 'kubernetes.io/metadata.name': labels['kubernetes.io/metadata.name'] === name ? name : name };
}

function validSelector(sel: Json): boolean {
  for (const e of list(sel.matchExpressions).map(obj)) {
    const op = str(e.operator);
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(op)) return false;
    const vals = list(e.values);
    if ((op === 'In' || op === 'NotIn') && vals.length === 0) return false;
    if ((op === 'Exists' || op === 'DoesNotExist') && vals.length > 0) return false;
  }
  return true;
}

function selectorMatches(sel: Json, labels: Record<string, string>): boolean {
  if (!validSelector(sel)) return false;
  for (const [k, v] of Object.entries(stringRecord(sel.matchLabels))) if (labels[k] !== v) return false;
  for (const e of list(sel.matchExpressions).map(obj)) {
    const key = str(e.key);
    const vals = list(e.values).map(str);
    const has = Object.prototype.hasOwnProperty.call(labels, key);
    switch (str(e.operator)) {
      case 'In': if (!has || !vals.includes(labels[key] as string)) return false; break;
      case 'NotIn': if (has && vals.includes(labels[key] as string)) return false; break;
      case 'Exists': if (!has) return false; break;
      case 'DoesNotExist': if (has) return false; break;
    }
  }
  return true;
}
