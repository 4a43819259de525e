// Where istiod applies EnvoyFilter patches while generating for one proxy, with the patch
// context of each place (listener_builder.go patchListeners, cluster.go buildClusters,
// httproute.go BuildHTTPRoutes and buildSidecarInboundHTTPRouteConfig), over the JSON our
// builders produce. Nothing here runs unless some EnvoyFilter selects the proxy.
import type { Json } from '../types.ts';
import type { GenContext } from '../context.ts';
import type { MergedGateway } from '../gateway.ts';
import { HCM_NAME } from '../filters.ts';
import { applyListenerPatches } from './listeners.ts';
import { applyClusterMerge, insertedClusters, parseSubsetKey } from './clusters.ts';
import { applyRouteConfigurationPatches, parseGatewayRdsRouteName, type GatewayPortMap } from './routes.ts';
import { cloneMarked, type PatchRun } from './run.ts';
import { describePatch } from './describe.ts';
import type { PatchContext } from './wrapper.ts';
import { APPLY_TO, type ApplyTo } from './wrapper.ts';
import { isObj } from '../../document/read.ts';

/** The sidecar's listeners in the groups istiod patches separately. */
export interface SidecarListenerGroups {
  outbound: Json[];
  httpProxy: Json | undefined;
  virtualOutbound: Json | undefined;
  inbound: Json[];
}

/** patchListeners for a sidecar or waypoint (its listeners are all "inbound"); returns getListeners' order. */
export function patchSidecarListeners(run: PatchRun, g: SidecarListenerGroups, waypoint: boolean): Json[] {
  const one = (l: Json | undefined, pctx: PatchContext): Json[] => (l ? applyListenerPatches(run, pctx, [cloneMarked(l)], true) : []);
  const inbound = g.inbound.map((l) => cloneMarked(l));
  for (const l of inbound) patchInlineRouteConfigs(run, l, waypoint);
  const vo = one(g.virtualOutbound, 'SIDECAR_OUTBOUND');
  const hp = one(g.httpProxy, 'SIDECAR_OUTBOUND');
  const patchedInbound = applyListenerPatches(run, 'SIDECAR_INBOUND', inbound, false);
  const outbound = applyListenerPatches(
    run,
    'SIDECAR_OUTBOUND',
    g.outbound.map((l) => cloneMarked(l)),
    false,
  );
  return [...outbound, ...hp, ...vo, ...patchedInbound];
}

export function patchGatewayListeners(run: PatchRun, listeners: readonly Json[]): Json[] {
  return applyListenerPatches(
    run,
    'GATEWAY',
    listeners.map((l) => cloneMarked(l)),
    false,
  );
}

/**
 * Inbound HTTP chains carry their route configuration inline; istiod patches it with
 * SIDECAR_INBOUND route patches as it builds it (buildSidecarInboundHTTPRouteConfig). A
 * waypoint builds that default configuration only when no VirtualService routes the service
 * (the only inline configuration with maxDirectResponseBodySizeBytes set); its others are
 * not patched.
 */
function patchInlineRouteConfigs(run: PatchRun, l: Json, waypoint: boolean): void {
  const chains = [...(Array.isArray(l.filterChains) ? l.filterChains : []), l.defaultFilterChain];
  for (const fc of chains) {
    if (!isObj(fc) || !Array.isArray(fc.filters)) continue;
    for (const f of fc.filters) {
      if (!isObj(f) || f.name !== HCM_NAME || !isObj(f.typedConfig)) continue;
      const rc = f.typedConfig.routeConfig;
      if (!isObj(rc)) continue;
      if (waypoint && rc.maxDirectResponseBodySizeBytes === undefined) continue;
      applyRouteConfigurationPatches(run, 'SIDECAR_INBOUND', rc);
    }
  }
}

/** model.GatewayPortMap from the merged gateway's servers by route name. */
export function gatewayPortMap(mg: MergedGateway | undefined): GatewayPortMap | undefined {
  if (!mg) return undefined;
  const out = new Map<number, Set<number>>();
  for (const [routeName, servers] of mg.serversByRouteName) {
    const port = parseGatewayRdsRouteName(routeName).port;
    const set = out.get(port) ?? new Set<number>();
    for (const s of servers) if (s.port) set.add(s.port.number);
    out.set(port, set);
  }
  return out;
}

