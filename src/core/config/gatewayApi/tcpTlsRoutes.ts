// TCPRoute and TLSRoute rules → Istio TCP and TLS routes (conversion.go convertTCPRoute, convertTLSRoute,
// augmentTCPPortMatch, augmentTLSPortMatch, compatibleRoutesForHost, constrainTLSRoutesToListenerHost).
import { type ConfigError, type GwObject, type Json, list, obj, str } from './objects.ts';
import { buildTCPDestination, weightSum } from './backendRefs.ts';
import type { ConversionContext } from './context.ts';
import { hostIntersection } from './hostnames.ts';
import { augmentPortMatch } from './httpRoutes.ts';
import { clone } from './istioConfig.ts';
import { hostnameList } from './routeParents.ts';
import { hostMatches } from '../hosts.ts';

/** The rules of a TCPRoute or TLSRoute as Istio TCP or TLS routes. */
export function* translateL4Rules(
  ctx: ConversionContext,
  route: GwObject,
  kind: 'TCPRoute' | 'TLSRoute',
  rules: Json[],
  hostnames: string[],
  enforce: boolean,
): Iterable<[Json | undefined, ConfigError | undefined]> {
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

export function augmentTCPPortMatch(routes: Json[], port: number): Json[] {
  return augmentPortMatch(routes, port);
}

export function augmentTLSPortMatch(routes: Json[], port: number | undefined, parentHosts: string[]): Json[] {
  return routes.map((r0) => {
    const r = clone(r0);
    const m = list(r.match).map(obj);
    if (m.length === 1 && JSON.stringify(list((m[0] as Json).sniHosts)) === '["*"]') (m[0] as Json).sniHosts = parentHosts.slice();
    if (port !== undefined) for (const x of m) x.port = port;
    if (m.length > 0) r.match = m;
    return r;
  });
}

export function compatibleRoutesForHost(routes: Json[], parentHost: string): Json[] {
  return routes.map((r) => {
    const m = list(r.match).map(obj);
    if (m.length === 1 && list((m[0] as Json).sniHosts).length > 1) {
      const c = clone(r);
      const cm = obj(list(c.match)[0]);
      cm.sniHosts = list(cm.sniHosts)
        .map(str)
        .filter((h) => hostMatches(parentHost, h));
      return c;
    }
    return r;
  });
}

export function constrainTLSRoutesToListenerHost(routes: Json[], listenerHost: string): Json[] {
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
