// What `describe` shows for an ambient pod instead of a sidecar's config: the waypoints in use
// for the pod and its Services and why (the `istio.io/use-waypoint` label that decided), the
// L4 AuthorizationPolicies ztunnel enforces for it, the effective mTLS mode, and a request to
// the pod traced hop by hop by the ambient simulation (ambient/trace.ts), as the Data plane
// view traces one.
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import type { ConfigView } from '../config/configView.ts';
import { selectorMatches } from '../config/labels.ts';
import type { WaypointBinding } from '../config/waypoints.ts';
import { USE_WAYPOINT_LABEL } from '../config/wellKnown.ts';
import { ambientModel, type AmbientModel } from '../ambient/dataPlane.ts';
import { effectiveMtls, STATIC_STRICT_POLICY } from '../ambient/authz.ts';
import type { SimPod } from '../ambient/cluster.ts';
import { traceRequest } from '../ambient/trace.ts';
import { servicePortFacts } from './describe/pod.ts';
import { refOf } from './describe/routes.ts';
import type { DescribeRef } from './describe/types.ts';
import type { DescribeAmbient, DescribeL4Policy, DescribeWaypoint } from './describeViews.ts';

const LABEL_PATH = `metadata.labels["${USE_WAYPOINT_LABEL}"]`;

/** A binding as the view shows it, with the label that decided and the waypoint's Gateway. */
function waypointFact(view: ConfigView, b: WaypointBinding, object: Resource): DescribeWaypoint {
  const out: DescribeWaypoint = {
    waypoint: b.waypoint ? `${b.waypoint.namespace}/${b.waypoint.name}` : null,
    via: b.via,
    explanation: b.explanation,
    ...(b.requested ? { requested: b.requested } : {}),
    ...(b.error ? { error: b.error.message } : {}),
    ...(b.waypoint ? { waypointRef: refOf(b.waypoint.gateway) } : {}),
  };
  if (b.via === 'object' || b.via === 'optOut') out.labelRef = refOf(object, LABEL_PATH);
  else if (b.via === 'namespace') {
    const ns = view.find(KINDS.Namespace, '', object.namespace);
    if (ns) out.labelRef = refOf(ns, LABEL_PATH);
  }
  return out;
}

const CLIENT_LIMIT = 100;