/** RDS: a gateway's route configurations with GATEWAY patches, a sidecar's or waypoint's with SIDECAR_OUTBOUND. */
export function patchRouteConfigs(run: PatchRun, ctx: GenContext, mg: MergedGateway | undefined, routes: readonly Json[]): Json[] {
  if (ctx.proxy.type === 'router') {
    const pm = gatewayPortMap(mg);
    return routes.map((rc) => applyRouteConfigurationPatches(run, 'GATEWAY', cloneMarked(rc), pm));
  }
  // A name istiod cannot build a configuration for gets an empty one, unpatched; ours has no
  // ignorePortInHostMatching then.
  return routes.map((rc) => (rc.ignorePortInHostMatching === true ? applyRouteConfigurationPatches(run, 'SIDECAR_OUTBOUND', cloneMarked(rc)) : rc));
}

/** The services of an inbound cluster (what istiod passes as its hosts to the cluster match). */
function inboundClusterHosts(ctx: GenContext, name: string): string[] {
  const port = parseSubsetKey(name).port;
  const sc = ctx.scope.sidecar;
  if (sc && sc.spec.ingress.length > 0) {
    const real = ctx.targets.find((t) => t.targetPort === port);
    return [real ? real.service.hostname : `${sc.meta.name}.${sc.meta.namespace}`];
  }
  return ctx.targets.filter((t) => t.targetPort === port).map((t) => t.service.hostname);
}

function patchEach(run: PatchRun, pctx: PatchContext, clusters: readonly Json[], hosts: (c: Json) => string[] = () => []): Json[] {
  const out: Json[] = [];
  for (const c of clusters) {
    const patched = applyClusterMerge(run, pctx, cloneMarked(c), hosts(c));
    if (patched) out.push(patched);
  }
  return out;
}

/** The clusters a sidecar's CDS is made of, in istiod's order, before de-duplication. */
export interface SidecarClusterGroups {
  outbound: Json[];
  /** BlackHole, Passthrough. */
  outboundDefaults: Json[];
  inbound: Json[];
  inboundPassthrough: Json;
}

export function patchSidecarClusters(run: PatchRun, ctx: GenContext, g: SidecarClusterGroups): Json[] {
  return [
    ...patchEach(run, 'SIDECAR_OUTBOUND', g.outbound),
    ...patchEach(run, 'SIDECAR_OUTBOUND', g.outboundDefaults),
    ...insertedClusters(run, 'SIDECAR_OUTBOUND'),
    ...patchEach(run, 'SIDECAR_INBOUND', g.inbound, (c) => inboundClusterHosts(ctx, String(c.name))),
    ...patchEach(run, 'SIDECAR_INBOUND', [g.inboundPassthrough]),
    ...insertedClusters(run, 'SIDECAR_INBOUND'),
  ];
}

export function patchGatewayClusters(run: PatchRun, outbound: Json[], blackHole: Json, sniDnat: Json[]): Json[] {
  return [
    ...patchEach(run, 'GATEWAY', outbound),
    ...patchEach(run, 'GATEWAY', [blackHole]),
    ...patchEach(run, 'GATEWAY', sniDnat),
    ...insertedClusters(run, 'GATEWAY'),
  ];
}

/** A waypoint patches only the outbound clusters it builds; its own clusters are not patched, then inbound ADDs follow. */
export function patchWaypointClusters(run: PatchRun, clusters: readonly Json[]): Json[] {
  const isOutbound = (c: Json) => typeof c.name === 'string' && (c.name.startsWith('outbound|') || c.name.startsWith('outbound_.'));
  const out: Json[] = [];
  for (const c of clusters) {
    if (!isOutbound(c)) out.push(c);
    else out.push(...patchEach(run, 'SIDECAR_OUTBOUND', [c]));
  }
  return [...out, ...insertedClusters(run, 'SIDECAR_INBOUND')];
}

