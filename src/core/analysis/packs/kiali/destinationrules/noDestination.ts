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
import { destinationRule } from '../../../../config/api/networking.ts';
import { appLabelOf, type KialiContext, type KialiWorkload, type ParsedHost } from '../context.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { filterByHost, hasMatchingServiceEntries, isWildcard, parseTwoPartHost } from '../hosts.ts';
import type { KialiCheck } from '../types.ts';

function hasMatchingService(ctx: KialiContext, host: ParsedHost, itemNamespace: string): boolean {
  if (isWildcard(host)) return true;
  const [localSvc, localNs] = parseTwoPartHost(host);
  const apps = ctx.once('kiali:appsByNamespace', () => {
    const out = new Map<string, Set<string | undefined>>();
    for (const [ns, ws] of ctx.workloadsPerNamespace) out.set(ns, new Set(ws.map((w) => appLabelOf(w.labels))));
    return out;
  });
  if (localNs === itemNamespace && apps.get(localNs)?.has(localSvc)) return true;
  if (hasMatchingServiceEntries(host.text, ctx.serviceEntryHosts)) return true;
  return ctx.kubeServiceHosts.isValidForNamespace(host.text, itemNamespace);
}

const workloadNamespace = (w: KialiWorkload) => w.namespace;
const workloadLabels = (w: KialiWorkload) => w.labels;

/** The workloads a DR host's Service selects (none without a Service or a selector), once per host. */
function selectedWorkloads(ctx: KialiContext, host: ParsedHost): readonly KialiWorkload[] | undefined {
  const byHost = ctx.once('kiali:selectedWorkloads', () => new Map<ParsedHost, readonly KialiWorkload[] | undefined>());
  if (byHost.has(host)) return byHost.get(host);
  const [localSvc, localNs] = parseTwoPartHost(host);
  const svc = ctx.service(localNs, localSvc);
  const selector = svc && isObj(svc.body.spec) ? stringMap(svc.body.spec.selector) : {};
  const selected =
    Object.keys(selector).length > 0 ? ctx.selectIn('workloads', ctx.workloads, workloadNamespace, workloadLabels, localNs, selector) : undefined;
  byHost.set(host, selected);
  return selected;
}

function hasMatchingWorkload(ctx: KialiContext, host: ParsedHost, subsetLabels: Readonly<Record<string, string>>): boolean {
  if (isWildcard(host)) return true;
  const selected = selectedWorkloads(ctx, host);
  if (selected) return selected.some((w) => selectorMatches(subsetLabels, w.labels));
  // Without a Service selector, Kiali looks at the endpoints of every ServiceEntry.
  for (const se of ctx.serviceEntries) {
    const spec = isObj(se.body.spec) ? se.body.spec : {};
    for (const ep of arr(spec.endpoints)) if (isObj(ep) && selectorMatches(subsetLabels, stringMap(ep.labels))) return true;
  }
  return false;
}

/** The text before a name's first dot (all of it without one). */
function firstLabel(host: string): string {
  const dot = host.indexOf('.');
  return dot < 0 ? host : host.slice(0, dot);
}

interface RouteDestination {
  host: string;
  vsNamespace: string;
}

/**
 * Route destinations by subset and the first label of their host → the host as written and the
 * namespace of its VirtualService. Built once per run. A route can only match a DR host with the
 * same first label: getHost keeps a name's first label as the service's, and filterByHost
 * compares the service with the other name up to a dot.
 */
function routeSubsets(ctx: KialiContext): Map<string, Map<string, RouteDestination[]>> {
  return ctx.once('kiali:routeSubsets', () => {
    const out = new Map<string, Map<string, RouteDestination[]>>();
    for (const vs of ctx.virtualServices)
      for (const { name, subset } of ctx.routeDestinations(vs)) {
        let byLabel = out.get(subset);
        if (byLabel === undefined) out.set(subset, (byLabel = new Map()));
        const label = firstLabel(name);
        const entry = { host: name, vsNamespace: vs.namespace };
        const list = byLabel.get(label);
        if (list) list.push(entry);
        else byLabel.set(label, [entry]);
      }
    return out;
  });
}

/** Some route (http, tcp or tls) of some VirtualService sends to this DR host's subset, by Kiali's comparison. */
function isSubsetReferenced(ctx: KialiContext, dr: Resource, drHostName: string, subset: string): boolean {
  for (const { host, vsNamespace } of routeSubsets(ctx).get(subset)?.get(firstLabel(drHostName)) ?? []) {
    // Kiali names these the other way round: the route's host is parsed in the DR's
    // namespace, the DR's host in the VirtualService's.
    const routeHost = ctx.host(host, dr.namespace);
    const ruleHost = ctx.host(drHostName, vsNamespace);
    if (filterByHost(ruleHost.text, ruleHost.namespace, routeHost.service, routeHost.namespace, ctx.identityDomain)) return true;
  }
  return false;
}

/** A label map with no labels (without listing its keys). */
function noLabels(labels: Readonly<Record<string, string>>): boolean {
  for (const _ in labels) return false;
  return true;
}

export const noDestinationChecker = objectChecker(
  'destinationrules.NoDestinationChecker',
  KINDS.DestinationRule,
  ['KIA0202', 'KIA0203', 'KIA0209'],
  (ctx, dr) => {
    const spec = destinationRule(dr);
    const fqdn = ctx.host(spec.host, dr.namespace);
    if (!hasMatchingService(ctx, fqdn, dr.namespace))
      return { checks: [buildCheck('destinationrules.nodest.matchingregistry', 'spec/host', ctx.policyAllowAny ? 'warning' : undefined)], valid: false };
    const checks: KialiCheck[] = [];
    let valid = true;
    // The subsets without labels, checked last (their severity depends on the others).
    let unlabelled: number[] | undefined;
    let hasLabel = false;
    const subsets = spec.subsets;
    for (let i = 0; i < subsets.length; i++) {
      const subset = subsets[i] as (typeof subsets)[number];
      if (noLabels(subset.labels)) (unlabelled ??= []).push(i);
      else if (hasMatchingWorkload(ctx, fqdn, subset.labels)) hasLabel = true;
      else if (isSubsetReferenced(ctx, dr, spec.host, subset.name)) {
        valid = false;
        checks.push(buildCheck('destinationrules.nodest.subsetlabels', `spec/subsets[${i}]`));
      } else checks.push(buildCheck('destinationrules.nodest.subsetlabels', `spec/subsets[${i}]`, 'unknown'));
    }
    for (const i of unlabelled ?? []) checks.push(buildCheck('destinationrules.nodest.subsetnolabels', `spec/subsets[${i}]`, hasLabel ? 'unknown' : undefined));
    return { checks, valid };
  },
);
