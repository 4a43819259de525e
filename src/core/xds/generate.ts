// Generation for one proxy: LDS, RDS, CDS and EDS as istiod would push them (configgen.go
// BuildListeners, BuildHTTPRoutes, BuildClusters; xds/eds.go).
import type { Json, Proxy, GenerateOptions } from './types.ts';
import type { ConfigView } from '../config/configView.ts';
import { pushContext } from './pushContext.ts';
import { genContext, type GenContext } from './context.ts';
import { sidecarOutboundListeners, virtualOutboundListener, httpProxyListener } from './listeners/outbound.ts';
import { sidecarInboundListeners } from './listeners/inbound.ts';
import { gatewayListeners } from './listeners/gateway.ts';
import { sidecarOutboundRouteConfig } from './routes/sidecar.ts';
import { gatewayRouteConfig } from './routes/gateway.ts';
import {
  allowAnyDynamicDnsCluster,
  blackHoleCluster,
  inboundClusters,
  inboundPassthroughCluster,
  normalizeClusters,
  outboundClusters,
  passthroughCluster,
} from './clusters.ts';
import { clusterLoadAssignment } from './endpoints.ts';
import { mergedGateway, type MergedGateway } from './gateway.ts';
import { HCM_NAME } from './filters.ts';
import { isObj } from '../document/read.ts';
import { waypointResources } from './waypoint/resources.ts';
import { waypointListeners } from './waypoint/listeners.ts';
import { waypointClusters } from './waypoint/clusters.ts';
import { waypointNotes } from './waypoint/notes.ts';
import { AUTHZ_NOT_IMPLEMENTED } from './authzHook.ts';
import type { MeshSettings } from './mesh.ts';
import type { Service } from './pushContext.ts';
import { ASSUMED_VIP_PREFIX } from '../config/services.ts';
import { envoyFiltersForProxy } from './envoyfilter/select.ts';
import { allowAnyDynamicDns } from './dynamicDns.ts';
import { newRun, type PatchRun } from './envoyfilter/run.ts';
import { insertedExtensionConfigurations } from './envoyfilter/extensions.ts';
import {
  patchGatewayClusters,
  patchGatewayListeners,
  patchNotes,
  patchRouteConfigs,
  patchSidecarClusters,
  patchSidecarListeners,
  patchWaypointClusters,
} from './envoyfilter/apply.ts';

export interface GeneratedConfig {
  proxy: Proxy;
  /** The mesh settings generation read (the bootstrap in a config dump needs them too). */
  mesh: MeshSettings;
  listeners: Json[];
  routes: Json[];
  clusters: Json[];
  endpoints: Json[];
  /** What generation does not model yet, for this proxy. */
  notes: string[];
  /** ECDS: the extension configs the listeners' filters ask for by name, from EnvoyFilter EXTENSION_CONFIG patches. */
  extensionConfigs?: Json[];
}

function rdsNames(listeners: readonly Json[], includeDefaultChains: boolean): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (chain: unknown) => {
    if (!isObj(chain)) return;
    for (const f of Array.isArray(chain.filters) ? chain.filters : []) {
      if (!isObj(f) || f.name !== HCM_NAME || !isObj(f.typedConfig)) continue;
      const rds = f.typedConfig.rds;
      if (isObj(rds) && typeof rds.routeConfigName === 'string' && !seen.has(rds.routeConfigName)) {
        seen.add(rds.routeConfigName);
        out.push(rds.routeConfigName);
      }
    }
  };
  for (const l of listeners) {
    for (const c of Array.isArray(l.filterChains) ? l.filterChains : []) visit(c);
    if (includeDefaultChains) visit(l.defaultFilterChain);
  }
  return out;
}