// applyTo kinds this engine applies (EXTENSION_CONFIG and BOOTSTRAP patch resources we do not generate).
/** The applyTo values generation patches (the others are noted as not applied). */
export const IMPLEMENTED = new Set<ApplyTo>([
  'LISTENER',
  'LISTENER_FILTER',
  'FILTER_CHAIN',
  'NETWORK_FILTER',
  'HTTP_FILTER',
  'ROUTE_CONFIGURATION',
  'VIRTUAL_HOST',
  'HTTP_ROUTE',
  'CLUSTER',
  'EXTENSION_CONFIG',
]);

const WHY_NOT: Partial<Record<ApplyTo, string>> = {
  BOOTSTRAP: 'istiod no longer applies these: it removed bootstrap discovery in Istio 1.21',
};

/** What to tell the user about the EnvoyFilters of this proxy (empty when none select it). */
export function patchNotes(run: PatchRun): string[] {
  const { merged } = run;
  if (merged.filters.length === 0) return [];
  const total = merged.all.length;
  const reaching = merged.all.filter((x) => x.proxyMatched).length;
  const applied = merged.all.filter((x) => run.applied.has(x.patch)).length;
  const names = merged.filters.map((f) => `${f.namespace}/${f.name}`);
  const out = [
    `EnvoyFilter patches applied: ${applied} of ${reaching} matched (${total} in ${names.length} EnvoyFilter${names.length === 1 ? '' : 's'} selecting this proxy: ${names.join(', ')}).`,
  ];
  const skipped = merged.all.filter((x) => !x.proxyMatched);
  if (skipped.length > 0) {
    const which = skipped
      .slice(0, 5)
      .map((x) => `${x.patch.fullName} patch ${x.patch.index}`)
      .join(', ');
    out.push(
      `${skipped.length} EnvoyFilter patch${skipped.length === 1 ? '' : 'es'} left out by match.proxy (proxyVersion against this proxy's version ${merged.proxyVersion || '(none)'}, or metadata): ${which}${skipped.length > 5 ? ', …' : ''}.`,
    );
  }
  // A wrong match silently does nothing in istiod: name the patches that found nothing here.
  const unused = merged.all.filter((x) => x.proxyMatched && IMPLEMENTED.has(x.patch.applyTo) && !run.applied.has(x.patch));
  if (unused.length > 0) {
    const shown = unused
      .slice(0, 5)
      .map((x) => `${x.patch.fullName} patch ${x.patch.index}: ${describePatch(x.patch)}`)
      .join('; ');
    out.push(`EnvoyFilter patch${unused.length === 1 ? '' : 'es'} that matched nothing on this proxy: ${shown}${unused.length > 5 ? '; …' : ''}.`);
  }
  for (const kind of ['listener', 'cluster'] as const) {
    const gone = run.removed.filter((r) => r.kind === kind);
    if (gone.length === 0) continue;
    const shown = gone
      .slice(0, 5)
      .map((r) => `${r.name} (${r.patch.fullName} patch ${r.patch.index})`)
      .join(', ');
    out.push(`Removed by EnvoyFilter: ${gone.length} ${kind}${gone.length === 1 ? '' : 's'}: ${shown}${gone.length > 5 ? ', …' : ''}.`);
  }
  const missing = new Set<ApplyTo>();
  for (const x of merged.all) if (x.proxyMatched && x.patch.applyTo !== 'INVALID' && !IMPLEMENTED.has(x.patch.applyTo)) missing.add(x.patch.applyTo);
  if (missing.size > 0)
    out.push(
      `EnvoyFilter patches not applied here: ${APPLY_TO.filter((a) => missing.has(a))
        .map((a) => `${a} (${WHY_NOT[a] ?? 'not implemented yet'})`)
        .join(', ')}.`,
    );
  for (const f of merged.filters) {
    for (const d of f.dropped) out.push(`EnvoyFilter ${f.namespace}/${f.name} patch ${d.index} is ignored by istiod: ${d.reason}.`);
  }
  const opaque = new Set<string>();
  for (const x of merged.all) for (const t of x.patch.opaqueTypes) opaque.add(t);
  if (opaque.size > 0) out.push(`EnvoyFilter values of types outside our Envoy schema were used as written: ${[...opaque].join(', ')}.`);
  out.push(...run.notes);
  return out;
}
