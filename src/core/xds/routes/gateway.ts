// A gateway's route configurations (gateway.go buildGatewayHTTPRouteConfig; spec §4.3):
// virtual hosts per intersecting host of each server and the VirtualServices bound to its
// gateway, httpsRedirect, collapse of identical route lists, a 404 `blackhole` vhost when empty.
import type { Json, Proxy } from '../types.ts';
import type { GenContext } from '../context.ts';
import type { Service, VirtualServiceConfig } from '../pushContext.ts';
import type { MergedGateway } from '../gateway.ts';
import { virtualServicesForGateway, isServiceVisible } from '../scope.ts';
import { buildRoutesForVirtualService, sortVHostRoutes, type RouteOptions } from './translate.ts';
import { hashForDestination, MAX_DIRECT_RESPONSE_BODY } from './sidecar.ts';
import { compareHostsSpecificFirst } from '../hostname.ts';
import { hostSubsetOf } from '../../config/hosts.ts';
import { domainName } from '../names.ts';
import { mark, ref } from '../provenance.ts';
import { proxyHeaders } from '../listeners/hcm.ts';
import { mapAt } from '../../document/maps.ts';

function namesForNamespace(hosts: readonly string[], ns: string): string[] {
  const out: string[] = [];
  for (const h of hosts) {
    const slash = h.indexOf('/');
    if (slash >= 0) {
      const hns = h.slice(0, slash);
      if (hns !== ns && hns !== '*') continue;
      out.push(h.slice(slash + 1));
    } else out.push(h);
  }
  return out;
}

function intersection(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  for (const x of a) {
    for (const y of b) {
      if (hostSubsetOf(x, y)) {
        if (!out.includes(x)) out.push(x);
      } else if (hostSubsetOf(y, x)) {
        if (!out.includes(y)) out.push(y);
      }
    }
  }
  return out;
}

/** buildNameToServiceMapForHTTPRoutes: destination services, the VirtualService's namespace first. */
function nameToService(ctx: GenContext, vs: VirtualServiceConfig): Map<string, Service | undefined> {
  const m = new Map<string, Service | undefined>();
  const add = (host: string) => {
    if (m.has(host)) return;
    let svc: Service | undefined;
    const s = ctx.push.hostnameAndNamespace.get(host)?.get(vs.meta.namespace);
    if (s && isServiceVisible(s, ctx.proxy.configNamespace)) svc = s;
    svc ??= ctx.scope.servicesByHostname.get(host);
    m.set(host, svc);
  };
  for (const h of vs.http) {
    if (h.mirror) add(h.mirror.host);
    for (const mm of h.mirrors) if (mm.destination) add(mm.destination.host);
    for (const r of h.route) if (r.destination) add(r.destination.host);
  }
  return m;
}

