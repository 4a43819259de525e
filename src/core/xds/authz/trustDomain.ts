// Trust-domain bundles (pilot/pkg/security/trustdomain): the mesh trust domain and its
// aliases, used to rewrite `principals` / `source.principal` values and expand
// `trustDomains` / `source.trustDomain` values so identities from any alias match.

/** The default trust domain, which in a principal stands for "the local trust domain". */
const CLUSTER_LOCAL = 'cluster.local';

export interface TrustDomainBundle {
  /** The mesh trust domain first, then its aliases (empty in Istio's builder unit tests). */
  readonly trustDomains: readonly string[];
}

/** trustdomain.NewBundle */
export function newBundle(trustDomain: string, aliases: readonly string[]): TrustDomainBundle {
  return { trustDomains: [trustDomain, ...aliases] };
}

function prefixMatch(a: string, pattern: string): boolean {
  if (!pattern.endsWith('*')) return false;
  return a.startsWith(pattern.slice(0, -1));
}

function suffixMatch(a: string, pattern: string): boolean {
  if (!pattern.startsWith('*')) return false;
  return a.endsWith(pattern.slice(1));
}

/** stringMatch: the pattern may be on either side. */
function stringMatch(a: string, list: readonly string[]): boolean {
  for (const s of list) {
    if (a === s || s === '*' || prefixMatch(a, s) || prefixMatch(s, a) || suffixMatch(a, s) || suffixMatch(s, a)) return true;
  }
  return false;
}

/** A principal is `<td>/ns/<ns>/sa/<sa>`: exactly five `/`-separated parts. */
function parts(principal: string): string[] | undefined {
  const p = principal.split('/');
  return p.length === 5 ? p : undefined;
}

function isTrustDomainBeingEnforced(principal: string): boolean {
  const p = parts(principal);
  return p !== undefined && p[0] !== '*';
}

function replaceTrustDomains(bundle: TrustDomainBundle, principal: string, tdFromPrincipal: string): string[] {
  const out: string[] = [];
  for (const td of bundle.trustDomains) {
    let next: string;
    if (suffixMatch(td, tdFromPrincipal)) {
      next = principal;
    } else {
      const p = parts(principal);
      if (p === undefined) continue;
      next = [td, ...p.slice(1)].join('/');
    }
    if (!out.includes(next)) out.push(next);
  }
  return out;
}

/**
 * ReplaceTrustDomainAliases: a principal whose trust domain is in the bundle (either side
 * may be a `*` pattern) or is `cluster.local` becomes one principal per bundle member;
 * others are kept. With an empty bundle, such principals disappear (as in Istio).
 */
export function replaceTrustDomainAliases(bundle: TrustDomainBundle, principals: readonly string[], log?: (msg: string) => void): string[] {
  const out: string[] = [];
  for (const principal of principals) {
    if (!isTrustDomainBeingEnforced(principal)) {
      out.push(principal);
      continue;
    }
    const td = (parts(principal) as string[])[0] as string;
    if (stringMatch(td, bundle.trustDomains) || td === CLUSTER_LOCAL) {
      out.push(...replaceTrustDomains(bundle, principal, td));
    } else {
      log?.(`Trust domain ${td} from principal ${principal} does not match the current trust domain or its aliases`);
      out.push(principal);
    }
  }
  return out;
}

/** ExpandTrustDomainAliases: a value that is a bundle member becomes the whole bundle; duplicates are dropped. */
export function expandTrustDomainAliases(bundle: TrustDomainBundle, values: readonly string[]): string[] {
  const result: string[] = [];
  for (const v of values) {
    if (bundle.trustDomains.includes(v)) result.push(...bundle.trustDomains);
    else result.push(v);
  }
  return [...new Set(result)];
}
