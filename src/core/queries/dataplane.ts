// The data-plane views: the ambient overview (nodes, pods with their mode and why, waypoints,
// Services with their binding), one ztunnel's config tables, and request traces.
import { KINDS } from '../document/kinds.ts';
import type { Resource } from '../document/types.ts';
import { ambientModel, type AmbientModel } from '../ambient/dataPlane.ts';
import { describeAssumptions, type AmbientSettings } from '../ambient/settings.ts';
import { certificatesTable, nodeView, policiesTable, servicesTable, tabwrite, workloadsTable } from '../ambient/ztunnel.ts';
import { redirectionRules } from '../ambient/cni.ts';
import { traceRequest } from '../ambient/trace.ts';
import { waypointDestination } from '../config/waypoints.ts';
import { DATAPLANE_MODE_LABEL, INJECTION_LABEL, REVISION_LABEL, USE_WAYPOINT_LABEL } from '../config/wellKnown.ts';
import { argBag, optString, QueryError, sourceLocation, type QueryState } from './common.ts';
import type { DataPlaneArgs, DataPlaneOverview, DataPlanePod, DataPlaneTraceArgs, DataPlaneTraceResult, ZtunnelConfigResult } from './dataplaneViews.ts';
import type { SourceLocation } from './location.ts';
import { listAt } from '../document/maps.ts';

const NAMESPACE_LABELS = [
  DATAPLANE_MODE_LABEL,
  USE_WAYPOINT_LABEL,
  'istio.io/use-waypoint-namespace',
  INJECTION_LABEL,
  REVISION_LABEL,
  'istio.io/ingress-use-waypoint',
];

