// Virtual host domains of a sidecar's outbound route configuration (httproute.go
// generateVirtualHostDomains, GenerateAltVirtualHosts; spec §1.5).
import { ipv6Compliant, domainName } from '../names.ts';
import { isIP, isIPv4, isIPv6 } from '../net.ts';

/** What the domain list reads of a service. */
export interface DomainService {
  hostname: string;
  aliases?: readonly { hostname: string; namespace?: string }[];
  resolution: string;
  registry: string;
  defaultAddress: string;
  clusterVips: Readonly<Record<string, readonly string[]>>;
  autoAllocatedV4?: string;
  autoAllocatedV6?: string;
}

/** What the domain list reads of a proxy. */
export interface DomainProxy {
  dnsDomain: string;
  clusterId: string;
  ipAddresses: readonly string[];
  type: string;
  dnsCapture?: boolean;
}

export interface DomainFlags {
  absoluteFqdn: boolean;
  dualStack: boolean;
  autoAllocate: boolean;
}

/** Port 0: do not add `:port` variants (sidecar route configs ignore the port in host matching). */
const NO_PORT = 0;

function appendDomainPort(domains: string[], domain: string, port: number): void {
  if (port === NO_PORT) domains.push(ipv6Compliant(domain));
  else domains.push(ipv6Compliant(domain), domainName(domain, port));
}

function removeSvcNamespace(domain: string): string {
  const i = domain.indexOf('.svc.');
  return i > 0 ? domain.slice(i) : domain;
}

function altHostsForKubernetesService(hostname: string, port: number, proxyDomain: string): string[] {
  const before = proxyDomain.slice(0, proxyDomain.indexOf('.svc.'));
  const ih = hostname.indexOf('.svc.');
  if (ih <= 0) return [];
  const ns = hostname.indexOf('.');
  if (ns + 1 >= hostname.length || ns + 1 > ih) return [];
  const name = hostname.slice(0, ns);
  const nsName = hostname.slice(0, ih);
  const out: string[] = [];
  if (hostname.slice(ns + 1, ih) === before) {
    appendDomainPort(out, name, port);
    appendDomainPort(out, `${nsName}.svc`, port);
    appendDomainPort(out, nsName, port);
    return out;
  }
  appendDomainPort(out, nsName, port);
  appendDomainPort(out, `${nsName}.svc`, port);
  return out;
}

/** GenerateAltVirtualHosts: the other Host headers a service is reached by from the proxy's domain. */
export function altVirtualHosts(hostname: string, port: number, proxyDomain: string, absoluteFqdn: boolean): string[] {
  const vhosts: string[] = [];
  if (absoluteFqdn) {
    if (!isIP(hostname)) vhosts.push(`${hostname}.`);
    if (port !== NO_PORT) vhosts.push(domainName(`${hostname}.`, port));
  }
  if (proxyDomain.includes('.svc.')) {
    if (hostname.endsWith(removeSvcNamespace(proxyDomain))) vhosts.push(...altHostsForKubernetesService(hostname, port, proxyDomain));
    return vhosts;
  }
  const fqdn = hostname.split('.').reverse();
  const pd = proxyDomain.split('.').reverse();
  const shared: string[] = [];
  for (let i = 0; i < Math.min(fqdn.length, pd.length); i++) {
    if (fqdn[i] === pd[i]) shared.push(fqdn[i] as string);
    else break;
  }
  if (shared.length === 0) return vhosts;
  const unique = fqdn.slice(shared.length).reverse();
  const sharedParts = shared.reverse();
  const uniqueHost = unique.join('.');
  appendDomainPort(vhosts, uniqueHost, port);
  if (unique.length === 2) appendDomainPort(vhosts, `${uniqueHost}.${sharedParts[0]}`, port);
  return vhosts;
}

function filterByFamily(addrs: readonly string[], v4: boolean, v6: boolean): string[] {
  return addrs.filter((a) => (v4 && isIPv4(a)) || (v6 && isIPv6(a)));
}

