// checkers.AmbientPolicyChecker (Kiali business/checkers/ambient_policy_checker.go): L7 configs
// only take effect in Ambient through a waypoint, so in a namespace that is Ambient for the data
// plane (see isDataplaneAmbientNamespace; sidecar and out-of-mesh namespaces are skipped):
// - an L7 AuthorizationPolicy, and any RequestAuthentication, needs targetRefs (waypoints ignore
//   selectors: KIA0110 / KIA1115) and what it attaches to must be enrolled with
//   `istio.io/use-waypoint` (KIA0109 / KIA1110);
// - a WasmPlugin, and an L7 Telemetry, gets the same two warnings (KIA1116 / KIA1111,
//   KIA1117 / KIA1112); these two kinds always get a validation there, valid when clean;
// - an L7 VirtualService (HTTP or TLS routes for mesh traffic) and an L7 DestinationRule are
//   judged by the Services their hosts name in Ambient namespaces: outside the Service's
//   namespace (KIA1114 / KIA0212) and not enrolled (KIA1113 / KIA0211), on the host's path;
//   when no host names such a Service, an Ambient, unenrolled namespace of the config itself
//   gives KIA1109 / KIA0210.
// Enrollment of the attachment: a targetRef to a Service of the namespace decides by the
// Service's label (else the namespace's); else the selector's matching workloads (skipping
// waypoints and ignoring those that opted out of Ambient) by their label, else the namespace.
// Every warning makes the object invalid; all paths but the host ones are empty.
import { KINDS, type KindInfo } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import { arr, str, type Obj, type StringMap } from '../../../document/read.ts';
import { selectorMatches } from '../../../config/labels.ts';
import { DATAPLANE_MODE_LABEL } from '../../../config/wellKnown.ts';
import type { KialiContext } from './context.ts';
import { objectRef } from './checker.ts';
import { buildCheck } from './messages.ts';
import type { KialiCheck, KialiChecker, KialiValidation } from './types.ts';
import {
  NONE,
  hasTargetRefs,
  isEnrolledForWaypoint,
  isL7AuthorizationPolicy,
  isL7DestinationRule,
  isL7Telemetry,
  isServiceTarget,
  isWaypointLabels,
  namespaceAmbientStatus,
  needsWaypointWarning,
  selectorMatchLabels,
  specObj,
  targetRefsOf,
  virtualServiceRequiresWaypoint,
  type NamespaceAmbientStatus,
} from './ambient/l7Classification.ts';

/** Validations per object, merged as Kiali's MergeValidations does (one check per path, severity and message). */
class Results {
  private readonly byKey = new Map<string, KialiValidation>();

  /** The object's validation, created valid and empty. */
  entry(r: Resource): KialiValidation {
    let v = this.byKey.get(r.key);
    if (!v) this.byKey.set(r.key, (v = { object: objectRef(r), resource: r, checks: [], valid: true }));
    return v;
  }

  add(r: Resource, check: KialiCheck): void {
    const v = this.entry(r);
    if (!v.checks.some((c) => c.path === check.path && c.severity === check.severity && c.message === check.message)) v.checks.push(check);
    v.valid = false;
  }

  list(): KialiValidation[] {
    return [...this.byKey.values()];
  }
}

/** The Ambient status of each namespace Kiali knows. */
function statuses(ctx: KialiContext): Map<string, NamespaceAmbientStatus> {
  return new Map(ctx.kialiNamespaces.map((ns) => [ns.name, namespaceAmbientStatus(ns)]));
}

function findService(ctx: KialiContext, namespace: string, name: string): Resource | undefined {
  return ctx.services.find((s) => s.namespace === namespace && s.name === name);
}

/** serviceTargetRefsNeedWarning: undefined when no targetRef names an existing Service of the namespace. */
function serviceTargetsNeedWarning(ctx: KialiContext, spec: Obj, namespace: string, nsLabels: StringMap | undefined): boolean | undefined {
  let resolved = false;
  for (const ref of targetRefsOf(spec)) {
    if (!isServiceTarget(ref)) continue;
    const svc = findService(ctx, namespace, ref.name);
    if (!svc) continue;
    resolved = true;
    if (!isEnrolledForWaypoint(svc.labels, nsLabels)) return true;
  }
  return resolved ? false : undefined;
}

