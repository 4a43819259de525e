// Host-name rules, after Istio's pkg/config/host and analyzers/util/hosts.go: wildcard
// matching (Matches, SubsetOf) as the analyzers, validation, the Gateway API conversion and
// xDS generation all use it, namespace-qualified gateway hosts and short-name expansion.

/** Domain that Kubernetes service short names expand into (`<name>.<ns>.svc.cluster.local`). */
export const KUBE_SERVICE_DOMAIN = 'svc.cluster.local';
export const EXPORT_TO_ALL = '*';
export const EXPORT_TO_LOCAL = '.';
/** The special VirtualService gateway name for sidecars. */
export const MESH_GATEWAY = 'mesh';

/** host.Name.IsWildCarded: the name starts with `*`. */
export function isWildcardHost(h: string): boolean {
  return h.length > 0 && h.charCodeAt(0) === 42; // '*'
}

/**
 * host.Name.Matches: the two names overlap. Equal when neither is a wildcard, otherwise by
 * suffix in either direction (`*.com` matches `a.com` and `*.b.com`; `*.a.com` does not match
 * `a.com`). Symmetric.
 */
export function hostMatches(n: string, o: string): boolean {
  const nw = isWildcardHost(n);
  const ow = isWildcardHost(o);
  if (nw && ow) return n.length < o.length ? o.slice(1).endsWith(n.slice(1)) : n.slice(1).endsWith(o.slice(1));
  if (nw) return o.endsWith(n.slice(1));
  if (ow) return n.endsWith(o.slice(1));
  return n === o;
}

/**
 * host.Name.SubsetOf: every name `n` matches is also matched by `o` (`a.b.com` and `*.b.com`
 * are subsets of `*.com`; `*.com` is no subset of a plain name). Not symmetric.
 */
export function hostSubsetOf(n: string, o: string): boolean {
  const nw = isWildcardHost(n);
  const ow = isWildcardHost(o);
  if (nw) return ow && n.length >= o.length && n.slice(1).endsWith(o.slice(1));
  if (ow) return n.endsWith(o.slice(1));
  return n === o;
}

/**
 * Gateway-style host list (`ns/host`, `*\/host` or plain `host`) reduced to the plain hosts
 * visible from `namespace`; hosts qualified with another namespace are dropped.
 */
export function hostsVisibleFromNamespace(hosts: readonly string[], namespace: string): string[] {
  const out: string[] = [];
  for (let h of hosts) {
    if (h.includes('/')) {
      const parts = h.split('/');
      if (parts[0] !== namespace && parts[0] !== '*') continue;
      h = parts[1] ?? '';
    }
    out.push(h);
  }
  return out;
}

/**
 * A short host name (no dot, not a wildcard) expanded with the namespace into a cluster
 * FQDN; anything else is returned unchanged.
 */
export function hostToFqdn(namespace: string, host: string): string {
  if (!host.startsWith('*') && !host.includes('.')) return `${host}.${namespace}.${KUBE_SERVICE_DOMAIN}`;
  return host;
}

/** `scope/fqdn` key of Istio's service-entry host map. */
export function scopedFqdn(scope: string, namespace: string, host: string): string {
  return `${scope}/${hostToFqdn(namespace, host)}`;
}

const CLUSTER_FQDN = /^(.+)\.(.+)\.svc\.cluster\.local$/;

/**
 * Istio's GetResourceNameFromHost: a cluster FQDN (`name.ns.svc.cluster.local`, greedy on
 * the name) gives its namespace and name; anything else is a name in `defaultNamespace`.
 */
export function resourceNameFromHost(defaultNamespace: string, host: string): { namespace: string; name: string } {
  const m = CLUSTER_FQDN.exec(host);
  if (m && m[1] !== undefined && m[2] !== undefined) return { namespace: m[2], name: m[1] };
  return { namespace: defaultNamespace, name: host };
}

/** A reference that is either `name` (in `defaultNamespace`) or `namespace/name`. */
export function shortOrFullName(defaultNamespace: string, ref: string): { namespace: string; name: string } {
  const slash = ref.indexOf('/');
  if (slash < 0) return { namespace: defaultNamespace, name: ref };
  return { namespace: ref.slice(0, slash), name: ref.slice(slash + 1) };
}

/** Istio's FullName.String(): `ns/name`, or `name` alone when the namespace is empty. */
export function fullNameString(namespace: string, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}
