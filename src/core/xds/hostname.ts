// Host names as xDS generation orders and resolves them (pkg/config/host, pilot/pkg/model):
// specificity order, the most specific match in host-keyed maps, and short-name resolution
// of hosts in config objects. Matching itself (Matches, SubsetOf) is in config/hosts.ts.
import { isWildcardHost } from '../config/hosts.ts';
import { isIP } from './net.ts';

/** host.MoreSpecific: non-wildcards first, then longer, then alphabetical. */
export function moreSpecific(a: string, b: string): boolean {
  if (a.length === 0 && b.length === 0) return true;
  const aw = isWildcardHost(a);
  const bw = isWildcardHost(b);
  if (aw && !bw) return false;
  if (!aw && bw) return true;
  if (a.length === b.length) return a < b;
  return a.length > b.length;
}

/** A comparator for host.Names sort (most specific first). */
export function compareHostsSpecificFirst(a: string, b: string): number {
  if (a === b) return 0;
  return moreSpecific(a, b) ? -1 : 1;
}

/**
 * model.MostSpecificHostMatch over an exact-host map and a wildcard-host map (the keys of
 * `wildcard` all start with `*`).
 */
export function mostSpecificHostMatch<V>(
  needle: string,
  specific: ReadonlyMap<string, V>,
  wildcard: ReadonlyMap<string, V>,
): { host: string; value: V } | undefined {
  if (isWildcardHost(needle)) {
    const v = wildcard.get(needle);
    if (v !== undefined) return { host: needle, value: v };
    return mostSpecificWildcard(needle.slice(1), wildcard);
  }
  const v = specific.get(needle);
  if (v !== undefined) return { host: needle, value: v };
  return mostSpecificWildcard(needle, wildcard);
}

function mostSpecificWildcard<V>(needle: string, wildcard: ReadonlyMap<string, V>): { host: string; value: V } | undefined {
  let best: { host: string; value: V } | undefined;
  for (const [h, v] of wildcard) {
    if (needle.endsWith(h.slice(1))) {
      if (!best || moreSpecific(h, best.host)) best = { host: h, value: v };
    }
  }
  return best;
}

/**
 * model.ResolveShortnameToFQDN: `*` and IPs unchanged; a name without a dot gets the config
 * namespace, and `.svc.<domain>` when the object carries a domain.
 */
export function resolveShortname(hostname: string, namespace: string, domainSuffix: string): string {
  if (hostname === '' || hostname === '*' || isIP(hostname)) return hostname;
  if (hostname.includes('.')) return hostname;
  let out = hostname;
  if (namespace !== '') out += `.${namespace}`;
  if (domainSuffix !== '') out += `.svc.${domainSuffix}`;
  return out;
}

/** model.resolveGatewayName: `name` → `ns/name`; legacy `name.ns.svc…` → `ns/name`; `./name` → `ns/name`. */
export function resolveGatewayName(gw: string, namespace: string): string {
  if (!gw.includes('/')) {
    if (!gw.includes('.')) return `${namespace}/${gw}`;
    const i = gw.indexOf('.');
    const rest = gw.slice(i + 1);
    const j = rest.indexOf('.');
    return j < 0 ? `${rest}/${gw.slice(0, i)}` : `${rest.slice(0, j)}/${gw.slice(0, i)}`;
  }
  const slash = gw.indexOf('/');
  if (gw.slice(0, slash) === '.') return `${namespace}/${gw.slice(slash + 1)}`;
  return gw;
}
