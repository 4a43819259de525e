// SPIFFE ids in certificates, read as Istio reads them (pkg/spiffe ParseIdentity): after
// `spiffe://` the text splits on `/` into exactly five parts, `ns` second and `sa` fourth;
// empty values pass. (config/identity.ts builds ids for pods; this is the certificate side.)

export interface SpiffeId {
  uri: string;
  /** `spiffe://<td>/ns/<ns>/sa/<sa>`, which Istio's authorization can match. */
  istioIdentityFormat: boolean;
  /** The URI's host (what istioctl shows as TRUST DOMAIN), also for other path shapes. */
  trustDomain: string;
  namespace?: string;
  serviceAccount?: string;
}

export const SPIFFE_PREFIX = 'spiffe://';

export function parseSpiffeUri(uri: string): SpiffeId {
  // ParseIdentity: `!strings.HasPrefix(s, URIPrefix)` is not an identity.
  if (!uri.startsWith(SPIFFE_PREFIX)) return { uri, istioIdentityFormat: false, trustDomain: '' };
  const rest = uri.slice(SPIFFE_PREFIX.length);
  const split = rest.split('/');
  const trustDomain = split[0] ?? '';
  if (split.length === 5 && split[1] === 'ns' && split[3] === 'sa') {
    return { uri, istioIdentityFormat: true, trustDomain, namespace: split[2]!, serviceAccount: split[4]! };
  }
  return { uri, istioIdentityFormat: false, trustDomain };
}

/** Whether a trust domain is the mesh's or one of its aliases (Istio compares exactly). */
export function trustDomainAccepted(td: string, trustDomain: string, aliases: readonly string[]): boolean {
  return td === trustDomain || aliases.includes(td);
}

/** Go's url.Parse(...).Host of a `spiffe://` URI, as istioctl's TRUST DOMAIN column reads it. */
export function spiffeHost(uri: string): string {
  const rest = uri.slice(SPIFFE_PREFIX.length);
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const at = authority.lastIndexOf('@');
  return at < 0 ? authority : authority.slice(at + 1);
}
