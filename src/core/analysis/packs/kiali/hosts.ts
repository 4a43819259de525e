// Kiali's host handling (kiali/kubernetes/host.go, filters.go, istio.go), which its checkers
// share: how a host written in a resource is parsed, compared with a Service, and looked up in
// the Kubernetes service and ServiceEntry registries. Kiali does not resolve hosts the way
// istiod does; these functions reproduce Kiali's own rules, quirks included.

/** Kiali's parsed host. `completeInput` is false for `service.namespace` hosts Kiali could not place and for external names. */
export interface KialiHost {
  service: string;
  namespace: string;
  cluster: string;
  completeInput: boolean;
}

/** kubernetes.ParseHost: a short name gets the namespace; only `<svc>.<ns>.<identity domain>` is taken as an FQDN. */
export function parseHost(hostName: string, namespace: string, identityDomain: string): KialiHost {
  const parts = hostName.split('.');
  const host: KialiHost = { service: parts[0] as string, namespace: '', cluster: '', completeInput: false };
  if (parts.length > 1) {
    if (parts.length > 2 && parts.slice(2).join('.') === identityDomain) {
      host.cluster = identityDomain;
      host.completeInput = true;
      host.namespace = parts[1] as string;
    } else host.service = hostName;
  } else {
    host.namespace = namespace;
    host.cluster = identityDomain;
    host.completeInput = true;
  }
  return host;
}

/**
 * kubernetes.GetHost: like parseHost, but `<svc>.<ns>` is a service in a namespace when `<ns>` is
 * the object's namespace or a known namespace, and `<svc>.<ns>.svc` always is.
 */
export function getHost(hostName: string, namespace: string, clusterNamespaces: readonly string[] | null, identityDomain: string): KialiHost {
  const parts = hostName.split('.');
  if (parts.length === 2 && (parts[1] === namespace || (clusterNamespaces ?? []).includes(parts[1] as string)))
    return { service: parts[0] as string, namespace: parts[1] as string, cluster: identityDomain, completeInput: true };
  if (parts.length === 3 && parts[2] === 'svc')
    return { service: parts[0] as string, namespace: parts[1] as string, cluster: identityDomain, completeInput: true };
  return parseHost(hostName, namespace, identityDomain);
}

/** Host.String(): the FQDN for a complete host, the name as written otherwise. */
export function hostString(h: KialiHost): string {
  if (!h.completeInput) return h.service;
  return h.cluster !== '' ? `${h.service}.${h.namespace}.${h.cluster}` : `${h.service}.${h.namespace}`;
}

export function isWildcard(h: KialiHost): boolean {
  return h.service.startsWith('*');
}

/** kubernetes.ParseTwoPartHost: service and namespace, splitting an incomplete `svc.ns` host. */
export function parseTwoPartHost(h: KialiHost): [string, string] {
  if (!h.completeInput) {
    const parts = h.service.split('.');
    if (parts.length > 1) return [parts[0] as string, parts[1] as string];
  }
  return [h.service, h.namespace];
}

/** kubernetes.FilterByHost: whether a host written in `hostNamespace` names the Service `serviceName` of `svcNamespace`. */
export function filterByHost(host: string, hostNamespace: string, serviceName: string, svcNamespace: string, identityDomain: string): boolean {
  if (host === serviceName && hostNamespace === svcNamespace) return true;
  // `<serviceName>.<svcNamespace>`, then nothing, `.svc` or `.<identityDomain>`, compared in
  // place: checkers call this for every route of a large mesh.
  const dot = serviceName.length;
  const end = dot + 1 + svcNamespace.length;
  if (host.length < end || !host.startsWith(serviceName) || host.charCodeAt(dot) !== 46 || !host.startsWith(svcNamespace, dot + 1)) return false;
  if (host.length === end) return true;
  if (host.charCodeAt(end) !== 46) return false;
  const rest = host.length - end - 1;
  return (rest === 3 && host.startsWith('svc', end + 1)) || (rest === identityDomain.length && host.startsWith(identityDomain, end + 1));
}

/** kubernetes.HostWithinWildcardHost: `*` holds everything, `*.suffix` the names ending in `.suffix`. */
export function hostWithinWildcardHost(subdomain: string, wildcardDomain: string): boolean {
  if (wildcardDomain === '*') return true;
  if (!wildcardDomain.startsWith('*.')) return false;
  return subdomain.endsWith(wildcardDomain.slice(1));
}

/**
 * kubernetes.HasMatchingServiceEntries: a ServiceEntry host matches when the service ends with
 * it (with everything up to its `*` dropped: Kiali compares suffixes, not DNS labels).
 */
export function hasMatchingServiceEntries(service: string, serviceEntryHosts: ReadonlyMap<string, readonly string[]>): boolean {
  for (const k of serviceEntryHosts.keys()) {
    const i = k.indexOf('*');
    const key = i > -1 ? k.slice(i + 1) : k;
    if (service.endsWith(key)) return true;
  }
  return serviceEntryHosts.has(service);
}

