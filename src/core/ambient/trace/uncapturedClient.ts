// The client side of a trace from a pod outside the mesh: plain TCP, kube-proxy for Service VIPs.
import type { SimPod } from '../cluster.ts';
import { type Tracer, portOf, pickEndpoint } from './tracer.ts';
import { deliver } from './destination.ts';

import type { Addressed } from './ambientClient.ts';

/** An uncaptured source: plain TCP, kube-proxy DNAT for Service VIPs. */
export function uncapturedClient(t: Tracer, src: SimPod, to: Addressed): void {
  const { input } = t;
  const { dstIp, port, svc, addressedWorkload } = to;
  const srcIp = src.ips[0] as string;
  if (svc) {
    if (svc.kind === 'ServiceEntry') {
      t.hop({
        component: 'external',
        actor: src.key,
        text: `${src.key} is not captured: ${dstIp}:${port} (${svc.hostname}) goes out as plain egress; no ztunnel, no waypoint, no policy`,
      });
      t.clientSees = 'whatever the destination answers';
      return;
    }
    const ep = portOf(svc, port) ? pickEndpoint(svc, port, input.endpoint, false, true) : undefined;
    if (!ep || ep.w.json.workloadIps.length === 0) {
      t.error(`kube-proxy has no ready endpoint for ${svc.name}:${port} (connection refused)`);
      return;
    }
    const epIp = ep.w.json.workloadIps[0] as string;
    const skip = svc.binding.waypoint
      ? ` (the Service's waypoint ${svc.binding.waypoint.namespace}/${svc.binding.waypoint.name} is skipped: ztunnel never hairpins uncaptured traffic to it)`
      : '';
    t.hop({
      component: 'kube-proxy',
      actor: src.key,
      node: src.node,
      pod: src.key,
      port: ep.targetPort,
      protocol: 'plaintext',
      text: `${src.key} is not captured: plain TCP to ${dstIp}:${port} (Service ${svc.namespace}/${svc.name}), kube-proxy DNATs to ${epIp}:${ep.targetPort}${skip}`,
    });
    deliver(t, {
      from: src.key,
      workload: ep.w,
      targetIp: epIp,
      targetPort: ep.targetPort,
      transport: 'plaintext',
      peerIdentity: null,
      srcIp,
      service: svc,
      servicePort: port,
    });
    return;
  }
  if (addressedWorkload) {
    t.hop({
      component: 'client',
      actor: src.key,
      node: src.node,
      pod: src.key,
      port,
      protocol: 'plaintext',
      text: `${src.key} is not captured: plain TCP to ${dstIp}:${port}`,
    });
    deliver(t, {
      from: src.key,
      workload: addressedWorkload,
      targetIp: dstIp,
      targetPort: port,
      transport: 'plaintext',
      peerIdentity: null,
      srcIp,
      servicePort: port,
    });
    return;
  }
  t.hop({ component: 'external', actor: src.key, text: `${src.key} is not captured: plain TCP to ${dstIp}:${port}, outside the mesh` });
  t.clientSees = 'whatever the destination answers';
  return;
}
