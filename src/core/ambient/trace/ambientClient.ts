// The client side of a trace from an ambient pod: the node's ztunnel (ztunnel outbound.rs).
import { waypointDestination } from '../../config/waypoints.ts';
import type { SimPod } from '../cluster.ts';
import type { ServiceRecord, WorkloadRecord } from '../ztunnel.ts';
import { type Tracer, ztunnelAt, portOf, pickEndpoint, wlName } from './tracer.ts';
import { deliver } from './destination.ts';
import { viaWaypoint } from './waypoint.ts';

/** Where the client's connection is addressed once its name resolved. */
export interface Addressed {
  dstIp: string;
  port: number;
  /** The Service or ServiceEntry the address belongs to. */
  svc: ServiceRecord | undefined;
  /** The workload addressed by its own IP, when no service is. */
  addressedWorkload: WorkloadRecord | undefined;
}

/** An ambient source: the connection is redirected to the node's ztunnel, which sends it on. */
export function ambientClient(t: Tracer, src: SimPod, to: Addressed): void {
  const { req, input } = t;
  const { dstIp, port, svc, addressedWorkload } = to;
  const srcIp = src.ips[0] as string;
  const zt = ztunnelAt(src.node);
  t.hop({
    component: 'ztunnel-outbound',
    actor: zt,
    node: src.node,
    pod: src.key,
    port: 15001,
    text: `${src.key} connects ${dstIp}:${port}; iptables in ${src.name}'s netns redirects to ${zt} outbound :15001`,
  });
  if (svc) {
    const wb = svc.binding.waypoint;
    if (wb) {
      t.hop({
        component: 'ztunnel-outbound',
        actor: zt,
        node: src.node,
        text: `${zt}: Service ${svc.namespace}/${svc.name} has waypoint ${wb.namespace}/${wb.name} (${waypointDestination(wb.address).split('/')[1] ?? ''}:15008)`,
      });
      viaWaypoint(t, wb, { actor: zt, node: src.node, identity: src.identity, srcIp }, { ip: dstIp, port, service: svc });
      return;
    }
    const declared = portOf(svc, port);
    const ep = declared ? pickEndpoint(svc, port, input.endpoint) : undefined;
    if (!ep) {
      if (svc.passthrough) {
        t.hop({
          component: 'external',
          actor: zt,
          node: src.node,
          port,
          protocol: 'plaintext',
          text: `${zt}: ${svc.kind} ${svc.namespace}/${svc.name} is PASSTHROUGH (resolution NONE): plain TCP to the original ${dstIp}:${port} from ${srcIp}; no policy`,
        });
        t.clientSees = 'whatever the destination answers';
        return;
      }
      t.hop({
        component: 'ztunnel-outbound',
        actor: zt,
        node: src.node,
        text: `${zt}: ${dstIp} is Service ${svc.namespace}/${svc.name}, ${declared ? 'but no healthy endpoint serves port ' + port : `which declares no port ${port}`}: ztunnel refuses the connection (NoHealthyUpstream)`,
      });
      t.error(`connection refused by ${zt} (no healthy upstream for ${svc.name}:${port})`);
      return;
    }
    const ew = ep.w;
    if (ew.json.workloadIps.length === 0 && ew.json.hostname) {
      t.hop({
        component: 'ztunnel-outbound',
        actor: zt,
        node: src.node,
        text: `${zt}: Service ${svc.namespace}/${svc.name} (hostname ${svc.hostname}), no waypoint; its only endpoint is the implicit Workload ${ew.json.uid} (hostname, protocol TCP)`,
      });
      t.hop({
        component: 'external',
        actor: zt,
        node: src.node,
        port: ep.targetPort,
        protocol: 'plaintext',
        text: `${zt} resolves ${ew.json.hostname} with its own DNS resolver and opens plain TCP to <resolved IP>:${ep.targetPort} from ${srcIp}`,
      });
      t.hop({ component: 'external', actor: src.key, text: 'no destination ztunnel, no policy; traffic leaves the node as ordinary pod egress' });
      t.clientSees = req.http ? 'the external response' : 'an open connection';
      return;
    }
    const epIp = ew.json.workloadIps[0] as string;
    t.hop({
      component: 'ztunnel-outbound',
      actor: zt,
      node: src.node,
      text: `${zt}: ${dstIp} is Service ${svc.namespace}/${svc.name}, no waypoint; picks healthy endpoint ${wlName(ew)} ${epIp}, port ${port} -> targetPort ${ep.targetPort}; endpoint protocol ${ew.protocol}`,
    });
    if (ew.protocol === 'HBONE') {
      t.hop({
        component: 'ztunnel-outbound',
        actor: zt,
        node: src.node,
        port: 15008,
        protocol: 'HBONE mTLS',
        identity: src.identity,
        peerIdentity: ew.identity,
        text: `${zt} -> ${epIp}:15008 mTLS as ${src.identity} (expects peer ${ew.identity}); HTTP/2 CONNECT :authority ${epIp}:${ep.targetPort}`,
      });
      deliver(t, {
        from: zt,
        workload: ew,
        targetIp: epIp,
        targetPort: ep.targetPort,
        transport: 'hbone',
        peerIdentity: src.identity,
        srcIp,
        service: svc,
        servicePort: port,
      });
    } else {
      t.hop({
        component: 'ztunnel-outbound',
        actor: zt,
        node: src.node,
        port: ep.targetPort,
        protocol: 'plaintext',
        text: `${zt} opens plain TCP to ${epIp}:${ep.targetPort} with source IP ${srcIp} (no HBONE, no mTLS)`,
      });
      deliver(t, {
        from: zt,
        workload: ew,
        targetIp: epIp,
        targetPort: ep.targetPort,
        transport: 'plaintext',
        peerIdentity: null,
        srcIp,
        service: svc,
        servicePort: port,
      });
    }
    return;
  }
  if (addressedWorkload) {
    const ww = addressedWorkload.waypoint.waypoint;
    if (ww && addressedWorkload.pod?.role !== 'waypoint') {
      t.hop({
        component: 'ztunnel-outbound',
        actor: zt,
        node: src.node,
        text: `${zt}: ${dstIp} is workload ${wlName(addressedWorkload)}, addressed directly; it has workload waypoint ${ww.namespace}/${ww.name}`,
      });
      viaWaypoint(t, ww, { actor: zt, node: src.node, identity: src.identity, srcIp }, { ip: dstIp, port, workload: addressedWorkload });
      return;
    }
    t.hop({
      component: 'ztunnel-outbound',
      actor: zt,
      node: src.node,
      text: `${zt}: ${dstIp} is workload ${wlName(addressedWorkload)} (addressed by pod IP: no service waypoint is consulted); protocol ${addressedWorkload.protocol}`,
    });
    if (addressedWorkload.protocol === 'HBONE') {
      t.hop({
        component: 'ztunnel-outbound',
        actor: zt,
        node: src.node,
        port: 15008,
        protocol: 'HBONE mTLS',
        identity: src.identity,
        peerIdentity: addressedWorkload.identity,
        text: `${zt} -> ${dstIp}:15008 mTLS as ${src.identity} (expects peer ${addressedWorkload.identity}); HTTP/2 CONNECT :authority ${dstIp}:${port}`,
      });
      deliver(t, {
        from: zt,
        workload: addressedWorkload,
        targetIp: dstIp,
        targetPort: port,
        transport: 'hbone',
        peerIdentity: src.identity,
        srcIp,
        servicePort: port,
      });
    } else {
      t.hop({
        component: 'ztunnel-outbound',
        actor: zt,
        node: src.node,
        port,
        protocol: 'plaintext',
        text: `${zt} opens plain TCP to ${dstIp}:${port} with source IP ${srcIp}`,
      });
      deliver(t, {
        from: zt,
        workload: addressedWorkload,
        targetIp: dstIp,
        targetPort: port,
        transport: 'plaintext',
        peerIdentity: null,
        srcIp,
        servicePort: port,
      });
    }
    return;
  }
  t.hop({
    component: 'external',
    actor: zt,
    node: src.node,
    port,
    protocol: 'plaintext',
    text: `${zt}: ${dstIp} is neither a Service nor a workload it knows: passthrough, plain TCP to ${dstIp}:${port} with source IP ${srcIp}; no policy`,
  });
  t.clientSees = 'whatever the destination answers';
  return;
}