/**
 * selectorNeedsWarning: no selector → the namespace's enrollment; else the first matching
 * workload (not a waypoint, not opted out of Ambient) that is not enrolled warns; none such
 * but an opted-out one → no warning; nothing matched → the namespace's enrollment.
 */
function selectorNeedsWarning(ctx: KialiContext, spec: Obj, namespace: string, nsLabels: StringMap | undefined, status: NamespaceAmbientStatus): boolean {
  const match = selectorMatchLabels(spec);
  if (Object.keys(match).length === 0) return needsWaypointWarning(status);
  let matchedAmbient = false;
  let matchedOptedOut = false;
  for (const w of ctx.workloadsIn(namespace)) {
    if (isWaypointLabels(w.labels) || !selectorMatches(match, w.labels)) continue;
    if (w.labels[DATAPLANE_MODE_LABEL] === NONE) {
      matchedOptedOut = true;
      continue;
    }
    matchedAmbient = true;
    if (!isEnrolledForWaypoint(w.labels, nsLabels)) return true;
  }
  if (matchedAmbient || matchedOptedOut) return false;
  return needsWaypointWarning(status);
}

/** enrollmentNeedsWarning: Service targetRefs decide when they resolve, else the selector. */
function enrollmentNeedsWarning(ctx: KialiContext, r: Resource, status: NamespaceAmbientStatus): boolean {
  const spec = specObj(r.body);
  const nsLabels = ctx.namespaceInfo(r.namespace)?.labels;
  return serviceTargetsNeedWarning(ctx, spec, r.namespace, nsLabels) ?? selectorNeedsWarning(ctx, spec, r.namespace, nsLabels, status);
}

interface Destination {
  hostIndex: number;
  namespace: string;
  enrolled: boolean;
}

/** resolveAmbientDestinations: the hosts that name an existing Service of an Ambient namespace (once per Service). */
function ambientDestinations(
  ctx: KialiContext,
  hosts: readonly string[],
  namespace: string,
  status: ReadonlyMap<string, NamespaceAmbientStatus>,
): { destinations: Destination[]; resolved: boolean } {
  const destinations: Destination[] = [];
  const seen = new Set<string>();
  let resolved = false;
  hosts.forEach((host, hostIndex) => {
    if (host === '' || host === '*') return;
    const parsed = ctx.host(host, namespace);
    if (!parsed.completeInput || !status.get(parsed.namespace)?.isAmbient) return;
    const svc = findService(ctx, parsed.namespace, parsed.service);
    if (!svc) return;
    resolved = true;
    const key = `${parsed.namespace}/${svc.name}`;
    if (seen.has(key)) return;
    seen.add(key);
    destinations.push({ hostIndex, namespace: parsed.namespace, enrolled: isEnrolledForWaypoint(svc.labels, ctx.namespaceInfo(parsed.namespace)?.labels) });
  });
  return { destinations, resolved };
}

interface HostCheckIds {
  notInServiceNamespace: string;
  notCaptured: string;
  noWaypoint: string;
}

/** checkHostBasedConfig for a VirtualService (`spec/hosts[i]`) or a DestinationRule (`spec/host`). */
function checkHosts(
  ctx: KialiContext,
  results: Results,
  r: Resource,
  hosts: readonly string[],
  status: ReadonlyMap<string, NamespaceAmbientStatus>,
  ids: HostCheckIds,
): void {
  const path = (i: number) => (r.kindId === KINDS.DestinationRule.id ? 'spec/host' : `spec/hosts[${i}]`);
  const { destinations, resolved } = ambientDestinations(ctx, hosts, r.namespace, status);
  for (const d of destinations) {
    if (d.namespace !== r.namespace) results.add(r, buildCheck(ids.notInServiceNamespace, path(d.hostIndex)));
    if (!d.enrolled) results.add(r, buildCheck(ids.notCaptured, path(d.hostIndex)));
  }
  const own = status.get(r.namespace);
  if (!resolved && own && needsWaypointWarning(own)) results.add(r, buildCheck(ids.noWaypoint, path(0)));
}

