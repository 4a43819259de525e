// The client side of a trace from a sidecar or a gateway: its own Envoy picks the endpoint.
import type { SimPod } from '../cluster.ts';
import type { ServiceRecord, WorkloadRecord } from '../ztunnel.ts';
import { type Tracer, portOf, pickEndpoint, wlName } from './tracer.ts';
import { deliver } from './destination.ts';
import { viaWaypoint } from './waypoint.ts';

import type { Addressed } from './ambientClient.ts';

/** A sidecar or gateway source: its Envoy picks the endpoint and sends to it. */
export function proxyClient(t: Tracer, src: SimPod, cls: 'sidecar' | 'gateway', to: Addressed): void {
  const { input } = t;
  const { dstIp, port, svc, addressedWorkload } = to;
  const srcIp = src.ips[0] as string;
  const actor = cls === 'gateway' ? `gateway ${src.key}` : `sidecar ${src.key}`;
  t.notes.push(
    `${cls === 'gateway' ? 'The gateway' : 'The sidecar'}'s own routing (VirtualService, DestinationRule, outbound policies) is not simulated yet: it is taken to send to the addressed Service's endpoints.`,
  );
  if (svc) {
    const wb = svc.binding.waypoint;
    if (wb && cls === 'gateway' && svc.ingress.value) {
      t.hop({
        component: 'gateway',
        actor,
        node: src.node,
        pod: src.key,
        text: `${src.name}'s Envoy: Service ${svc.namespace}/${svc.name} has waypoint ${wb.namespace}/${wb.name} and istio.io/ingress-use-waypoint=true, so the gateway sends to the waypoint`,
      });
      viaWaypoint(t, wb, { actor, node: src.node, identity: src.identity, srcIp }, { ip: svc.vips[0] ?? dstIp, port, service: svc });
      return;
    }
    const ep = portOf(svc, port) ? pickEndpoint(svc, port, input.endpoint) : undefined;
    if (!ep) {
      t.error(`${actor} finds no healthy endpoint of ${svc.name}:${port} (HTTP 503)`);
      return;
    }
    const skip = wb
      ? ` (the Service's waypoint ${wb.namespace}/${wb.name} is skipped: ${cls === 'gateway' ? 'no istio.io/ingress-use-waypoint=true' : 'sidecars never use waypoints'})`
      : '';
    t.hop({
      component: cls === 'gateway' ? 'gateway' : 'sidecar-outbound',
      actor,
      node: src.node,
      pod: src.key,
      text: `${src.name}'s ${cls === 'gateway' ? 'gateway' : 'sidecar'} Envoy picks endpoint ${wlName(ep.w)} from its own EDS (client-side routing and policies)${skip}`,
    });
    sidecarSend(t, src, actor, ep.w, ep.targetPort, svc, port);
    return;
  }
  if (addressedWorkload) {
    t.hop({
      component: cls === 'gateway' ? 'gateway' : 'sidecar-outbound',
      actor,
      node: src.node,
      pod: src.key,
      text: `${src.name}'s Envoy sends to ${dstIp}:${port} (${wlName(addressedWorkload)}, addressed by pod IP; no waypoint)`,
    });
    sidecarSend(t, src, actor, addressedWorkload, port, undefined, port);
    return;
  }
  t.hop({ component: 'external', actor, node: src.node, text: `${dstIp}:${port} is not a known Service or workload: passthrough, no policy` });
  t.clientSees = 'whatever the destination answers';
  return;
}

/** A sidecar or gateway Envoy sending to a chosen endpoint: HBONE when both sides can, Istio mTLS to a sidecar, else plaintext. */
function sidecarSend(t: Tracer, src: SimPod, actor: string, w: WorkloadRecord, targetPort: number, svc: ServiceRecord | undefined, servicePort: number): void {
  const srcHbone = (src.labels['networking.istio.io/tunnel'] ?? '').split(',').includes('http') || src.role === 'gateway';
  const ip = w.json.workloadIps[0] ?? '';
  const srcIp = src.ips[0] as string;
  const destPod = w.pod;
  if (w.json.workloadIps.length === 0 && w.json.hostname) {
    // A ServiceEntry endpoint given by host name (resolution DNS): Envoy's STRICT_DNS cluster
    // resolves it and connects to what it gets, outside the mesh (no ztunnel, no policy).
    t.hop({
      component: 'external',
      actor,
      node: src.node,
      pod: src.key,
      port: targetPort,
      protocol: 'plaintext',
      text: `${actor} resolves ${w.json.hostname} with DNS (its STRICT_DNS cluster for ${wlName(w)}) and connects to <resolved IP>:${targetPort}: no destination ztunnel, no policy`,
    });
    t.clientSees = t.req.http ? 'the external response' : 'an open connection';
    return;
  }
  if (w.protocol === 'HBONE' && srcHbone) {
    t.hop({
      component: src.role === 'gateway' ? 'gateway' : 'sidecar-outbound',
      actor,
      node: src.node,
      pod: src.key,
      port: 15008,
      protocol: 'HBONE mTLS',
      identity: src.identity,
      peerIdentity: w.identity,
      text: `${wlName(w)} is ${destPod?.mode === 'sidecar' ? 'a sidecar with HBONE' : 'ambient (HBONE capable)'} so the ${src.role === 'gateway' ? 'gateway' : 'sidecar'} tunnels: HBONE -> ${ip}:15008 as ${src.identity}`,
    });
    deliver(t, {
      from: actor,
      workload: w,
      targetIp: ip,
      targetPort,
      transport: 'hbone',
      peerIdentity: src.identity,
      srcIp,
      ...(svc ? { service: svc } : {}),
      servicePort,
    });
    return;
  }
  if (destPod?.mode === 'sidecar') {
    t.hop({
      component: 'sidecar-outbound',
      actor,
      node: src.node,
      pod: src.key,
      port: targetPort,
      protocol: 'Istio mTLS',
      identity: src.identity,
      peerIdentity: w.identity,
      text: `Istio mTLS sidecar to sidecar: ${ip}:${targetPort} as ${src.identity}`,
    });
    deliver(t, {
      from: actor,
      workload: w,
      targetIp: ip,
      targetPort,
      transport: 'istio-mtls',
      peerIdentity: src.identity,
      srcIp,
      ...(svc ? { service: svc } : {}),
      servicePort,
    });
    return;
  }
  t.hop({
    component: 'sidecar-outbound',
    actor,
    node: src.node,
    pod: src.key,
    port: targetPort,
    protocol: 'plaintext',
    text: `${wlName(w)} is ${destPod?.mode === 'ambient' ? 'ambient but this proxy has no HBONE' : 'not in the mesh'}: plaintext to ${ip}:${targetPort}`,
  });
  deliver(t, {
    from: actor,
    workload: w,
    targetIp: ip,
    targetPort,
    transport: 'plaintext',
    peerIdentity: null,
    srcIp,
    ...(svc ? { service: svc } : {}),
    servicePort,
  });
}