/** An exportTo list seen from `viewer` (kubernetes.IsExportedTo): empty exports everywhere; `~` exports nowhere. */
export function isExportedTo(exportTo: readonly string[], resourceNamespace: string, viewer: string): boolean {
  if (exportTo.length === 0) return true;
  for (const e of exportTo) {
    if (e === '*') return true;
    if (e === '.') {
      if (resourceNamespace === viewer) return true;
    } else if (e !== '~' && e === viewer) return true;
  }
  return false;
}

/** The networking.istio.io/exportTo annotation, split (kubernetes.parseExportToAnnotation). */
export function parseExportToAnnotation(annotation: string): string[] {
  return annotation
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

interface KubeServiceEntry {
  exportTo: readonly string[];
  namespace: string;
}

/**
 * kubernetes.KubeServiceHosts: every Service under `<name>.<ns>.<identity domain>`,
 * `<name>.<ns>.svc` and `<name>.<ns>`, with its exportTo (annotation first, else the mesh default).
 */
export class KubeServiceHosts {
  private readonly entries = new Map<string, KubeServiceEntry>();

  constructor(
    services: readonly { name: string; namespace: string; annotations: Readonly<Record<string, string>> }[],
    identityDomain: string,
    defaultExportTo?: readonly string[],
  ) {
    for (const svc of services) {
      const ann = svc.annotations['networking.istio.io/exportTo'];
      const entry: KubeServiceEntry = {
        namespace: svc.namespace,
        exportTo: ann !== undefined ? parseExportToAnnotation(ann) : (defaultExportTo ?? []),
      };
      for (const key of [`${svc.name}.${svc.namespace}.${identityDomain}`, `${svc.name}.${svc.namespace}.svc`, `${svc.name}.${svc.namespace}`])
        this.entries.set(key, entry);
    }
  }

  hasHost(host: string): boolean {
    return this.entries.has(host);
  }

  /** The host is a Service exported to `namespace`. */
  isValidForNamespace(host: string, namespace: string): boolean {
    const e = this.entries.get(host);
    return e !== undefined && isExportedTo(e.exportTo, e.namespace, namespace);
  }
}

/** Istio's port protocol as a VirtualService route kind (kubernetes.mapPortToVirtualServiceProtocol). */
export function portProtocolAsRouteKind(protocol: string): 'http' | 'tls' | 'tcp' {
  if (protocol === 'HTTP' || protocol === 'HTTP2' || protocol === 'GRPC') return 'http';
  if (protocol === 'HTTPS' || protocol === 'TLS') return 'tls';
  return 'tcp';
}

/** kubernetes.ServiceEntryHostnames: every ServiceEntry host, with the route kinds of its ports. */
export function serviceEntryHostnames(serviceEntries: readonly { hosts: readonly string[]; portProtocols: readonly string[] }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const se of serviceEntries) {
    for (const h of se.hosts) out.set(h, [...se.portProtocols.map(portProtocolAsRouteKind), ...(out.get(h) ?? [])]);
  }
  return out;
}

/** kubernetes.HasMatchingVirtualServices: some VirtualService host names this host. */
export function hasMatchingVirtualServices(
  host: KialiHost,
  virtualServices: readonly { namespace: string; hosts: readonly string[] }[],
  identityDomain: string,
): boolean {
  const twoParts = `${host.service}.${host.namespace}`;
  const fqdn = `${host.service}.${host.namespace}.${identityDomain}`;
  const fqdnWild = `*.${host.namespace}.${identityDomain}`;
  for (const vs of virtualServices) {
    for (const vHost of vs.hosts) {
      if (vHost === '*') return true;
      if (vHost === host.service && vs.namespace === host.namespace) return true;
      if (vHost === twoParts || vHost === fqdn || vHost === fqdnWild) return true;
      const parsed = parseHost(vHost, vs.namespace, identityDomain);
      if (parsed.service === host.service && parsed.completeInput === host.completeInput && !parsed.completeInput) return true;
      if (hostWithinWildcardHost(host.service, vHost)) return true;
    }
  }
  return false;
}

/** kubernetes.ParseGatewayAsHost: `name`, `ns/name` or `name.ns[.cluster]` as a host. */
export function parseGatewayAsHost(gateway: string, currentNamespace: string, identityDomain: string): KialiHost {
  const host: KialiHost = { service: gateway, namespace: currentNamespace, cluster: identityDomain, completeInput: true };
  if (gateway.includes('.')) {
    const parts = gateway.split('.');
    host.service = parts[0] as string;
    if (parts.length > 1) {
      host.namespace = parts[1] as string;
      if (parts.length > 2) host.cluster = parts.slice(2).join('.');
    }
  } else if (gateway.includes('/')) {
    const parts = gateway.split('/');
    host.namespace = parts[0] as string;
    host.service = parts[1] as string;
  }
  return host;
}
