// Gateways merged for a gateway proxy (pilot/pkg/model/gateway.go mergeGateways, push_context
// mergeGateways; spec §4.1): the Gateways selecting the proxy (by labels, or the internal
// gateway-service annotation of converted Gateway API config), server hosts normalized, server
// ports resolved to target ports, servers merged per port, RDS names per server.
import type { Server } from '../config/api/networking.ts';
import { parseProtocol } from '../config/protocol.ts';
import { selectorMatches } from '../config/labels.ts';
import type { ConfigMeta, PushContext } from './pushContext.ts';
import { GATEWAY_SERVICE_ANNOTATION } from './pushContext.ts';
import type { Proxy } from './types.ts';
import type { ServiceTarget } from './proxy.ts';
import { isHttp } from './protocol.ts';
import { mapAt } from '../document/maps.ts';

export interface ServerPort {
  number: number;
  protocol: string;
  bind: string;
}

export interface MergedServers {
  servers: Server[];
  routeName: string;
}

export interface MergedGateway {
  serverPorts: ServerPort[];
  /** By `${number}|${protocol}|${bind}`. */
  mergedServers: Map<string, MergedServers>;
  gatewayNameForServer: Map<Server, string>;
  gatewayMetaForServer: Map<Server, ConfigMeta>;
  /** Index of the server in its Gateway (provenance). */
  serverIndex: Map<Server, number>;
  serversByRouteName: Map<string, Server[]>;
  tlsServerInfo: Map<Server, { routeName: string; sniHosts: string[] }>;
  containsAutoPassthrough: boolean;
}

export function serverPortKey(p: ServerPort): string {
  return `${p.number}|${p.protocol}|${p.bind}`;
}

export function isTlsServer(s: Server): boolean {
  return s.tls !== undefined && !isHttp(parseProtocol(s.port?.protocol ?? ''));
}

export function isPassthroughServer(s: Server): boolean {
  return s.tls !== undefined && (s.tls.mode === 'PASSTHROUGH' || s.tls.mode === 'AUTO_PASSTHROUGH');
}

export function isHttpServer(s: Server): boolean {
  const p = parseProtocol(s.port?.protocol ?? '');
  if (isHttp(p)) return true;
  return p === 'HTTPS' && !isPassthroughServer(s);
}

export function isHttpsServerWithTlsTermination(s: Server): boolean {
  return s.tls !== undefined && parseProtocol(s.port?.protocol ?? '') === 'HTTPS' && !isPassthroughServer(s);
}

export function isTcpServerWithTlsTermination(s: Server): boolean {
  if (isPassthroughServer(s)) return false;
  const p = parseProtocol(s.port?.protocol ?? '');
  return !isHttp(p) && p !== 'HTTPS';
}

/** sanitizeServerHostNamespace: `./h` → `<ns>/h`, `*\/h` → `h`, `*\/*` → `*`. */
function sanitize(s: Server, namespace: string): Server {
  if (!s.hosts.some((h) => h.includes('/'))) return s;
  let hosts = [...s.hosts];
  for (let i = 0; i < hosts.length; i++) {
    const h = hosts[i] as string;
    if (!h.includes('/')) continue;
    const [ns, name] = h.split('/') as [string, string];
    if (ns === '.') hosts[i] = `${namespace}/${name}`;
    else if (ns === '*') {
      if (name === '*') {
        hosts = ['*'];
        break;
      }
      hosts[i] = name;
    }
  }
  return { ...s, hosts };
}

/** GetSNIHostsForServer. */
function sniHostsForServer(s: Server): string[] {
  if (!s.tls) return [];
  const set = new Set<string>();
  for (let h of s.hosts) {
    if (h.includes('/')) h = h.split('/')[1] as string;
    set.add(h);
  }
  return [...set].sort();
}

/** gatewayRDSRouteName. */
export function gatewayRouteName(s: Server, port: number, meta: ConfigMeta): string {
  const p = parseProtocol(s.port?.protocol ?? '');
  const bind = s.bind !== '' ? `.${s.bind}` : '';
  if (isHttp(p)) return `http.${port}${bind}`;
  if (p === 'HTTPS' && !isPassthroughServer(s)) return `https.${s.port?.number}.${s.port?.name}.${meta.name}.${meta.namespace}${bind}`;
  return '';
}

function resolvePorts(number: number, targets: readonly ServiceTarget[], legacy: boolean): number[] {
  const ports = new Set<number>();
  for (const t of targets) {
    if (legacy && t.service.labels['experimental.istio.io/disable-gateway-port-translation'] !== undefined) continue;
    if (t.port.port === number) {
      if (legacy) return [t.targetPort];
      ports.add(t.targetPort);
    }
  }
  if (ports.size === 0 && legacy) return [number];
  return [...ports];
}

function checkDuplicates(hosts: readonly string[], bind: string, known: Map<string, string>): string[] {
  const dups = hosts.filter((h) => known.has(h) && known.get(h) === bind);
  if (dups.length === 0) for (const h of hosts) known.set(h, bind);
  return dups;
}

function canMergeProtocols(current: string, p: string): boolean {
  const c = parseProtocol(current);
  const n = parseProtocol(p);
  return (isHttp(c) || c === n) && isHttp(n);
}