/** buildGatewayHTTPRouteConfig. */
export function gatewayRouteConfig(ctx: GenContext, mg: MergedGateway | undefined, routeName: string): Json {
  const empty = { name: routeName, virtualHosts: [], validateClusters: false };
  if (!mg) return empty;
  const servers = mg.serversByRouteName.get(routeName);
  if (!servers) return empty;
  const ph = proxyHeaders(ctx, 'gateway');
  const gatewayRoutes = new Map<string, Map<string, Json[]>>();
  const gatewayVs = new Map<string, VirtualServiceConfig[]>();
  const vhosts = new Map<string, Json>();
  for (const server of servers) {
    const gatewayName = mg.gatewayNameForServer.get(server) as string;
    const port = server.port?.number ?? 0;
    let vss = gatewayVs.get(gatewayName);
    if (!vss) gatewayVs.set(gatewayName, (vss = virtualServicesForGateway(ctx.push, ctx.proxy.configNamespace, gatewayName)));
    for (const vs of vss) {
      const hosts = intersection(namesForNamespace(server.hosts, vs.meta.namespace), vs.hosts);
      if (hosts.length === 0) continue;
      const services = nameToService(ctx, vs);
      const byVs = mapAt(gatewayRoutes, gatewayName);
      const vsKey = `${vs.meta.name}/${vs.meta.namespace}`;
      let routes = byVs.get(vsKey);
      if (!routes) {
        const opts: RouteOptions = {
          isTls: server.tls !== undefined,
          mesh: ctx.mesh,
          lookupService: (h) => services.get(h),
          lookupHash: (d) => hashForDestination(ctx.scope, ctx.proxy, d),
        };
        const built = buildRoutesForVirtualService(ctx.proxy, vs, port, new Set([gatewayName]), opts);
        if (!built) continue;
        routes = built;
        byVs.set(vsKey, routes);
      }
      for (const h of hosts) {
        const hostname = h.toLowerCase();
        const existing = vhosts.get(hostname);
        if (existing) {
          existing.routes = [...(existing.routes as Json[]), ...routes];
          if (server.tls?.httpsRedirect) existing.requireTls = 'ALL';
          mark(existing, ref(vs.meta.sourceKey));
        } else {
          const vh: Json = { name: domainName(hostname, port), domains: [hostname], routes: [...routes] };
          if (ph.includeAttemptCount) vh.includeRequestAttemptCount = true;
          if (server.tls?.httpsRedirect) vh.requireTls = 'ALL';
          vhosts.set(hostname, mark(vh, ref(vs.meta.sourceKey, vs.meta.sourceKey === vs.meta.resource.key ? 'spec.hosts' : undefined)));
        }
      }
    }
    if (server.tls?.httpsRedirect) {
      for (let hostname of server.hosts) {
        hostname = hostname.toLowerCase();
        const existing = vhosts.get(hostname);
        if (existing) {
          existing.requireTls = 'ALL';
          continue;
        }
        const vh: Json = { name: domainName(hostname, port), domains: [hostname] };
        if (ph.includeAttemptCount) vh.includeRequestAttemptCount = true;
        vh.requireTls = 'ALL';
        const meta = mg.gatewayMetaForServer.get(server);
        vhosts.set(hostname, meta ? mark(vh, ref(meta.resource.key, `spec.servers[${mg.serverIndex.get(server)}].tls.httpsRedirect`)) : vh);
      }
    }
  }
  let virtualHosts: Json[];
  if (vhosts.size === 0) {
    const port = servers[0]?.port?.number ?? 0;
    virtualHosts = [{ name: domainName('blackhole', port), domains: ['*'] }];
  } else {
    const collapsed = ctx.features.PILOT_ENABLE_ROUTE_COLLAPSE_OPTIMIZATION ? collapse(vhosts) : vhosts;
    virtualHosts = [...collapsed.values()].map((v) => {
      v.routes = sortVHostRoutes((v.routes as Json[] | undefined) ?? []);
      if ((v.routes as Json[]).length === 0) delete v.routes;
      return v;
    });
  }
  virtualHosts.sort((a, b) => ((a.name as string) < (b.name as string) ? -1 : (a.name as string) > (b.name as string) ? 1 : 0));
  return { name: routeName, virtualHosts, validateClusters: false, maxDirectResponseBodySizeBytes: MAX_DIRECT_RESPONSE_BODY, ignorePortInHostMatching: true };
}

/** collapseDuplicateRoutes: vhosts with the very same routes merge under the most specific host. */
function collapse(input: Map<string, Json>): Map<string, Json> {
  const out = new Map<string, Json>();
  const known: { routes: Json[]; host: string }[] = [];
  const keys = [...input.keys()].sort(compareHostsSpecificFirst);
  for (const h of keys) {
    const vh = input.get(h) as Json;
    const routes = (vh.routes as Json[] | undefined) ?? [];
    const hit = known.find((k) => k.routes.length === routes.length && k.routes.every((r, i) => r === routes[i]));
    const target = hit ? out.get(hit.host) : undefined;
    if (hit && target && target.requireTls === vh.requireTls && target.includeRequestAttemptCount === vh.includeRequestAttemptCount) {
      target.domains = [...(target.domains as string[]), ...(vh.domains as string[])];
    } else {
      if (hit) hit.host = h;
      else known.push({ routes, host: h });
      out.set(h, vh);
    }
  }
  return out;
}

export type { Proxy };
