// A trace through a waypoint: HBONE from the client's proxy, the waypoint's L7 policies, then an endpoint.
import { waypointDestination, type Waypoint } from '../../config/waypoints.ts';
import { evaluateEnvoy } from '../envoyAuthz.ts';
import type { ServiceRecord, WorkloadRecord } from '../ztunnel.ts';
import { type Tracer, portOf, pickEndpoint, wlName, waypointPod, waypointPolicies, envoyChecks, protocolName, chainFor, requestWords } from './tracer.ts';
import { deliver } from './destination.ts';

/** Through a waypoint: HBONE from the client's proxy, the waypoint's L7 policies, then on to an endpoint. */
export function viaWaypoint(
  t: Tracer,
  w: Waypoint,
  client: { actor: string; node?: string; identity: string; srcIp: string },
  target: { ip: string; port: number; service?: ServiceRecord; workload?: WorkloadRecord },
): void {
  const { model, view, req } = t;
  const wpKey = `${w.namespace}/${w.name}`;
  t.waypointUsed = wpKey;
  const wp = waypointPod(model, w);
  if (!wp) {
    t.hop({
      component: 'waypoint',
      actor: `waypoint ${wpKey}`,
      waypoint: wpKey,
      text: `waypoint ${wpKey} has no running, ready pod: ${client.actor} cannot connect (no healthy upstream)`,
    });
    t.error(`waypoint ${wpKey} has no running, ready pod`);
    return;
  }
  const dest = waypointDestination(w.address);
  t.hop({
    component: 'waypoint',
    actor: client.actor,
    node: client.node,
    waypoint: wpKey,
    port: 15008,
    protocol: 'HBONE mTLS',
    identity: client.identity,
    peerIdentity: wp.pod.identity,
    text: `${client.actor} -> ${wp.ip}:15008 (waypoint ${dest.includes('/') ? dest.split('/')[1] : dest}) mTLS as ${client.identity} (expects ${wp.pod.identity}); CONNECT :authority ${target.ip}:${target.port}${target.service ? ' (service VIP kept so the waypoint can route)' : ''}`,
  });
  const port = target.service ? portOf(target.service, target.port) : undefined;
  const chain = chainFor(port?.protocol, req);
  const actor = `waypoint ${wpKey}`;
  t.hop({
    component: 'waypoint',
    actor,
    node: wp.pod.node,
    waypoint: wpKey,
    pod: wp.pod.key,
    port: 15008,
    protocol: 'HBONE mTLS',
    identity: wp.pod.identity,
    peerIdentity: client.identity,
    text: `waypoint (Envoy, not captured) terminates HBONE; ${target.ip}:${target.port} is ${target.service ? `service ${target.service.name} port '${port?.name ?? target.port}' (${protocolName(port?.protocol)})` : `workload ${target.workload ? wlName(target.workload) : target.ip}`} -> ${chain.text}`,
  });
  const policies = waypointPolicies(view, model, w, target.service);
  const dec = evaluateEnvoy(policies, {
    http: chain.http,
    method: req.method,
    path: req.path,
    host: target.service ? `${target.service.hostname}:${target.port}` : `${target.ip}:${target.port}`,
    headers: req.headers,
    sourceIdentity: client.identity,
    sourceIp: client.srcIp,
    destinationIp: target.ip,
    destinationPort: target.port,
  });
  t.notes.push(...dec.notes);
  const layer = chain.http ? 'L7' : 'L4';
  const principal = client.identity.startsWith('spiffe://') ? client.identity.slice('spiffe://'.length) : client.identity;
  const ns = /\/ns\/([^/]+)\//.exec(client.identity)?.[1] ?? '';
  t.hop({
    component: 'waypoint',
    actor,
    node: wp.pod.node,
    waypoint: wpKey,
    policies: envoyChecks(dec),
    decision: dec.decision,
    text: `waypoint ${layer} authorization (${policies.length === 0 ? 'no policy attached' : policies.map((p) => `${p.namespace}/${p.name}`).join(', ')}): principal ${principal}, namespace ${ns}, ${requestWords(req, chain.http)} -> ${dec.decision}${dec.decision === 'DENY' ? ` (${dec.why})` : ''}`,
  });
  t.enforcement.push({
    point: actor,
    layer,
    sourceIdentity: client.identity,
    policies: policies.map((p) => `${p.namespace}/${p.name}`),
    decision: dec.decision,
    why: dec.why,
  });
  if (dec.decision === 'DENY') {
    t.deny(
      actor,
      layer,
      chain.http ? "HTTP 403 'RBAC: access denied' from the waypoint" : 'connection closed by the waypoint',
      dec.policy ? { policy: dec.policy } : {},
    );
    return;
  }
  t.notes.push(
    `L7 routing at waypoint ${wpKey} (HTTPRoute, VirtualService, DestinationRule) is not simulated yet: it is taken to send to the ${target.service ? 'service' : 'workload'}'s endpoints.`,
  );
  // Route to an endpoint.
  let ep: { w: WorkloadRecord; targetPort: number } | undefined;
  if (target.service) ep = pickEndpoint(target.service, target.port, t.input.endpoint);
  else if (target.workload) ep = { w: target.workload, targetPort: target.port };
  if (!ep) {
    t.hop({
      component: 'waypoint',
      actor,
      waypoint: wpKey,
      text: `waypoint ${wpKey} finds no healthy endpoint for ${target.service?.name ?? target.ip}:${target.port}`,
    });
    t.error('no healthy upstream at the waypoint (HTTP 503)');
    return;
  }
  if (ep.w.json.hostname && ep.w.json.workloadIps.length === 0) {
    t.hop({
      component: 'external',
      actor,
      waypoint: wpKey,
      port: target.port,
      text: `waypoint resolves ${ep.w.json.hostname} via DNS and sends plain ${chain.http ? 'HTTP' : 'TCP'} to <resolved IP>:${ep.targetPort} (add a DestinationRule with TLS origination for https)`,
    });
    t.clientSees = req.http ? 'the external response' : 'an open connection';
    return;
  }
  const epIp = ep.w.json.workloadIps[0] ?? '';
  if (ep.w.protocol === 'HBONE') {
    t.hop({
      component: 'waypoint',
      actor,
      node: wp.pod.node,
      waypoint: wpKey,
      port: 15008,
      protocol: 'HBONE mTLS',
      identity: wp.pod.identity,
      peerIdentity: ep.w.identity,
      text: `waypoint routes to ${wlName(ep.w)}: HBONE -> ${epIp}:15008 mTLS as ${wp.pod.identity}; CONNECT :authority ${epIp}:${ep.targetPort}`,
    });
    deliver(t, {
      from: actor,
      workload: ep.w,
      targetIp: epIp,
      targetPort: ep.targetPort,
      transport: 'hbone',
      peerIdentity: wp.pod.identity,
      srcIp: wp.ip,
      ...(target.service ? { service: target.service } : {}),
      servicePort: target.port,
      viaWaypoint: wpKey,
    });
  } else {
    t.hop({
      component: 'waypoint',
      actor,
      node: wp.pod.node,
      waypoint: wpKey,
      port: ep.targetPort,
      protocol: 'plaintext',
      text: `waypoint routes to ${wlName(ep.w)}: plain TCP -> ${epIp}:${ep.targetPort} (the endpoint does not speak HBONE)`,
    });
    deliver(t, {
      from: actor,
      workload: ep.w,
      targetIp: epIp,
      targetPort: ep.targetPort,
      transport: 'plaintext',
      peerIdentity: null,
      srcIp: wp.ip,
      ...(target.service ? { service: target.service } : {}),
      servicePort: target.port,
      viaWaypoint: wpKey,
    });
  }
}