/** Likely clients first: ambient app pods that serve no Service, then sidecars, then the rest (as the Data plane view's trace form orders them). */
function traceClients(model: AmbientModel, target: SimPod, servers: ReadonlySet<string>): string[] {
  const rank = (p: SimPod) => (p.role !== 'app' ? 4 : (p.mode === 'ambient' ? 0 : p.mode === 'sidecar' ? 1 : 2) + (servers.has(p.key) ? 0.5 : 0));
  return model.cluster.pods
    .filter((p) => (p.role === 'app' || p.role === 'gateway') && p.state === 'running' && p.key !== target.key)
    .sort((a, b) => rank(a) - rank(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, CLIENT_LIMIT)
    .map((p) => p.key);
}

function policies(view: ConfigView, model: AmbientModel, target: SimPod, listed: readonly string[], strictFrom: DescribeRef | undefined): DescribeL4Policy[] {
  const set = model.ztunnel.policies;
  const root = set.rootNamespace;
  const byKey = new Map(set.conversions.map((c) => [`${c.resource.namespace}/${c.resource.name}`, c]));
  const fromPeerAuthn = new Map([...set.convertedPeerAuthns].map(([paKey, a]) => [`${a.namespace}/${a.name}`, paKey]));
  const out: DescribeL4Policy[] = [];
  for (const [key, a] of set.byKey) {
    const selected = listed.includes(key);
    const applies = selected || a.scope === 'Global' || (a.scope === 'Namespace' && a.namespace === target.namespace);
    if (!applies) continue;
    const conv = byKey.get(key);
    const paKey = fromPeerAuthn.get(key);
    let ref: DescribeRef | undefined;
    let why: string;
    if (a.name === STATIC_STRICT_POLICY) {
      why = 'STRICT mTLS from the PeerAuthentications: plaintext connections are denied';
      ref = strictFrom;
    } else if (paKey) {
      const [ns, name] = paKey.split('/') as [string, string];
      const pa = view.find(KINDS.PeerAuthentication, ns, name);
      if (pa) ref = refOf(pa, 'spec.portLevelMtls');
      why = `converted from PeerAuthentication ${paKey} (its port-level modes)`;
    } else {
      if (conv) ref = refOf(conv.resource, a.scope === 'WorkloadSelector' ? 'spec.selector' : undefined);
      why =
        a.scope === 'Global'
          ? `no selector, in the root namespace ${root}: every workload of the mesh`
          : a.scope === 'Namespace'
            ? `no selector: every workload of namespace ${a.namespace}`
            : 'its selector matches the pod';
    }
    const note = conv?.droppedHttp.length ? conv.condition?.message : undefined;
    out.push({ key, action: a.action, scope: a.scope, why, ...(ref ? { ref } : {}), ...(note ? { note } : {}) });
  }
  return out;
}

/** AuthorizationPolicies of the pod's namespace (or the root one) meant for it that ztunnel does not receive. */
function notEnforced(model: AmbientModel, pod: Resource, services: readonly Resource[]): DescribeAmbient['notEnforced'] {
  const root = model.ztunnel.policies.rootNamespace;
  const out: DescribeAmbient['notEnforced'] = [];
  for (const c of model.ztunnel.policies.conversions) {
    if (c.authorization || !c.excluded) continue;
    const r = c.resource;
    if (r.namespace !== pod.namespace && r.namespace !== root) continue;
    const spec = (r.body.spec ?? {}) as Record<string, unknown>;
    const sel = spec.selector as { matchLabels?: Record<string, string> } | undefined;
    const refs = Array.isArray(spec.targetRefs) ? (spec.targetRefs as Array<Record<string, unknown>>) : [];
    const targetsService = refs.some((t) => t.kind === 'Service' && services.some((s) => s.name === t.name && s.namespace === r.namespace));
    const selects = sel?.matchLabels ? selectorMatches(sel.matchLabels, pod.labels) : refs.length === 0;
    if (!targetsService && !selects) continue;
    const reason = targetsService ? `${c.excluded}; the waypoint of the Service enforces it` : c.excluded;
    out.push({ ref: refOf(r, refs.length > 0 ? 'spec.targetRefs' : undefined), reason });
  }
  return out;
}

/** ztunnel's view of an ambient pod. */
export function ambientFacts(view: ConfigView, pod: Resource, traceFrom: string | undefined): DescribeAmbient {
  const model = ambientModel(view, {});
  const key = `${pod.namespace}/${pod.name}`;
  const sim = model.cluster.podsByKey.get(key);
  const workload = model.ztunnel.workloads.find((w) => w.pod?.key === key);
  const serviceRecords = model.ztunnel.services.filter((s) => s.kind === 'Service' && s.workloads.some((w) => w.pod?.key === key));
  const services = serviceRecords.map((s) => ({
    ref: refOf(s.resource),
    hostname: s.hostname,
    ports: servicePortFacts(s.resource, pod, { apiServerDefaults: true }),
    waypoint: waypointFact(view, s.binding, s.resource),
  }));
  const mtls = effectiveMtls(model.ztunnel.policies, pod.namespace, pod.labels);
  const mtlsFrom = mtls.from?.split('/');
  const mtlsRes = mtlsFrom ? view.find(KINDS.PeerAuthentication, mtlsFrom[0] ?? '', mtlsFrom[1] ?? '') : undefined;
  const mtlsRef = mtlsRes ? refOf(mtlsRes, 'spec.mtls.mode') : undefined;
  const out: DescribeAmbient = {
    workloadWaypoint: sim
      ? waypointFact(view, sim.waypoint, pod)
      : { waypoint: null, via: 'none', explanation: 'The ambient simulation has no record of this pod.' },
    services,
    ...(workload ? { protocol: workload.protocol } : {}),
    policies: sim ? policies(view, model, sim, workload?.json.authorizationPolicies ?? [], mtlsRef) : [],
    notEnforced: notEnforced(
      model,
      pod,
      serviceRecords.map((s) => s.resource),
    ),
    mtls: { mode: mtls.mode, ...(mtlsRef ? { ref: mtlsRef } : {}) },
    clients: [],
    traceFrom: '',
    traceTo: '',
    traceRequest: 'GET /',
  };
  if (!sim) return { ...out, noTrace: 'The ambient simulation has no record of this pod.' };
  const servers = new Set(model.ztunnel.services.flatMap((s) => s.workloads.flatMap((w) => (w.pod ? [w.pod.key] : []))));
  out.clients = traceClients(model, sim, servers);
  const from = traceFrom && model.cluster.podsByKey.has(traceFrom) ? traceFrom : out.clients[0];
  const svc = serviceRecords[0];
  const port = svc?.ports[0];
  const to =
    svc && port ? `${svc.hostname}:${port.servicePort}` : sim.ips[0] && sim.containerPorts[0] ? `${sim.ips[0]}:${sim.containerPorts[0].port}` : undefined;
  if (!from) return { ...out, noTrace: 'No other running pod to send a request from.' };
  out.traceFrom = from;
  if (!to) return { ...out, noTrace: 'The pod has no Service port and no container port to send a request to.' };
  out.traceTo = to;
  out.trace = { ...traceRequest(view, model, { from, to, request: out.traceRequest, endpoint: key }), locations: {} };
  return out;
}