/** BuildListeners, then the EnvoyFilter listener patches (patchListeners) when `run` has any. */
export function buildListeners(ctx: GenContext, mg: MergedGateway | undefined, run?: PatchRun): Json[] {
  switch (ctx.proxy.type) {
    case 'sidecar': {
      if (ctx.mesh.proxyListenPort <= 0) return [];
      const inbound = sidecarInboundListeners(ctx);
      const outbound = sidecarOutboundListeners(ctx);
      const hp = httpProxyListener(ctx);
      const vo = virtualOutboundListener(ctx);
      if (run) return patchSidecarListeners(run, { outbound, httpProxy: hp, virtualOutbound: vo, inbound }, false);
      const out = [...outbound];
      if (hp) out.push(hp);
      if (vo) out.push(vo);
      out.push(...inbound);
      return out;
    }
    case 'router': {
      const out = gatewayListeners(ctx, mg);
      return run ? patchGatewayListeners(run, out) : out;
    }
    case 'waypoint': {
      const out = waypointListeners(ctx, waypointResources(ctx.push, ctx.proxy));
      return run ? patchSidecarListeners(run, { outbound: [], httpProxy: undefined, virtualOutbound: undefined, inbound: out }, true) : out;
    }
    default:
      return [];
  }
}

/** BuildHTTPRoutes for the route names the listeners ask for, EnvoyFilter-patched when `run` has patches. */
export function buildRoutes(ctx: GenContext, mg: MergedGateway | undefined, names: readonly string[], run?: PatchRun): Json[] {
  let out: Json[];
  if (ctx.proxy.type === 'router') out = names.map((n) => gatewayRouteConfig(ctx, mg, n));
  else {
    const cache = new Map<number, Json[]>();
    out = names.map((n) => sidecarOutboundRouteConfig(ctx.push, ctx.proxy, ctx.scope, n, cache));
  }
  return run ? patchRouteConfigs(run, ctx, mg, out) : out;
}

/** BuildClusters, with the EnvoyFilter cluster patches when `run` has any. */
export function buildClusters(ctx: GenContext, mg: MergedGateway | undefined, run?: PatchRun): Json[] {
  if (run) return patchedClusters(ctx, mg, run);
  if (ctx.proxy.type === 'sidecar') {
    return normalizeClusters([
      ...outboundClusters(ctx, ctx.scope.services),
      blackHoleCluster(ctx),
      passthroughCluster(ctx),
      ...(allowAnyDynamicDns(ctx) ? [allowAnyDynamicDnsCluster(ctx)] : []),
      ...inboundClusters(ctx),
      inboundPassthroughCluster(ctx),
    ]);
  }
  if (ctx.proxy.type === 'router') {
    const out = [...outboundClusters(ctx, ctx.scope.services), blackHoleCluster(ctx)];
    if (mg?.containsAutoPassthrough) out.push(...outboundClusters(ctx, ctx.scope.services, 'sni-dnat'));
    return normalizeClusters(out);
  }
  if (ctx.proxy.type === 'waypoint') return normalizeClusters(waypointClusters(ctx, waypointResources(ctx.push, ctx.proxy)));
  return [];
}

function patchedClusters(ctx: GenContext, mg: MergedGateway | undefined, run: PatchRun): Json[] {
  if (ctx.proxy.type === 'sidecar') {
    return normalizeClusters(
      patchSidecarClusters(run, ctx, {
        outbound: outboundClusters(ctx, ctx.scope.services),
        outboundDefaults: [blackHoleCluster(ctx), passthroughCluster(ctx), ...(allowAnyDynamicDns(ctx) ? [allowAnyDynamicDnsCluster(ctx)] : [])],
        inbound: inboundClusters(ctx),
        inboundPassthrough: inboundPassthroughCluster(ctx),
      }),
    );
  }
  if (ctx.proxy.type === 'router') {
    const sniDnat = mg?.containsAutoPassthrough ? outboundClusters(ctx, ctx.scope.services, 'sni-dnat') : [];
    return normalizeClusters(patchGatewayClusters(run, outboundClusters(ctx, ctx.scope.services), blackHoleCluster(ctx), sniDnat));
  }
  if (ctx.proxy.type === 'waypoint') return normalizeClusters(patchWaypointClusters(run, waypointClusters(ctx, waypointResources(ctx.push, ctx.proxy))));
  return [];
}

