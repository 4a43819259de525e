// A request traced hop by hop through the ambient data plane: name resolution (ztunnel's DNS
// proxy or cluster DNS), the client side (the source pod's ztunnel, its sidecar, a gateway,
// or nothing), the waypoint, and the destination side (its ztunnel, its sidecar, or nothing),
// with the identity presented at each hop, the peer identity seen, and every policy
// evaluated with its result. Follows ztunnel's outbound.rs/inbound.rs and istiod's endpoint
// builder for sidecars and gateways. Envoy's L7 routing (VirtualService, HTTPRoute,
// DestinationRule) is not simulated here: waypoints and sidecars are taken to send to the
// addressed Service's endpoints.
import type { ConfigView } from '../config/configView.ts';
import { KINDS } from '../document/kinds.ts';
import type { SimPod } from './cluster.ts';
import type { AmbientModel } from './dataPlane.ts';
import type { RbacScope } from './authz.ts';
import { parseRequest, parseTarget, type TraceInput, type TraceResult } from './trace/request.ts';
import { Tracer, sourceClass, serviceByVip } from './trace/tracer.ts';
import { resolveName } from './trace/nameResolution.ts';
import { ambientClient } from './trace/ambientClient.ts';
import { proxyClient } from './trace/proxyClient.ts';
import { uncapturedClient } from './trace/uncapturedClient.ts';

export { parseRequest, parseTarget } from './trace/request.ts';
export type { TraceInput, HopComponent, PolicyCheck, TraceHop, Enforcement, TraceResult } from './trace/request.ts';

/**
 * The source pod: `namespace/pod`, or `namespace/controller` (a Deployment, StatefulSet,
 * DaemonSet… whose pods were derived), which picks the controller's first pod by name.
 */
export function resolveSourcePod(model: AmbientModel, from: string): SimPod | undefined {
  const exact = model.cluster.podsByKey.get(from);
  if (exact) return exact;
  const slash = from.indexOf('/');
  if (slash <= 0) return undefined;
  const ns = from.slice(0, slash);
  const name = from.slice(slash + 1);
  const owned = model.cluster.pods.filter((p) => p.namespace === ns && p.resource.derivedFrom?.name === name && p.resource.derivedFrom.namespace === ns);
  owned.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return owned[0];
}

/** Traces one request. */
export function traceRequest(view: ConfigView, model: AmbientModel, input: TraceInput): TraceResult {
  const req = parseRequest(input);
  const t = new Tracer(view, model, req, input);
  const finish = (): TraceResult => ({
    result: t.result,
    hops: t.hops,
    enforcement: t.enforcement,
    ...(t.deniedAt ? { deniedAt: t.deniedAt } : {}),
    clientSees: t.clientSees,
    waypointUsed: t.waypointUsed,
    ...(src ? { source: { pod: src.key, class: sourceClass(src) } } : {}),
    notes: [...new Set(t.notes)],
    ...(t.result === 'ERROR' ? { error: t.clientSees } : {}),
  });
  const src = resolveSourcePod(model, input.from);
  if (src && src.key !== input.from) t.notes.push(`${input.from} is not a pod: traced from ${src.key}, its first pod.`);
  if (!src) {
    t.error(`no pod ${input.from} (give namespace/name of a pod, or of the Deployment, StatefulSet or DaemonSet that runs it)`);
    return finish();
  }
  const target = parseTarget(input.to);
  if (!target) {
    t.error(`cannot read the destination "${input.to}" (give host:port or ip:port)`);
    return finish();
  }
  if (src.state !== 'running') {
    t.error(`${src.key} is ${src.state === 'pending' ? 'pending (no IP yet)' : 'terminated'}`);
    return finish();
  }
  const cls = sourceClass(src);
  const resolved = resolveName(t, src, target);
  if (!resolved) return finish();
  const { dstIp } = resolved;
  const port = target.port;
  const svc = resolved.service ?? serviceByVip(model, dstIp, src.namespace);
  const addressedWorkload = svc ? undefined : model.ztunnel.workloadsByIp.get(dstIp);
  const to = { dstIp, port, svc, addressedWorkload };
  // Step 2: the client side, and from it the rest of the path.
  if (cls === 'ambient') ambientClient(t, src, to);
  else if (cls === 'sidecar' || cls === 'gateway') proxyClient(t, src, cls, to);
  else uncapturedClient(t, src, to);
  return finish();
}

export function policyResourceKey(view: ConfigView, key: string): string | undefined {
  const [ns, name] = key.split('/');
  return ns && name ? view.find(KINDS.AuthorizationPolicy, ns, name)?.key : undefined;
}

export type { RbacScope };
