// destinationrules.NoDestinationChecker (Kiali business/checkers/destinationrules/no_dest_checker.go):
// the DestinationRule's host must be in the registry (a workload of that app in the DR's own
// namespace, a ServiceEntry, or a Service exported to the DR's namespace): KIA0202, a warning
// under ALLOW_ANY. When it is, each subset with labels must match a workload behind the host
// (KIA0203; `unknown` unless a VirtualService route uses the subset), and a subset without labels
// gets KIA0209 (`unknown` when another subset has matching labels).
import { KINDS } from '../../../../document/kinds.ts';
import type { Resource } from '../../../../document/types.ts';
import { stringMap, isObj, arr } from '../../../../document/read.ts';
import { selectorMatches } from '../../../../config/labels.ts';
import { destinationRule, virtualService } from '../../../../config/api/networking.ts';
import { appLabelOf, type KialiContext } from '../context.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { filterByHost, getHost, hasMatchingServiceEntries, hostString, isWildcard, parseTwoPartHost, type KialiHost } from '../hosts.ts';
import type { KialiCheck } from '../types.ts';

function hasMatchingService(ctx: KialiContext, host: KialiHost, itemNamespace: string): boolean {
  if (isWildcard(host)) return true;
  const [localSvc, localNs] = parseTwoPartHost(host);
  const apps = ctx.once('kiali:appsByNamespace', () => {
    const out = new Map<string, Set<string | undefined>>();
    for (const [ns, ws] of ctx.workloadsPerNamespace) out.set(ns, new Set(ws.map((w) => appLabelOf(w.labels))));
    return out;
  });
  if (localNs === itemNamespace && apps.get(localNs)?.has(localSvc)) return true;
  if (hasMatchingServiceEntries(hostString(host), ctx.serviceEntryHosts)) return true;
  return ctx.kubeServiceHosts.isValidForNamespace(hostString(host), itemNamespace);
}

function hasMatchingWorkload(ctx: KialiContext, host: KialiHost, subsetLabels: Readonly<Record<string, string>>): boolean {
  if (isWildcard(host)) return true;
  const [localSvc, localNs] = parseTwoPartHost(host);
  const svc = ctx.service(localNs, localSvc);
  const selector = svc && isObj(svc.body.spec) ? stringMap(svc.body.spec.selector) : {};
  if (Object.keys(selector).length > 0) {
    return ctx
      .selectIn(
        'workloads',
        ctx.workloads,
        (w) => w.namespace,
        (w) => w.labels,
        localNs,
        selector,
      )
      .some((w) => selectorMatches(subsetLabels, w.labels));
  }
  // Without a Service selector, Kiali looks at the endpoints of every ServiceEntry.
  for (const se of ctx.serviceEntries) {
    const spec = isObj(se.body.spec) ? se.body.spec : {};
    for (const ep of arr(spec.endpoints)) if (isObj(ep) && selectorMatches(subsetLabels, stringMap(ep.labels))) return true;
  }
  return false;
}

/** The text before a name's first dot (all of it without one). */
const firstLabel = (host: string) => host.split('.', 1)[0] as string;

/**
 * Route destinations by subset and the first label of their host → the host as written and the
 * namespace of its VirtualService. Built once per run. A route can only match a DR host with the
 * same first label: getHost keeps a name's first label as the service's, and filterByHost
 * compares the service with the other name up to a dot.
 */
function routeSubsets(ctx: KialiContext): Map<string, Array<{ host: string; vsNamespace: string }>> {
  return ctx.once('kiali:routeSubsets', () => {
    const out = new Map<string, Array<{ host: string; vsNamespace: string }>>();
    for (const vs of ctx.virtualServices) {
      const spec = virtualService(vs);
      for (const routes of [spec.http, spec.tcp, spec.tls])
        for (const rule of routes)
          for (const { destination } of rule.route) {
            if (!destination) continue;
            const key = `${destination.subset}\u0000${firstLabel(destination.host)}`;
            const entry = { host: destination.host, vsNamespace: vs.namespace };
            const list = out.get(key);
            if (list) list.push(entry);
            else out.set(key, [entry]);
          }
    }
    return out;
  });
}

/** Some route (http, tcp or tls) of some VirtualService sends to this DR host's subset, by Kiali's comparison. */
function isSubsetReferenced(ctx: KialiContext, dr: Resource, drHostName: string, subset: string): boolean {
  for (const { host, vsNamespace } of routeSubsets(ctx).get(`${subset}\u0000${firstLabel(drHostName)}`) ?? []) {
    // Kiali names these the other way round: the route's host is parsed in the DR's
    // namespace, the DR's host in the VirtualService's.
    const routeHost = getHost(host, dr.namespace, ctx.namespaces, ctx.identityDomain);
    const ruleHost = getHost(drHostName, vsNamespace, ctx.namespaces, ctx.identityDomain);
    if (filterByHost(hostString(ruleHost), ruleHost.namespace, routeHost.service, routeHost.namespace, ctx.identityDomain)) return true;
  }
  return false;
}

export const noDestinationChecker = objectChecker(
  'destinationrules.NoDestinationChecker',
  KINDS.DestinationRule,
  ['KIA0202', 'KIA0203', 'KIA0209'],
  (ctx, dr) => {
    const spec = destinationRule(dr);
    const checks: KialiCheck[] = [];
    let valid = true;
    const fqdn = getHost(spec.host, dr.namespace, ctx.namespaces, ctx.identityDomain);
    if (!hasMatchingService(ctx, fqdn, dr.namespace)) {
      checks.push(buildCheck('destinationrules.nodest.matchingregistry', 'spec/host', ctx.policyAllowAny ? 'warning' : undefined));
      return { checks, valid: false };
    }
    const noLabels: KialiCheck[] = [];
    let hasLabel = false;
    spec.subsets.forEach((subset, i) => {
      const path = `spec/subsets[${i}]`;
      if (Object.keys(subset.labels).length === 0) {
        noLabels.push(buildCheck('destinationrules.nodest.subsetnolabels', path));
        return;
      }
      if (hasMatchingWorkload(ctx, fqdn, subset.labels)) {
        hasLabel = true;
        return;
      }
      if (isSubsetReferenced(ctx, dr, spec.host, subset.name)) {
        valid = false;
        checks.push(buildCheck('destinationrules.nodest.subsetlabels', path));
      } else checks.push(buildCheck('destinationrules.nodest.subsetlabels', path, 'unknown'));
    });
    for (const c of noLabels) checks.push(hasLabel ? { ...c, severity: 'unknown' } : c);
    return { checks, valid };
  },
);
