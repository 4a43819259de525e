// Name resolution, the first hop of a trace: ztunnel's DNS proxy (dns/server.rs) or cluster DNS.
import type { SimPod } from '../cluster.ts';
import { parseIpv4 } from '../../config/addresses.ts';
import { serviceEndpoints, type ServiceRecord } from '../ztunnel.ts';
import { type Tracer, ztunnelAt, sourceClass, kubeServiceFor, serviceEntryFor } from './tracer.ts';

export function clusterLocalName(host: string): boolean {
  const h = host.toLowerCase();
  return !h.includes('.') || h.endsWith('.svc') || h.endsWith('.cluster.local');
}

/**
 * Step 1 of a trace: how the source pod resolves the target's host (ztunnel's DNS proxy when the
 * pod's DNS is captured, else cluster DNS). Undefined when the trace ends here.
 */
export function resolveName(t: Tracer, src: SimPod, target: { host: string; port: number }): { dstIp: string; service: ServiceRecord | undefined } | undefined {
  const { model } = t;
  const cls = sourceClass(src);
  const zt = ztunnelAt(src.node);
  let dstIp: string;
  let resolvedService: ServiceRecord | undefined;
  const isIp = parseIpv4(target.host) !== undefined || target.host.includes(':');
  if (isIp) {
    dstIp = target.host;
  } else {
    const kube = kubeServiceFor(model, target.host, src.namespace);
    const se = kube ? undefined : serviceEntryFor(model, target.host, src.namespace);
    const captured = cls === 'ambient' && src.dnsCapture;
    if (!kube && !se && clusterLocalName(target.host)) {
      // Kubernetes DNS is authoritative for the cluster domain: an unknown name there (or a
      // single label, after the search path) is NXDOMAIN, whoever forwards the query.
      t.hop({
        component: 'dns',
        actor: captured ? zt : 'cluster DNS',
        node: src.node,
        pod: src.key,
        ...(captured ? { port: 15053 } : {}),
        protocol: 'DNS',
        text: `${src.key} resolves ${target.host}: ${captured ? `${zt} :15053 does not know it and forwards the query to cluster DNS, which` : 'cluster DNS'} answers NXDOMAIN (no such Service in the files)`,
      });
      t.error(`${target.host} does not resolve (NXDOMAIN): no Service or ServiceEntry has that name (curl exits 6)`);
      return undefined;
    }
    if (captured) {
      const svc = kube ?? se;
      const answer = svc ? (svc.vips.length > 0 ? svc.vips : svc.headless ? serviceEndpoints(svc).flatMap((w) => w.json.workloadIps) : []) : [];
      if (svc && answer.length > 0) {
        const kind =
          svc.kind === 'ServiceEntry'
            ? svc.addressAssumed
              ? "the ServiceEntry's auto-allocated VIP (approximate)"
              : "the ServiceEntry's VIP"
            : svc.headless
              ? "the headless Service's pod IPs"
              : 'the Service VIP';
        t.hop({
          component: 'dns',
          actor: zt,
          node: src.node,
          pod: src.key,
          port: 15053,
          protocol: 'DNS',
          text: `${src.key} resolves ${target.host}: DNS (udp/53) is redirected to ${zt} :15053, which answers ${answer.join(', ')} (${kind})`,
        });
        dstIp = answer[0] as string;
        // A headless Service's name resolves to pod IPs: the connection is addressed to a workload,
        // not a Service (spec §3.4; ztunnel outbound.rs looks the destination IP up).
        if (svc.vips.length > 0) resolvedService = svc;
      } else {
        // dns/server.rs find_server: a service without a VIP is dropped, so the query is forwarded
        // upstream as if it were not in the mesh, unless its host is in the cluster domain (a
        // headless Service): then ztunnel answers itself, with no records.
        const answersEmpty = svc !== undefined && clusterLocalName(svc.hostname);
        t.hop({
          component: 'dns',
          actor: zt,
          node: src.node,
          pod: src.key,
          port: 15053,
          protocol: 'DNS',
          text: answersEmpty
            ? `${src.key} resolves ${target.host}: ${zt} :15053 knows ${svc.kind} ${svc.namespace}/${svc.name} but has no address for it (no ready endpoint) and answers with no records`
            : `${src.key} resolves ${target.host}: ${zt} :15053 does not know it${svc ? ` (${svc.kind} ${svc.namespace}/${svc.name} has no address)` : ''} and forwards the query upstream`,
        });
        if (!answersEmpty) {
          t.hop({
            component: 'external',
            actor: src.key,
            text: `${target.host} is not in the mesh: it resolves to an external address we do not know, and ztunnel passes the connection through (plain TCP, no policy)`,
          });
          t.clientSees = 'whatever the external host answers';
          return undefined;
        }
        t.error(`${target.host} has no address to connect to`);
        return undefined;
      }
    } else {
      if (kube && (kube.vips.length > 0 || kube.headless)) {
        const answer = kube.vips.length > 0 ? kube.vips : serviceEndpoints(kube).flatMap((w) => w.json.workloadIps);
        if (answer.length === 0) {
          t.error(`headless Service ${kube.namespace}/${kube.name} has no ready endpoints`);
          return undefined;
        }
        t.hop({
          component: 'dns',
          actor: 'cluster DNS',
          pod: src.key,
          node: src.node,
          protocol: 'DNS',
          text: `${src.key} resolves ${target.host} with cluster DNS${cls === 'ambient' ? ' (DNS capture is off for this pod)' : ''}: ${answer.join(', ')}`,
        });
        dstIp = answer[0] as string;
        // Headless: the pod IP is the destination (kube-proxy and ztunnel see a workload address).
        if (kube.vips.length > 0) resolvedService = kube;
      } else {
        t.hop({
          component: 'dns',
          actor: 'cluster DNS',
          pod: src.key,
          node: src.node,
          protocol: 'DNS',
          text: `${src.key} resolves ${target.host} with cluster DNS${se ? `: ServiceEntry ${se.namespace}/${se.name} gives it no DNS record (only ztunnel's or a sidecar's DNS proxy answers for it)` : ''}; it resolves (if at all) to an external address`,
        });
        if (cls === 'sidecar' || cls === 'gateway') {
          if (se) {
            resolvedService = se;
            dstIp = se.vips[0] ?? '';
          } else {
            t.hop({
              component: 'external',
              actor: src.key,
              text: `${target.host} is outside the mesh: the proxy passes it through to the external address (no policy)`,
            });
            t.clientSees = 'whatever the external host answers';
            return undefined;
          }
        } else {
          t.hop({
            component: 'external',
            actor: src.key,
            text: `the connection to ${target.host}:${target.port} leaves as ordinary egress: no ztunnel, no policy`,
          });
          t.clientSees = 'whatever the external host answers';
          return undefined;
        }
      }
    }
  }
  return { dstIp, service: resolvedService };
}
