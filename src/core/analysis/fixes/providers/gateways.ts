// Fixes around Istio Gateways: a VirtualService bound to a gateway that does not exist
// (IST0101 gateway), a VirtualService host the gateway does not serve (IST0132), and a
// gateway port the gateway's Service does not expose (IST0162).
import { KINDS } from '../../../document/kinds.ts';
import type { QuickFix, Resource } from '../../../document/types.ts';
import { parseFieldPath } from '../../../document/locate.ts';
import { closest } from '../distance.ts';
import { editorFor, fix, type FixContext, type FixProvider } from '../context.ts';
import { fullNameString, hostMatches, hostsVisibleFromNamespace, shortOrFullName } from '../../../config/hosts.ts';
import { selectorMatches } from '../../../config/labels.ts';
import { gateway, virtualService } from '../../../config/api/networking.ts';
import { serviceSpec } from '../../../config/api/kube.ts';
import { podsSelectedBy } from '../../../config/workloads.ts';
import { num, str } from '../../../document/read.ts';
import { isIstioProxyPort } from '../reservedPorts.ts';

/** Plain hosts a gateway serves to VirtualServices of `namespace`. */
function gatewayHosts(gw: Resource, namespace: string): string[] {
  const out: string[] = [];
  for (const server of gateway(gw).servers) {
    const hosts = server.hosts.map((h) => (h.startsWith('./') ? `${gw.namespace}/${h.slice(2)}` : h));
    out.push(...hostsVisibleFromNamespace(hosts, namespace));
  }
  return out;
}

function servesAny(gw: Resource, vsHosts: readonly string[], namespace: string): boolean {
  const hosts = gatewayHosts(gw, namespace);
  return hosts.some((gh) => vsHosts.some((vh) => hostMatches(gh, vh)));
}

/** IST0101 gateway: the closest existing Gateways, preferring ones that serve the VirtualService's hosts. */
export const gatewayReferenceFixes: FixProvider = ({ message }, ctx) => {
  const vs = message.resource;
  if (!vs || str(message.params[0]) !== 'gateway' || !message.fieldPath) return [];
  const ed = editorFor(vs, ctx);
  if (!ed) return [];
  const current = str(message.params[1]);
  const vsHosts = virtualService(vs).hosts;
  const candidates = ctx.view.list(KINDS.Gateway).map((gw) => ({
    gw,
    ref: gw.namespace === vs.namespace ? gw.name : fullNameString(gw.namespace, gw.name),
    serves: servesAny(gw, vsHosts, vs.namespace),
  }));
  const ranked = closest(current, candidates, (c) => (c.gw.namespace === vs.namespace ? [c.ref, fullNameString(c.gw.namespace, c.gw.name)] : c.ref), {
    limit: 10,
    maxDistance: Math.max(3, Math.ceil(current.length * 0.7)),
  });
  // A gateway that does not serve the hosts would trade this error for IST0132.
  ranked.sort((a, b) => a.distance + (a.value.serves ? 0 : 4) - (b.distance + (b.value.serves ? 0 : 4)));
  const path = parseFieldPath(message.fieldPath);
  return ranked.slice(0, 3).flatMap(({ value }) => fix(`Change gateway to "${value.ref}"`, ed.replaceScalar(path, value.ref)));
};

/** IST0132: add a VirtualService host to the first server of the Gateway (in the Gateway's own file). */
export const gatewayHostFixes: FixProvider = ({ message }, ctx) => {
  const vs = message.resource;
  if (!vs) return [];
  const ref = shortOrFullName(vs.namespace, str(message.params[2]));
  const gw = ctx.view.find(KINDS.Gateway, ref.namespace, ref.name);
  const ed = editorFor(gw, ctx);
  if (!gw || !ed) return [];
  if (gateway(gw).servers.length === 0) return [];
  const served = gatewayHosts(gw, vs.namespace);
  const missing = virtualService(vs).hosts.filter((h) => !served.some((gh) => hostMatches(gh, h)));
  const out: QuickFix[] = [];
  for (const host of missing.slice(0, 3)) {
    out.push(
      ...fix(`Add "${host}" to the hosts of Gateway ${fullNameString(gw.namespace, gw.name)}`, ed.addSequenceItem(['spec', 'servers', 0, 'hosts'], host)),
    );
  }
  return out;
};

/** Services (of the pods' namespaces) whose selector picks the pods the gateway selects. */
function servicesOfGateway(ctx: FixContext, gw: Resource): Resource[] {
  const pods = podsSelectedBy(ctx.view, gateway(gw).selector);
  const out: Resource[] = [];
  for (const svc of ctx.view.list(KINDS.Service)) {
    const sel = serviceSpec(svc).selector;
    if (Object.keys(sel).length === 0) continue;
    if (pods.some((p) => p.namespace === svc.namespace && selectorMatches(sel, p.labels))) out.push(svc);
  }
  return out;
}

/** Name of a Service port for a gateway server (`http-8080`), from the server's protocol. */
function portNameFor(protocol: string, port: number): string {
  const p = protocol.toLowerCase();
  const known = ['http', 'http2', 'https', 'grpc', 'tls', 'tcp', 'mongo', 'redis', 'mysql'];
  return `${known.includes(p) ? p : 'tcp'}-${port}`;
}

/** IST0162: add the port to the gateway's Service (when it is in the workspace), or move the server to a port the Service exposes. */
export const gatewayPortFixes: FixProvider = ({ message }, ctx) => {
  const gw = message.resource;
  if (!gw) return [];
  const port = num(message.params[0]);
  const { servers } = gateway(gw);
  const serverIndex = servers.findIndex((s) => s.port?.number === port);
  const protocol = servers[serverIndex]?.port?.protocol ?? '';
  const services = servicesOfGateway(ctx, gw);
  const out: QuickFix[] = [];
  for (const svc of services.slice(0, 3)) {
    const ed = editorFor(svc, ctx);
    if (!ed) continue;
    const entry = { name: portNameFor(protocol, port), port, protocol: 'TCP', targetPort: port };
    out.push(...fix(`Add port ${port} to Service ${fullNameString(svc.namespace, svc.name)}`, ed.addSequenceItem(['spec', 'ports'], entry)));
  }
  const gwEd = editorFor(gw, ctx);
  if (gwEd && serverIndex >= 0) {
    const used = new Set(servers.map((s) => s.port?.number ?? 0));
    const offered: Array<{ port: number; name: string }> = [];
    for (const svc of services) {
      for (const p of serviceSpec(svc).ports) {
        // The analyzer only counts TCP ports (an absent protocol is TCP, as the API server defaults it).
        if ((p.protocol || 'TCP') !== 'TCP') continue;
        const n = p.port;
        // The gateway's own health (15021) and other proxy ports are the Service's, not for servers.
        if (isIstioProxyPort(n) || isIstioProxyPort(num(p.targetPort))) continue;
        if (n > 0 && !used.has(n) && !offered.some((o) => o.port === n)) offered.push({ port: n, name: p.name.toLowerCase() });
      }
    }
    // Ports whose Service port name matches the server protocol come first (80 for HTTP…).
    const proto = protocol.toLowerCase();
    const score = (o: { name: string }) =>
      proto && (o.name === proto || o.name.startsWith(`${proto}-`) || (proto === 'http' && o.name.startsWith('http'))) ? 0 : 1;
    offered.sort((a, b) => score(a) - score(b));
    for (const o of offered.slice(0, 3)) {
      out.push(...fix(`Change the Gateway server port to ${o.port}`, gwEd.replaceScalar(['spec', 'servers', serverIndex, 'port', 'number'], o.port)));
    }
  }
  return out;
};