/** The names of the filters that take their config from ECDS (`configDiscovery`), in first-seen order. */
export function extensionConfigNames(listeners: readonly Json[]): string[] {
  const out: string[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) visit(x);
    else if (isObj(v)) {
      if (isObj(v.configDiscovery) && typeof v.name === 'string' && !out.includes(v.name)) out.push(v.name);
      for (const x of Object.values(v)) visit(x);
    }
  };
  visit(listeners);
  return out;
}

/** EDS for every EDS cluster. */
export function buildEndpoints(ctx: GenContext, clusters: readonly Json[]): Json[] {
  const out: Json[] = [];
  for (const c of clusters) {
    if (c.type !== 'EDS') continue;
    const name = isObj(c.edsClusterConfig) && typeof c.edsClusterConfig.serviceName === 'string' ? c.edsClusterConfig.serviceName : (c.name as string);
    out.push(clusterLoadAssignment(ctx, name));
  }
  return out;
}

/** Everything istiod would send a proxy. */
export function generateForProxy(view: ConfigView, proxy: Proxy, opts: GenerateOptions = {}): GeneratedConfig {
  return generateWithPatches(view, proxy, opts).config;
}

/** generateForProxy, with the EnvoyFilter patching pass when some EnvoyFilter selects the proxy (which patches took effect). */
export function generateWithPatches(view: ConfigView, proxy: Proxy, opts: GenerateOptions = {}): { config: GeneratedConfig; patches?: PatchRun } {
  const push = pushContext(view, opts);
  const ctx = genContext(push, proxy);
  const notes: string[] = [];
  if (proxy.type === 'waypoint') notes.push(...waypointNotes(push, proxy));
  if (AUTHZ_NOT_IMPLEMENTED && proxy.type !== 'waypoint') notes.push('AuthorizationPolicy and RequestAuthentication filters are not generated yet.');
  const efs = envoyFiltersForProxy(view, proxy, push.mesh.rootNamespace);
  const run = efs.filters.length > 0 ? newRun(efs) : undefined;
  const assumedVips = assumedVipNote(ctx.scope.services, proxy.namespace);
  if (assumedVips) notes.push(assumedVips);
  const mg = proxy.type === 'router' ? mergedGateway(push, proxy, ctx.targets) : undefined;
  const listeners = buildListeners(ctx, mg, run);
  const routes = buildRoutes(ctx, mg, rdsNames(listeners, true), run);
  const clusters = buildClusters(ctx, mg, run);
  const endpoints = buildEndpoints(ctx, clusters);
  // The ECDS generator answers the names the proxy's filters request (xds/ecds.go, InsertedExtensionConfigurations).
  const extensionConfigs = run ? insertedExtensionConfigurations(run, extensionConfigNames(listeners)) : [];
  if (run) notes.push(...patchNotes(run));
  const config: GeneratedConfig = { proxy, mesh: push.mesh, listeners, routes, clusters, endpoints, notes };
  if (extensionConfigs.length > 0) config.extensionConfigs = extensionConfigs;
  return { config, ...(run ? { patches: run } : {}) };
}

/**
 * Addresses in the listeners and routes that no file wrote: Services without a clusterIP get
 * one from the assumed range (a cluster would allocate its own), so say which.
 */
function assumedVipNote(services: readonly Service[], namespace: string): string | undefined {
  // The proxy's own namespace first: those are the ones its user is looking at.
  const assumed = services.filter((s) => s.assumedVip && s.namespace === namespace).concat(services.filter((s) => s.assumedVip && s.namespace !== namespace));
  if (assumed.length === 0) return undefined;
  const shown = assumed.slice(0, 5).map((s) => `${s.hostname} ${s.defaultAddress}`);
  const more = assumed.length > shown.length ? ` and ${assumed.length - shown.length} more` : '';
  const what = assumed.length === 1 ? 'Service has no clusterIP in the files' : `${assumed.length} Services have no clusterIP in the files`;
  return `${what}; assumed address${assumed.length === 1 ? '' : 'es'} from ${ASSUMED_VIP_PREFIX}.0.0/16 (a cluster allocates its own): ${shown.join(', ')}${more}.`;
}

/** The route names a proxy's listeners request (filter chains only, as Istio's test harness reads them). */
export function routeNamesFromListeners(listeners: readonly Json[]): string[] {
  return rdsNames(listeners, false);
}