/** The merged gateway of a gateway proxy, or undefined when no Gateway applies. */
export function mergedGateway(push: PushContext, proxy: Proxy, targets: readonly ServiceTarget[]): MergedGateway | undefined {
  const selected: { meta: ConfigMeta; servers: readonly Server[]; legacy: boolean; instances: readonly ServiceTarget[] }[] = [];
  for (const gw of push.gateways) {
    const ann = gw.meta.annotations[GATEWAY_SERVICE_ANNOTATION];
    if (ann !== undefined) {
      const known = new Set(ann.split(','));
      const ns = gw.meta.annotations['internal.istio.io/parent-namespace'] || gw.meta.namespace;
      const matching = targets.filter((t) => known.has(t.service.hostname) && t.service.namespace === ns);
      if (matching.length > 0) selected.push({ meta: gw.meta, servers: gw.spec.servers, legacy: false, instances: matching });
    } else if (Object.keys(gw.spec.selector).length === 0 || selectorMatches(gw.spec.selector, proxy.labels)) {
      selected.push({ meta: gw.meta, servers: gw.spec.servers, legacy: true, instances: targets });
    }
  }
  if (selected.length === 0) return undefined;
  const out: MergedGateway = {
    serverPorts: [],
    mergedServers: new Map(),
    gatewayNameForServer: new Map(),
    gatewayMetaForServer: new Map(),
    serverIndex: new Map(),
    serversByRouteName: new Map(),
    tlsServerInfo: new Map(),
    containsAutoPassthrough: false,
  };
  const gatewayPorts = new Set<number>();
  const nonPlainBinds = new Map<number, Set<string>>();
  const plainText = new Map<number, ServerPort>();
  const tlsHostsByPort = new Map<number, Map<string, string>>();
  const addPlain = (s: Server, sp: ServerPort, routeName: string) => {
    if (!isTlsServer(s)) plainText.set(sp.number, sp);
    if (isHttpServer(s)) out.serversByRouteName.set(routeName, [s]);
    out.mergedServers.set(serverPortKey(sp), { servers: [s], routeName });
    out.serverPorts.push(sp);
  };
  for (const g of selected) {
    const gatewayName = `${g.meta.namespace}/${g.meta.name}`;
    g.servers.forEach((raw, index) => {
      if (!raw.port) return;
      const s = sanitize(raw, g.meta.namespace);
      out.gatewayNameForServer.set(s, gatewayName);
      out.gatewayMetaForServer.set(s, g.meta);
      out.serverIndex.set(s, index);
      for (const resolved of resolvePorts(s.port?.number ?? 0, g.instances, g.legacy)) {
        const routeName = gatewayRouteName(s, resolved, g.meta);
        if (s.tls) {
          const known = mapAt(tlsHostsByPort, resolved);
          if (checkDuplicates(s.hosts, s.bind, known).length > 0) continue;
          out.tlsServerInfo.set(s, { sniHosts: sniHostsForServer(s), routeName });
          if (s.tls.mode === 'AUTO_PASSTHROUGH') out.containsAutoPassthrough = true;
        }
        const sp: ServerPort = { number: resolved, protocol: s.port?.protocol ?? '', bind: s.bind };
        if (gatewayPorts.has(resolved)) {
          const current = plainText.get(resolved);
          if (current) {
            if (!canMergeProtocols(sp.protocol, current.protocol) && current.bind === sp.bind) continue;
            if (routeName === '' && current.bind === sp.bind) continue;
            if (current.bind !== sp.bind) {
              const ms = out.mergedServers.get(serverPortKey(sp));
              if (!ms) addPlain(s, sp, routeName);
              else {
                ms.routeName = routeName;
                ms.servers.push(s);
                const l = out.serversByRouteName.get(routeName) ?? [];
                l.push(s);
                out.serversByRouteName.set(routeName, l);
              }
            } else {
              const ms = out.mergedServers.get(serverPortKey(current)) as MergedServers;
              ms.servers.push(s);
              const l = out.serversByRouteName.get(routeName) ?? [];
              l.push(s);
              out.serversByRouteName.set(routeName, l);
            }
          } else {
            if (!isTlsServer(s)) {
              plainText.set(resolved, sp);
              if (isHttpServer(s)) out.serversByRouteName.set(routeName, [s]);
              out.mergedServers.set(serverPortKey(sp), { servers: [s], routeName });
              out.serverPorts.push(sp);
              continue;
            }
            if (isHttpServer(s)) {
              if (routeName === '') continue;
              if (out.serversByRouteName.has(routeName)) continue;
              out.serversByRouteName.set(routeName, [s]);
            }
            let binds = nonPlainBinds.get(resolved);
            let newBind: boolean;
            if (binds) {
              newBind = !binds.has(sp.bind);
              binds.add(sp.bind);
            } else {
              nonPlainBinds.set(resolved, (binds = new Set([sp.bind])));
              newBind = true;
            }
            if (!s.tls && !newBind) continue;
            const ms = out.mergedServers.get(serverPortKey(sp));
            if (!ms) {
              out.mergedServers.set(serverPortKey(sp), { servers: [s], routeName: '' });
              out.serverPorts.push(sp);
            } else ms.servers.push(s);
          }
        } else {
          gatewayPorts.add(resolved);
          addPlain(s, sp, routeName);
        }
      }
    });
  }
  return out;
}
