// virtualservice.DestinationHostAnalyzer: every route and mirror destination of a
// VirtualService must be a host some Service or ServiceEntry provides (as seen from the
// VirtualService's namespace), on a port it exposes; and subsets on ingress routes.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { followList } from '../../followList.ts';
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
      // Only a gateway-bound route without a subset, to a host another route sends to a
      // subset, can be affected: the table below finds those VirtualServices (list order).
      const { slots, byHost } = ingressSubsetCandidates(ctx);
      const list = ctx.list(KINDS.VirtualService);
      for (const slot of slots) checkIngressSubsets(ctx, list[slot] as Resource, byHost);
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
      ctx.report(MESSAGES.ReferencedResourceNotFound.at(vs, 'host', d.destination?.host ?? ''), {
        fieldPath: destinationHostPath(d.rule, d.ruleIndex, d.destIndex),
      });
      continue;
    }
    checkPorts(ctx, vs, d, target);
  }
  for (const d of mirrorDestinations(vs)) {
    const target = resolve(d.destination);
    if (!target) {
      ctx.report(MESSAGES.ReferencedResourceNotFound.at(vs, 'mirror host', d.destination?.host ?? ''), {
        fieldPath: mirrorHostPath(d.ruleIndex),
        highlightPath: `${destinationPath(d)}.host`,
      });
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
      ctx.report(MESSAGES.VirtualServiceDestinationPortSelectorRequired.at(vs, host, [...target.ports]), {
        fieldPath: pathFor(d),
        highlightPath: `${destinationPath(d)}.host`,
      });
    }
    return;
  }
  const number = port.number;
  if (!target.ports.includes(number)) {
    ctx.report(MESSAGES.ReferencedResourceNotFound.at(vs, 'host:port', `${host}:${number}`), {
      fieldPath: pathFor(d),
      highlightPath: `${destinationPath(d)}.port.number`,
    });
  }
}

interface SubsetDestination {
  vs: Resource;
}

/** What IST0140 needs of one VirtualService (kept per resource object, which never changes). */
interface IngressFacts {
  /** Hosts of its routes without a subset, when it is bound to gateways (one per route). */
  ingress: string[];
  /** Hosts it routes to with a subset that are also its own hosts (one per route and matching host). */
  subset: string[];
}

const factsByResource = new WeakMap<Resource, IngressFacts>();

function ingressFacts(vs: Resource): IngressFacts {
  let facts = factsByResource.get(vs);
  if (facts) return facts;
  facts = { ingress: [], subset: [] };
  const spec = virtualService(vs);
  for (const rule of spec.http) {
    for (const rd of rule.route) {
      const dest = rd.destination;
      if (!dest) continue;
      if (dest.subset === '') {
        if (spec.gateways.length > 0) facts.ingress.push(dest.host);
      } else {
        for (const vh of spec.hosts) if (vh === dest.host) facts.subset.push(dest.host);
      }
    }
  }
  factsByResource.set(vs, facts);
  return facts;
}

/**
 * Per workspace (by its lookups object): which list slots route to each host, updated for
 * the VirtualServices an edit replaced, so a keystroke does not walk every VirtualService.
 */
interface IngressTable {
  ingress: Map<string, Map<number, number>>;
  subset: Map<string, Map<number, number>>;
  /** Hosts with both an ingress route without a subset and a route with one. */
  affected: Set<string>;
}

const ingressTables = new WeakMap<object, { list: Resource[]; state: IngressTable }>();

function count(table: IngressTable, which: 'ingress' | 'subset', host: string, slot: number, by: number): void {
  const bySlot = table[which].get(host) ?? new Map<number, number>();
  const n = (bySlot.get(slot) ?? 0) + by;
  if (n > 0) bySlot.set(slot, n);
  else bySlot.delete(slot);
  if (bySlot.size > 0) table[which].set(host, bySlot);
  else table[which].delete(host);
  if (table.ingress.has(host) && table.subset.has(host)) table.affected.add(host);
  else table.affected.delete(host);
}

function claim(table: IngressTable, vs: Resource, slot: number, by: 1 | -1): void {
  const facts = ingressFacts(vs);
  for (const h of facts.ingress) count(table, 'ingress', h, slot, by);
  for (const h of facts.subset) count(table, 'subset', h, slot, by);
}

function ingressSubsetCandidates(ctx: AnalysisContext): { slots: number[]; byHost: Map<string, SubsetDestination[]> } {
  const list = ctx.list(KINDS.VirtualService);
  const table = followList<IngressTable>(ctx, KINDS.VirtualService, ingressTables, {
    create: () => ({ ingress: new Map(), subset: new Map(), affected: new Set() }),
    add: (t, vs, slot) => claim(t, vs, slot, 1),
    remove: (t, vs, slot) => claim(t, vs, slot, -1),
  });
  const byHost = new Map<string, SubsetDestination[]>();
  const slots = new Set<number>();
  for (const host of table.affected) {
    const claims: SubsetDestination[] = [];
    for (const [slot, n] of [...(table.subset.get(host) ?? [])].sort((a, b) => a[0] - b[0]))
      for (let i = 0; i < n; i++) claims.push({ vs: list[slot] as Resource });
    byHost.set(host, claims);
    for (const slot of table.ingress.get(host)?.keys() ?? []) slots.add(slot);
  }
  return { slots: [...slots].sort((a, b) => a - b), byHost };
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
      if (dest?.subset !== '') return;
      for (const other of byHost.get(dest.host) ?? []) {
        // Istio builds this key from the rule's *name*, so it rarely resolves (then the
        // message points at the resource); we keep the same key to print the same line.
        ctx.report(MESSAGES.IngressRouteRulesNotAffected.at(vs, fullNameString(other.vs.namespace, other.vs.name), fullNameString(vs.namespace, vs.name)), {
          fieldPath: `spec.${rule.name}[${i}].route[${j}].destination.host`,
          highlightPath: `spec.http[${i}].route[${j}].destination.host`,
        });
      }
    });
  });
}
