// virtualservice.DestinationHostAnalyzer: every route and mirror destination of a
// VirtualService must be a host some Service or ServiceEntry provides (as seen from the
// VirtualService's namespace), on a port it exposes; and subsets on ingress routes.
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { fullNameString } from '../../../config/hosts.ts';
import { hostTable, resolveDestinationHost, type HostTarget } from '../../../config/registry.ts';
import { virtualService, type Destination } from '../../../config/api/networking.ts';
import { destinationHostPath, mirrorDestinations, mirrorHostPath, routeDestinations, type RouteDestination } from './destinations.ts';

export const destinationHostAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'virtualservice.DestinationHostAnalyzer',
    description: 'Checks that VirtualService route and mirror destinations name a known host and port',
    inputs: [KINDS.ServiceEntry, KINDS.VirtualService, KINDS.Service],
  },
  {
    kind: KINDS.VirtualService,
    // Hosts and ports depend only on this VirtualService and the Service/ServiceEntry table.
    check(ctx, vs) {
      const table = hostTable(ctx);
      const exportTo = virtualService(vs).exportTo;
      checkDestinations(ctx, vs, (d) => resolveDestinationHost(table, vs.namespace, exportTo, d?.host ?? ''));
    },
    // IST0140 compares VirtualServices with each other, so it runs over all of them.
    global(ctx) {
      // Only hosts that a gateway-bound route sends to without a subset can be affected,
      // so the (larger) subset table is built for those hosts alone.
      const wanted = new Set<string>();
      for (const vs of ctx.list(KINDS.VirtualService)) forEachIngressRouteWithoutSubset(vs, (host) => wanted.add(host));
      if (wanted.size === 0) return;
      const subsetDestinations = subsetDestinationsByHost(ctx, wanted);
      if (subsetDestinations.size === 0) return;
      for (const vs of ctx.list(KINDS.VirtualService)) checkIngressSubsets(ctx, vs, subsetDestinations);
    },
  },
);

function pathFor(d: RouteDestination): string {
  return d.rule === 'http.mirror' ? mirrorHostPath(d.ruleIndex) : destinationHostPath(d.rule, d.ruleIndex, d.destIndex);
}

/**
 * The destination object itself, for the editor: Istio's keys for `mirrors[j]` name the
 * `mirror` field instead, so they never resolve there.
 */
function destinationPath(d: RouteDestination): string {
  if (d.rule === 'http.mirror') return `spec.http[${d.ruleIndex}].mirror`;
  if (d.rule === 'http.mirrors') return `spec.http[${d.ruleIndex}].mirrors[${d.destIndex}].destination`;
  return `spec.${d.rule}[${d.ruleIndex}].route[${d.destIndex}].destination`;
}

function checkDestinations(ctx: AnalysisContext, vs: Resource, resolve: (d: Destination | undefined) => HostTarget | undefined): void {
  for (const d of routeDestinations(vs)) {
    const target = resolve(d.destination);
    if (!target) {
      ctx.report(MESSAGES.ReferencedResourceNotFound.at(vs, 'host', d.destination?.host ?? ''), { fieldPath: destinationHostPath(d.rule, d.ruleIndex, d.destIndex) });
      continue;
    }
    checkPorts(ctx, vs, d, target);
  }
  for (const d of mirrorDestinations(vs)) {
    const target = resolve(d.destination);
    if (!target) {
      ctx.report(MESSAGES.ReferencedResourceNotFound.at(vs, 'mirror host', d.destination?.host ?? ''), { fieldPath: mirrorHostPath(d.ruleIndex), highlightPath: `${destinationPath(d)}.host` });
      continue;
    }
    checkPorts(ctx, vs, d, target);
  }
}

function checkPorts(ctx: AnalysisContext, vs: Resource, d: RouteDestination, target: HostTarget): void {
  const host = d.destination?.host ?? '';
  const port = d.destination?.port;
  if (!port) {
    // Without a port the destination is ambiguous only when the target exposes several.
    if (target.ports.length > 1) {
      ctx.report(MESSAGES.VirtualServiceDestinationPortSelectorRequired.at(vs, host, [...target.ports]), { fieldPath: pathFor(d), highlightPath: `${destinationPath(d)}.host` });
    }
    return;
  }
  const number = port.number;
  if (!target.ports.includes(number)) {
    ctx.report(MESSAGES.ReferencedResourceNotFound.at(vs, 'host:port', `${host}:${number}`), { fieldPath: pathFor(d), highlightPath: `${destinationPath(d)}.port.number` });
  }
}

interface SubsetDestination {
  vs: Resource;
}

/**
 * For each host: the VirtualServices that route to it with a subset, where the host is also
 * one of that VirtualService's own hosts (one entry per matching route and host).
 */
function subsetDestinationsByHost(ctx: AnalysisContext, wanted: ReadonlySet<string>): Map<string, SubsetDestination[]> {
  const m = new Map<string, SubsetDestination[]>();
  for (const vs of ctx.list(KINDS.VirtualService)) {
    const spec = virtualService(vs);
    for (const rule of spec.http) {
      for (const rd of rule.route) {
        const dest = rd.destination;
        if (!dest || dest.subset === '') continue;
        const h = dest.host;
        if (!wanted.has(h)) continue;
        for (const vh of spec.hosts) {
          if (vh !== h) continue;
          let l = m.get(h);
          if (!l) m.set(h, (l = []));
          l.push({ vs });
        }
      }
    }
  }
  return m;
}

/** Calls `fn` with the host of each route destination without a subset, for gateway-bound VirtualServices. */
function forEachIngressRouteWithoutSubset(vs: Resource, fn: (host: string) => void): void {
  const spec = virtualService(vs);
  if (spec.gateways.length === 0) return;
  for (const rule of spec.http) {
    for (const rd of rule.route) {
      if (rd.destination && rd.destination.subset === '') fn(rd.destination.host);
    }
  }
}

/**
 * A VirtualService bound to gateways whose route has no subset, for a host that another
 * route sends to a subset: subsets do not apply to the gateway's requests (IST0140).
 */
function checkIngressSubsets(ctx: AnalysisContext, vs: Resource, byHost: Map<string, SubsetDestination[]>): void {
  const spec = virtualService(vs);
  if (spec.gateways.length === 0 || byHost.size === 0) return;
  spec.http.forEach((rule, i) => {
    rule.route.forEach((rd, j) => {
      const dest = rd.destination;
      if (!dest || dest.subset !== '') return;
      for (const other of byHost.get(dest.host) ?? []) {
        // Istio builds this key from the rule's *name*, so it rarely resolves (then the
        // message points at the resource); we keep the same key to print the same line.
        ctx.report(MESSAGES.IngressRouteRulesNotAffected.at(vs, fullNameString(other.vs.namespace, other.vs.name), fullNameString(vs.namespace, vs.name)), { fieldPath: `spec.${rule.name}[${i}].route[${j}].destination.host`, highlightPath: `spec.http[${i}].route[${j}].destination.host` });
      }
    });
  });
}
