// Routes → VirtualServices (route_collections.go): for each HTTPRoute, GRPCRoute, TCPRoute and TLSRoute,
// the parents it refers to, its rules converted once for the mesh and once for gateways, one
// VirtualService per parent and host, the route's status and the attachments it adds; the HTTP ones of
// one gateway host are merged afterwards (mergeHTTPRoutes).
import { type ConfigError, type GwObject, type Json, list, nsName, obj, optNum, optStr, spec, str } from './objects.ts';
import { KUBERNETES_GATEWAY_NAME } from './builtins.ts';
import type { ConversionContext } from './context.ts';
import { type RouteKind, GK_GATEWAY, GK_LISTENERSET, GK_SERVICE, GK_SERVICEENTRY, KNOWN_GK, gkEq, normalizeRef } from './groupKinds.ts';
import { convertGRPCRule } from './grpcRoutes.ts';
import { hostIntersection } from './hostnames.ts';
import { augmentPortMatch, convertHTTPRule, sortHTTPRoutes } from './httpRoutes.ts';
import { ANNOTATION_PARENTS, clone, istioConfig, routeMeta, sortByCreation } from './istioConfig.ts';
import { type RouteParentRef, extractParentReferenceInfo, filteredReferences, hostnameAllowedByIsolation, hostnameList } from './routeParents.ts';
import { createRouteStatus } from './routeStatus.ts';
import { augmentTCPPortMatch, augmentTLSPortMatch, compatibleRoutesForHost, constrainTLSRoutesToListenerHost, translateL4Rules } from './tcpTlsRoutes.ts';
import type { IstioConfig } from './types.ts';
import { listAt, mapAt } from '../../document/maps.ts';

export interface RouteWithKey {
  config: IstioConfig;
  key: string;
  created: number;
  namespace: string;
  name: string;
}

/** HTTPRouteCollection and GRPCRouteCollection for one route: a VirtualService per parent and host, keyed for mergeHTTPRoutes. */
export function convertHTTPOrGRPCRoute(ctx: ConversionContext, route: GwObject, kind: 'HTTPRoute' | 'GRPCRoute'): RouteWithKey[] {
  const s = spec(route);
  const rules = list(s.rules).map(obj);
  recordAncestors(
    ctx,
    route,
    rules.flatMap((r) => list(r.backendRefs).map(obj)),
  );
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
      const config = istioConfig(
        'VirtualService',
        `${route.name}~${count}~${KUBERNETES_GATEWAY_NAME}`,
        route.namespace,
        routeMeta(route),
        {
          hosts: [h],
          gateways: [parent.internalName],
          http: clone(routes),
        },
        route.created,
      );
      out.push({ config, key: `${routeKey}/${h}`, created: route.created, namespace: route.namespace, name: route.name });
      count++;
    }
  }
  return out;
}

/** The rules of an HTTPRoute or GRPCRoute as Istio HTTP routes, one per match. */
function* translateHTTPRules(
  ctx: ConversionContext,
  route: GwObject,
  kind: 'HTTPRoute' | 'GRPCRoute',
  rules: Json[],
  enforceRefGrant: boolean,
): Iterable<[Json | undefined, ConfigError | undefined]> {
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

/** TCPRouteCollection and TLSRouteCollection for one route: a VirtualService per parent and host. */
export function convertTCPOrTLSRoute(ctx: ConversionContext, route: GwObject, kind: 'TCPRoute' | 'TLSRoute'): IstioConfig[] {
  const s = spec(route);
  const rules = list(s.rules).map(obj);
  recordAncestors(
    ctx,
    route,
    rules.flatMap((r) => list(r.backendRefs).map(obj)),
  );
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
      out.push(
        istioConfig(
          'VirtualService',
          name,
          route.namespace,
          routeMeta(route),
          {
            hosts: [h],
            gateways: [parent.internalName],
            [kind === 'TCPRoute' ? 'tcp' : 'tls']: clone(filtered),
          },
          route.created,
        ),
      );
      count++;
    }
  }
  return out;
}

/** computeRoute: parents, the mesh and gateway conversions, and the route's status. */
function computeRoute<O>(
  ctx: ConversionContext,
  route: GwObject,
  kind: RouteKind,
  translate: (mesh: boolean) => Iterable<[O | undefined, ConfigError | undefined]>,
): {
  refs: RouteParentRef[];
  mesh: { routes: O[]; error?: ConfigError };
  gw: { routes: O[]; error?: ConfigError };
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

export function mergeHTTPRoutes(base: RouteWithKey[]): IstioConfig[] {
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
      merged.metadata.annotations[ANNOTATION_PARENTS] =
        `${merged.metadata.annotations[ANNOTATION_PARENTS]},${c.config.metadata.annotations[ANNOTATION_PARENTS]}`;
    }
    sortHTTPRoutes(http);
    merged.spec.http = http;
    merged.metadata.name = name;
    out.push(merged);
  }
  return out;
}