function proxyFamilies(p: DomainProxy): { v4: boolean; v6: boolean; dual: boolean } {
  const v4 = p.ipAddresses.some(isIPv4);
  const v6 = p.ipAddresses.some(isIPv6);
  if (!v4 && !v6) return { v4: true, v6: false, dual: false };
  return { v4, v6, dual: v4 && v6 };
}

/** Service.GetAllAddressesForProxy. */
export function allAddressesForProxy(s: DomainService, p: DomainProxy, flags: DomainFlags): string[] {
  const fam = proxyFamilies(p);
  let addresses: string[] = [];
  if (p.clusterId !== '') addresses = [...(s.clusterVips[p.clusterId] ?? [])];
  const usesAuto = (p.dnsCapture === true || p.type === 'waypoint') && flags.autoAllocate;
  if (addresses.length === 0 && usesAuto) {
    if (s.autoAllocatedV4) addresses.push(s.autoAllocatedV4);
    if (s.autoAllocatedV6) addresses.push(s.autoAllocatedV6);
  }
  if (!flags.dualStack || !fam.dual) addresses = filterByFamily(addresses, fam.v4, fam.v6);
  if (addresses.length > 0) return addresses;
  const a = s.defaultAddress;
  if (a !== '') {
    if (Object.keys(s.clusterVips).length > 0) {
      const f = filterByFamily([a], fam.v4, fam.v6);
      return f;
    }
    return [a];
  }
  return [];
}

/** Service.GetAddressForProxy: the first VIP of the proxy's cluster (of its IP family), else the default address. */
export function addressForProxy(s: DomainService, p: DomainProxy, flags: DomainFlags): string {
  const fam = proxyFamilies(p);
  if (p.clusterId !== '') {
    const a = filterByFamily(s.clusterVips[p.clusterId] ?? [], fam.v4, fam.v6);
    if (a.length > 0) return a[0] as string;
  }
  const usesAuto = (p.dnsCapture === true || p.type === 'waypoint') && flags.autoAllocate;
  if (usesAuto && s.defaultAddress === '0.0.0.0') {
    if (fam.v4 && s.autoAllocatedV4) return s.autoAllocatedV4;
    if (fam.v6 && s.autoAllocatedV6) return s.autoAllocatedV6;
  }
  return s.defaultAddress;
}

/** Service.GetExtraAddressesForProxy. */
export function extraAddressesForProxy(s: DomainService, p: DomainProxy, flags: DomainFlags): string[] {
  const all = allAddressesForProxy(s, p, flags);
  return all.length > 1 ? all.slice(1) : [];
}

/**
 * generateVirtualHostDomains: the domains of a service's virtual host, and the expanded short
 * names among them (for de-duplication against real FQDNs). `listenerPort` 0 (http_proxy)
 * keeps `:port` variants.
 */
export function virtualHostDomains(
  s: DomainService,
  listenerPort: number,
  port: number,
  p: DomainProxy,
  flags: DomainFlags,
): { domains: string[]; altHosts: string[] } {
  if (listenerPort !== 0) port = NO_PORT;
  const domains: string[] = [];
  const altHosts: string[] = [];
  for (const h of [s.hostname, ...(s.aliases ?? []).map((a) => a.hostname)]) {
    const alt = altVirtualHosts(h, port, p.dnsDomain, flags.absoluteFqdn);
    appendDomainPort(domains, h, port);
    domains.push(...alt);
    altHosts.push(...alt);
  }
  if (s.resolution === 'Passthrough' && s.registry === 'Kubernetes') {
    const n = domains.length;
    for (let i = 0; i < n; i++) domains.push(`*.${domains[i]}`);
  }
  for (const a of allAddressesForProxy(s, p, flags)) {
    if (a.length > 0 && a !== '0.0.0.0') appendDomainPort(domains, a, port);
  }
  return { domains, altHosts };
}