/** Settings arrive from another thread: keep only well-formed parts. */
export function readSettings(raw: unknown): AmbientSettings {
  const bag = argBag(raw);
  const s = argBag(bag.settings);
  const strList = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
  const labelMap = (v: unknown): Record<string, Record<string, string | null>> | undefined => {
    const b = argBag(v);
    const out: Record<string, Record<string, string | null>> = {};
    for (const [k, m] of Object.entries(b)) {
      const labels: Record<string, string | null> = {};
      for (const [lk, lv] of Object.entries(argBag(m))) if (typeof lv === 'string' || lv === null) labels[lk] = lv;
      out[k] = labels;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  };
  const cluster = argBag(s.cluster);
  const cni = argBag(s.cni);
  const overrides = argBag(s.overrides);
  const out: AmbientSettings = {};
  const nodes = strList(cluster.nodes);
  if (nodes) out.cluster = { nodes };
  const c: NonNullable<AmbientSettings['cni']> = {};
  const ex = strList(cni.excludeNamespaces);
  if (ex) c.excludeNamespaces = ex;
  if (typeof cni.ambientEnabled === 'boolean') c.ambientEnabled = cni.ambientEnabled;
  if (typeof cni.dnsCapture === 'boolean') c.dnsCapture = cni.dnsCapture;
  if (Object.keys(c).length > 0) out.cni = c;
  const nr = strList(s.notReadyWaypoints);
  if (nr) out.notReadyWaypoints = nr;
  if (typeof s.sidecarHbone === 'boolean') out.sidecarHbone = s.sidecarHbone;
  if (typeof s.infrastructure === 'boolean') out.infrastructure = s.infrastructure;
  const nsl = labelMap(overrides.namespaceLabels);
  const pl = labelMap(overrides.podLabels);
  if (nsl || pl) out.overrides = { ...(nsl ? { namespaceLabels: nsl } : {}), ...(pl ? { podLabels: pl } : {}) };
  return out;
}

function modelFor(state: QueryState, raw: unknown): AmbientModel {
  return ambientModel(state.view, readSettings(raw));
}

function locate(state: QueryState, r: Resource): SourceLocation | undefined {
  return sourceLocation(r, state);
}

export function answerDataPlane(raw: unknown, state: QueryState): DataPlaneOverview {
  const model = modelFor(state, raw);
  const { cluster, ztunnel } = model;
  const workloadByPod = new Map(ztunnel.workloads.filter((w) => w.pod).map((w) => [w.pod!.key, w]));
  const pods: DataPlanePod[] = cluster.pods.map((p) => {
    const w = workloadByPod.get(p.key);
    const source = p.origin === 'file' || p.origin === 'derived' ? locate(state, p.resource) : undefined;
    const out: DataPlanePod = {
      key: p.key,
      namespace: p.namespace,
      name: p.name,
      node: p.node,
      nodeAssumed: p.nodeAssumed,
      ips: p.ips,
      ipAssumed: p.ipAssumed,
      mode: p.mode,
      code: p.stateCode ?? p.enrollment.code,
      reason:
        p.stateCode === 'Terminated'
          ? `The pod has terminated (phase ${p.phase}): istio-cni removes it from the mesh and istiod publishes no Workload.`
          : p.stateCode === 'NoPodIP'
            ? `${p.enrollment.reason} But the pod has no IP yet: nothing to redirect (pending; the CNI event is retried).`
            : p.enrollment.reason,
      injection: {
        inject: p.enrollment.injection.inject,
        code: p.enrollment.injection.code,
        ...(p.enrollment.injection.webhook ? { webhook: p.enrollment.injection.webhook } : {}),
        reason: p.enrollment.injection.reason,
      },
      role: p.role,
      ...(p.waypointOf ? { waypointOf: p.waypointOf } : {}),
      waypoint: p.waypoint.waypoint ? `${p.waypoint.waypoint.namespace}/${p.waypoint.waypoint.name}` : null,
      waypointNote: p.waypoint.explanation,
      ...(p.waypoint.error ? { waypointError: p.waypoint.error } : {}),
      ...(w ? { protocol: w.protocol } : {}),
      identity: p.identity,
      origin: p.origin,
      resourceKey: p.resource.key,
      ...(source ? { source } : {}),
      ...(p.resource.derivedFrom ? { derivedFrom: `${p.resource.derivedFrom.kind} ${p.resource.derivedFrom.namespace}/${p.resource.derivedFrom.name}` } : {}),
      overridden: p.overridden,
      ...(p.redirectionNote ? { redirectionNote: p.redirectionNote } : {}),
      ...(p.labels[DATAPLANE_MODE_LABEL] !== undefined ? { dataplaneLabel: p.labels[DATAPLANE_MODE_LABEL] } : {}),
    };
    return out;
  });
  const counts = { pods: pods.length, ambient: 0, sidecar: 0, none: 0, pending: 0 };
  for (const p of pods) counts[p.mode]++;
  const nsOverrides = cluster.settings.overrides.namespaceLabels ?? {};
  const namespaces = cluster.namespaces.map((name) => {
    const labels = cluster.namespaceLabels(name);
    const picked: Record<string, string> = {};
    for (const k of NAMESPACE_LABELS) if (labels && labels[k] !== undefined) picked[k] = labels[k] as string;
    const exists = state.view.find(KINDS.Namespace, '', name) !== undefined || (state.view.setAside?.(KINDS.Namespace) ?? []).some((n) => n.name === name);
    return { name, labels: picked, exists, overridden: nsOverrides[name] !== undefined, excluded: cluster.settings.excludeNamespaces.includes(name) };
  });
  const waypoints = [...cluster.waypoints.values()].map((w) => {
    const source = locate(state, w.gateway);
    return {
      key: `${w.namespace}/${w.name}`,
      className: w.className,
      waypointClass: w.waypointClass,
      trafficType: w.trafficType,
      trafficTypeFrom: w.trafficTypeFrom,
      address: waypointDestination(w.address),
      addressAssumed: w.addressAssumed,
      allowedRoutes: w.allowedRoutes.from,
      serviceAccounts: w.serviceAccounts,
      pods: cluster.pods.filter((p) => p.waypointOf === `${w.namespace}/${w.name}`).map((p) => p.key),
      resourceKey: w.gateway.key,
      ...(source ? { source } : {}),
    };
  });
  const services = ztunnel.services.map((s) => {
    const source = s.sim?.origin === 'file' || s.kind === 'ServiceEntry' ? locate(state, s.resource) : undefined;
    return {
      key: s.key,
      kind: s.kind,
      namespace: s.namespace,
      name: s.name,
      hostname: s.hostname,
      vips: s.vips,
      addressAssumed: s.addressAssumed,
      waypoint: s.binding.waypoint ? `${s.binding.waypoint.namespace}/${s.binding.waypoint.name}` : null,
      bindingNote: s.binding.explanation,
      condition: s.condition,
      ingressUseWaypoint: s.ingress.value,
      endpoints: s.workloads.filter((w) => w.pod).map((w) => w.pod!.key),
      otherEndpoints: s.workloads.filter((w) => !w.pod).length,
      ports: s.ports.map((p) => ({ name: p.name, port: p.servicePort, targetPort: p.targetPort, protocol: p.protocol })),
      resourceKey: s.resource.key,
      ...(source ? { source } : {}),
    };
  });
  const convertedKeys = new Set(ztunnel.policies.conversions.map((c) => `${c.resource.namespace}/${c.resource.name}`));
  const podsByNode = new Map<string, string[]>();
  for (const p of cluster.pods) listAt(podsByNode, p.node).push(p.key);
  const policies = [
    ...ztunnel.policies.conversions.map((c) => ({
      key: `${c.resource.namespace}/${c.resource.name}`,
      resourceKey: c.resource.key,
      action: c.authorization?.action ?? (c.resource.body.spec as Record<string, unknown> | undefined)?.action?.toString() ?? 'ALLOW',
      scope: c.authorization?.scope ?? '—',
      ...(c.condition ? { condition: { status: c.condition.status, reason: c.condition.reason, message: c.condition.message } } : {}),
      sent: c.authorization !== undefined,
      ...(c.excluded ? { excluded: c.excluded } : {}),
    })),
    ...[...ztunnel.policies.byKey.entries()].filter(([k]) => !convertedKeys.has(k)).map(([k, p]) => ({ key: k, action: p.action, scope: p.scope, sent: true })),
  ];
  return {
    nodes: cluster.nodes.map((n) => ({ name: n.name, source: n.source, pods: podsByNode.get(n.name) ?? [] })),
    namespaces,
    pods,
    waypoints,
    services,
    counts,
    assumptions: [...describeAssumptions(cluster.settings), ...cluster.notes],
    policies,
  };
}

export function answerZtunnelConfig(raw: unknown, state: QueryState): ZtunnelConfigResult {
  const bag = argBag(raw);
  const model = modelFor(state, raw);
  const nodes = model.cluster.nodes.map((n) => n.name);
  const node = optString(bag, 'node') ?? nodes[0] ?? '';
  const namespace = optString(bag, 'namespace');
  const workloads = workloadsTable(model.ztunnel, { namespace, node: optString(bag, 'workloadNode') });
  const services = servicesTable(model.ztunnel, { namespace });
  const policies = policiesTable(model.ztunnel, { namespace });
  const nv = nodeView(model.cluster, model.ztunnel, node);
  const certificates = certificatesTable(nv);
  const strip = (t: { header: string[]; rows: string[][] }) => ({ header: t.header, rows: t.rows });
  return {
    node,
    nodes,
    workloads: strip(workloads),
    services: strip(services),
    policies: strip(policies),
    certificates,
    text: { workloads: tabwrite(workloads), services: tabwrite(services), policies: tabwrite(policies), certificates: tabwrite(certificates, 5) },
    capturedPods: nv.capturedPods.map((key) => ({
      pod: key,
      listeners: nv.inPodListeners[key] ?? [],
      rules: redirectionRules(model.cluster.podsByKey.get(key)!),
    })),
  };
}

export function answerDataPlaneTrace(raw: unknown, state: QueryState): DataPlaneTraceResult {
  const bag = argBag(raw);
  const from = optString(bag, 'from');
  const to = optString(bag, 'to');
  if (!from || !to) throw new QueryError('A trace needs `from` (namespace/pod) and `to` (host:port).');
  const args = bag as unknown as DataPlaneTraceArgs;
  const model = modelFor(state, raw);
  const result = traceRequest(state.view, model, { from, to, ...(typeof args.request === 'string' ? { request: args.request } : {}) });
  const locations: Record<string, SourceLocation> = {};
  for (const h of result.hops) {
    for (const p of h.policies ?? []) {
      if (!p.resourceKey || locations[p.resourceKey]) continue;
      const [group, kind, ns, name] = p.resourceKey.split('/');
      const info = kind === 'AuthorizationPolicy' ? KINDS.AuthorizationPolicy : kind === 'PeerAuthentication' ? KINDS.PeerAuthentication : undefined;
      const r = info && group && ns !== undefined && name ? state.view.find(info, ns, name) : undefined;
      const loc = r ? sourceLocation(r, state) : undefined;
      if (loc) locations[p.resourceKey] = loc;
    }
  }
  return { ...result, locations };
}

export type { DataPlaneArgs };
