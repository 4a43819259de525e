// SPIFFE identities in certificates (src/core/pki/spiffe.ts) against Istio's parser,
// pkg/spiffe/spiffe.go ParseIdentity:
//
//   if !strings.HasPrefix(s, URIPrefix) { error }            // URIPrefix = "spiffe://"
//   split := strings.Split(s[URIPrefixLen:], "/")
//   if len(split) != 5 { error }
//   if split[1] != NamespaceSegment || split[3] != ServiceAccountSegment { error }   // "ns", "sa"
//   return Identity{TrustDomain: split[0], Namespace: split[2], ServiceAccount: split[4]}
//
// so: exactly five `/`-separated parts, `ns` second and `sa` fourth (case-sensitive), empty
// values accepted, the trust domain taken verbatim. Expectations follow these lines.
import { describe, expect, it } from 'vitest';
import { parseSpiffeUri, spiffeHost, trustDomainAccepted } from '../../src/core/pki/spiffe.ts';
import { leaf, root } from './pkiBuilder.ts';

const istio = (uri: string) => {
  const id = parseSpiffeUri(uri);
  return id.istioIdentityFormat ? { td: id.trustDomain, ns: id.namespace, sa: id.serviceAccount } : null;
};

describe('ParseIdentity: the accepted shape spiffe://<td>/ns/<ns>/sa/<sa>', () => {
  it('parses trust domain, namespace and service account', () => {
    expect(istio('spiffe://cluster.local/ns/shop/sa/cart')).toEqual({ td: 'cluster.local', ns: 'shop', sa: 'cart' });
  });
  it('values are taken verbatim (no case folding, dots and dashes kept)', () => {
    expect(istio('spiffe://Mesh.Example/ns/Shop-1/sa/cart.v2')).toEqual({ td: 'Mesh.Example', ns: 'Shop-1', sa: 'cart.v2' });
  });
  it('empty values pass (ParseIdentity has no emptiness check; only GenSpiffeURI refuses them)', () => {
    expect(istio('spiffe://cluster.local/ns//sa/')).toEqual({ td: 'cluster.local', ns: '', sa: '' });
    expect(istio('spiffe:///ns/a/sa/b')).toEqual({ td: '', ns: 'a', sa: 'b' });
  });
  it('the trust domain is split[0] whatever it holds (a port stays in it)', () => {
    expect(istio('spiffe://td.example:8443/ns/a/sa/b')).toEqual({ td: 'td.example:8443', ns: 'a', sa: 'b' });
  });
});

describe('ParseIdentity: segment names (split[1] != "ns" || split[3] != "sa")', () => {
  it.each([
    'spiffe://cluster.local/ns/a/sx/b',
    'spiffe://cluster.local/ns/a/SA/b',
    'spiffe://cluster.local/ns/a/serviceaccount/b',
    'spiffe://cluster.local/ns/a/s/b',
    'spiffe://cluster.local/namespace/a/sa/b',
    'spiffe://cluster.local/NS/a/sa/b',
    'spiffe://cluster.local/sa/b/ns/a',
    'spiffe://cluster.local/xx/a/yy/b',
  ])('%s is not an Istio identity', (uri) => {
    expect(istio(uri)).toBeNull();
  });
});

describe('ParseIdentity: exactly five parts (len(split) != 5)', () => {
  it.each([
    'spiffe://cluster.local/ns/a/sa',
    'spiffe://cluster.local/ns/a',
    'spiffe://cluster.local',
    'spiffe://',
    'spiffe://cluster.local/ns/a/sa/b/',
    'spiffe://cluster.local/ns/a/sa/b/extra',
    'spiffe://cluster.local//ns/a/sa/b',
    'spiffe://cluster.local/ns/a/b/sa/c',
  ])('%s is not an Istio identity', (uri) => {
    expect(istio(uri)).toBeNull();
  });
});

describe('ParseIdentity: the spiffe:// prefix (strings.HasPrefix, case-sensitive)', () => {
  it.each(['https://x/ns/a/sa/b', 'SPIFFE://cluster.local/ns/a/sa/b', 'spiffe:/cluster.local/ns/a/sa/b', 'istio://cluster.local/ns/a/sa/b'])(
    '%s is not an Istio identity',
    (uri) => {
      expect(istio(uri)).toBeNull();
    },
  );
});

describe('trust domains', () => {
  it('the mesh trust domain or an alias is accepted, compared exactly', () => {
    expect(trustDomainAccepted('cluster.local', 'cluster.local', [])).toBe(true);
    expect(trustDomainAccepted('old.local', 'cluster.local', ['old.local'])).toBe(true);
    expect(trustDomainAccepted('Cluster.local', 'cluster.local', [])).toBe(false);
    expect(trustDomainAccepted('evil-cluster.local', 'cluster.local', [])).toBe(false);
    expect(trustDomainAccepted('cluster.local.evil', 'cluster.local', ['old.local'])).toBe(false);
  });
  // istioctl reads the trust domain as url.Parse(uri).Host (userinfo dropped, port kept).
  it('spiffeHost is the URL host, for any path shape', () => {
    expect(spiffeHost('spiffe://cluster.local/ns/a/sa/b')).toBe('cluster.local');
    expect(spiffeHost('spiffe://cluster.local/workload/x')).toBe('cluster.local');
    expect(spiffeHost('spiffe://user@td.example:8443/x')).toBe('td.example:8443');
    expect(spiffeHost('spiffe://td.example?x=1')).toBe('td.example');
  });
});

describe('certificates: every spiffe:// URI SAN is read with ParseIdentity', () => {
  it('a workload certificate carries the identity; other URIs and a misspelt segment do not', async () => {
    const r = await root();
    const l = await leaf(r, {
      san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }, { uri: 'spiffe://cluster.local/ns/shop/sx/cart' }, { uri: 'https://example.com/ns/a/sa/b' }],
    });
    const ids = l.cert.facts.spiffe.map((i) => ({ uri: i.uri, ok: i.istioIdentityFormat, ns: i.namespace, sa: i.serviceAccount }));
    expect(ids).toEqual([
      { uri: 'spiffe://cluster.local/ns/shop/sa/cart', ok: true, ns: 'shop', sa: 'cart' },
      { uri: 'spiffe://cluster.local/ns/shop/sx/cart', ok: false, ns: undefined, sa: undefined },
    ]);
  });
});