const KINDS_CHECKED: readonly KindInfo[] = [
  KINDS.AuthorizationPolicy,
  KINDS.RequestAuthentication,
  KINDS.VirtualService,
  KINDS.DestinationRule,
  KINDS.WasmPlugin,
  KINDS.Telemetry,
];

export const ambientPolicyChecker: KialiChecker = {
  name: 'checkers.AmbientPolicyChecker',
  kinds: KINDS_CHECKED,
  codes: [
    'KIA0109',
    'KIA0110',
    'KIA0210',
    'KIA0211',
    'KIA0212',
    'KIA1109',
    'KIA1110',
    'KIA1111',
    'KIA1112',
    'KIA1113',
    'KIA1114',
    'KIA1115',
    'KIA1116',
    'KIA1117',
  ],
  run(ctx: KialiContext) {
    const results = new Results();
    const status = statuses(ctx);
    // Every check is about an Ambient namespace (of the object, or of a Service its host names).
    if (![...status.values()].some((s) => s.isAmbient)) return [];
    const ambient = (r: Resource) => status.get(r.namespace)?.isAmbient === true;

    for (const ap of ctx.list(KINDS.AuthorizationPolicy)) {
      const spec = specObj(ap.body);
      if (!ambient(ap) || !isL7AuthorizationPolicy(spec)) continue;
      if (!hasTargetRefs(spec)) results.add(ap, buildCheck('authorizationpolicy.ambient.l7notargetrefs', ''));
      if (enrollmentNeedsWarning(ctx, ap, status.get(ap.namespace) as NamespaceAmbientStatus))
        results.add(ap, buildCheck('authorizationpolicy.ambient.l7nowaypoint', ''));
    }

    for (const ra of ctx.list(KINDS.RequestAuthentication)) {
      if (!ambient(ra)) continue;
      if (!hasTargetRefs(specObj(ra.body))) results.add(ra, buildCheck('requestauthentication.ambient.l7notargetrefs', ''));
      if (enrollmentNeedsWarning(ctx, ra, status.get(ra.namespace) as NamespaceAmbientStatus))
        results.add(ra, buildCheck('requestauthentication.ambient.l7nowaypoint', ''));
    }

    for (const vs of ctx.virtualServices) {
      const spec = specObj(vs.body);
      if (!virtualServiceRequiresWaypoint(spec)) continue;
      checkHosts(ctx, results, vs, arr(spec.hosts).map(str), status, {
        notInServiceNamespace: 'virtualservice.ambient.notinservicenamespace',
        notCaptured: 'virtualservice.ambient.servicenotcaptured',
        noWaypoint: 'virtualservice.ambient.l7nowaypoint',
      });
    }

    for (const dr of ctx.destinationRules) {
      const spec = specObj(dr.body);
      if (!isL7DestinationRule(spec)) continue;
      checkHosts(ctx, results, dr, [str(spec.host)], status, {
        notInServiceNamespace: 'destinationrule.ambient.notinservicenamespace',
        notCaptured: 'destinationrule.ambient.servicenotcaptured',
        noWaypoint: 'destinationrule.ambient.l7nowaypoint',
      });
    }

    for (const wp of ctx.list(KINDS.WasmPlugin)) {
      if (!ambient(wp)) continue;
      results.entry(wp);
      if (!hasTargetRefs(specObj(wp.body))) results.add(wp, buildCheck('wasmplugin.ambient.l7notargetrefs', ''));
      if (enrollmentNeedsWarning(ctx, wp, status.get(wp.namespace) as NamespaceAmbientStatus))
        results.add(wp, buildCheck('wasmplugin.ambient.l7nowaypoint', ''));
    }

    for (const tel of ctx.list(KINDS.Telemetry)) {
      if (!ambient(tel)) continue;
      results.entry(tel);
      const spec = specObj(tel.body);
      if (!isL7Telemetry(spec)) continue;
      if (!hasTargetRefs(spec)) results.add(tel, buildCheck('telemetry.ambient.l7notargetrefs', ''));
      if (enrollmentNeedsWarning(ctx, tel, status.get(tel.namespace) as NamespaceAmbientStatus))
        results.add(tel, buildCheck('telemetry.ambient.l7nowaypoint', ''));
    }

    return results.list();
  },
};
