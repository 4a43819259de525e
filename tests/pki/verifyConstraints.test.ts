// Name constraints in src/core/pki/verify.ts against Go 1.26's constraints.go (issue #28: the
// survivors of reports/mutation/pki.nofuzz.nostatic.group-e): empty and wildcard DNS
// constraints, IP ranges (IPv4 against IPv4, IPv6 against IPv6, the bit after the prefix),
// URI hosts as url.Parse gives them (parseURIs), every SAN checked, and the link view's
// goNameConstraintsError. Expected values come from /usr/local/go/src/crypto/x509/constraints.go.
import { describe, expect, it } from 'vitest';
import { goNameConstraintsError } from '../../src/core/pki/verify.ts';
import { EKU, intermediate, issue, leaf, root, verify, type NameSpec } from './pkiBuilder.ts';

const NAME_PREFIX = 'x509: a root or intermediate certificate is not authorized to sign for this name: ';
const notPermitted = (type: string, name: string) => `${NAME_PREFIX}${type} ${JSON.stringify(name)} is not permitted by any constraint`;
const excludedBy = (type: string, name: string, c: string) => `${NAME_PREFIX}${type} ${JSON.stringify(name)} is excluded by constraint ${JSON.stringify(c)}`;

/** Root → intermediate with the constraints → leaf with the SANs; Go's error or null. */
async function constrained(nc: { permitted?: NameSpec[]; excluded?: NameSpec[] }, leafSan: NameSpec[]): Promise<string | null> {
  const r = await root();
  const i = await intermediate(r, 'CN=Constrained', { nameConstraints: nc });
  const l = await leaf(i, { san: leafSan });
  return (await verify(l, { roots: [r], intermediates: [i] })).error;
}

describe('DNS — newDNSConstraints / dnsConstraints.query (constraints.go:321-377)', () => {
  // `for _, n := range l { if len(n) == 0 { return &dnsConstraints{all: true} } }`; query then
  // returns ("", true): every name is permitted, or excluded by the constraint "".
  it('an empty permitted DNS constraint permits every name', async () => {
    expect(await constrained({ permitted: [{ dns: '' }] }, [{ dns: 'anything.org' }])).toBeNull();
  });
  it('an empty excluded DNS constraint excludes every name, naming the constraint ""', async () => {
    expect(await constrained({ excluded: [{ dns: '' }] }, [{ dns: 'a.example.com' }])).toBe(excludedBy('DNS name', 'a.example.com', ''));
  });

  // parentConstraints (excluded only): trimFirstLabel of each constraint; a wildcard SAN is
  // excluded when its own trimFirstLabel is one of them.
  it("a wildcard SAN is excluded only when its parent domain is an excluded name's parent", async () => {
    expect(await constrained({ excluded: [{ dns: 'bad.example.com' }] }, [{ dns: '*.other.org' }])).toBeNull();
    expect(await constrained({ excluded: [{ dns: 'bad.example.com' }] }, [{ dns: '*.Example.COM' }])).toBe(
      excludedBy('DNS name', '*.Example.COM', 'bad.example.com'),
    );
  });
  it('single-label names have no parent: "*" is not excluded by "foo" or "x*"', async () => {
    // trimFirstLabel("foo") == "" is skipped; trimFirstLabel("*") == "" is looked up and not found.
    expect(await constrained({ excluded: [{ dns: 'foo' }] }, [{ dns: '*' }])).toBeNull();
    expect(await constrained({ excluded: [{ dns: 'x*' }] }, [{ dns: '*' }])).toBeNull();
  });
  it('the wildcard rule is for excluded subtrees only: permitted a.example.com does not admit *.example.com', async () => {
    expect(await constrained({ permitted: [{ dns: 'a.example.com' }] }, [{ dns: '*.example.com' }])).toBe(notPermitted('DNS name', '*.example.com'));
  });
  it('rfc822Name constraints do not constrain DNS names (each type has its own constraints)', async () => {
    expect(await constrained({ permitted: [{ email: 'example.com' }] }, [{ dns: 'other.org' }])).toBeNull();
  });
});

describe('IP — newIPNetConstraints / ipConstraints.query / net.IPNet.Contains (constraints.go:149-205)', () => {
  it('the prefix bits decide, not the bit after them: 10.0.0.0/8 contains 10.128.0.1', async () => {
    expect(await constrained({ permitted: [{ ip: '10.0.0.0/8' }] }, [{ ip: '10.128.0.1' }])).toBeNull();
    expect(await constrained({ permitted: [{ ip: '10.0.0.0/9' }] }, [{ ip: '10.128.0.1' }])).toBe(notPermitted('IP address', '10.128.0.1'));
  });
  // An IPv4 SAN is only queried against the IPv4 ranges; with none (`c == nil`) it is not found,
  // and the permitted set as a whole is not nil, so it is not permitted.
  it('an IPv4 SAN is not permitted by the IPv6 range ::/0', async () => {
    expect(await constrained({ permitted: [{ ip: '::/0' }] }, [{ ip: '10.1.2.3' }])).toBe(notPermitted('IP address', '10.1.2.3'));
    expect(await constrained({ permitted: [{ ip: '::/0' }] }, [{ ip: '2001:db8::1' }])).toBeNull();
  });
  it('IPv6 ranges: 2001:db8::/32 contains 2001:db8:ffff::1, not 2001:db9::1', async () => {
    expect(await constrained({ permitted: [{ ip: '2001:db8::/32' }] }, [{ ip: '2001:db8:ffff::1' }])).toBeNull();
    expect(await constrained({ permitted: [{ ip: '2001:db8::/32' }] }, [{ ip: '2001:db9::1' }])).toBe(notPermitted('IP address', '2001:db9::1'));
  });
  it('IPv6 host ranges: 2001:db8::/128 excludes 2001:db8:: only, not 2001:db8::1', async () => {
    expect(await constrained({ excluded: [{ ip: '2001:db8::/128' }] }, [{ ip: '2001:db8::1' }])).toBeNull();
    expect(await constrained({ excluded: [{ ip: '2001:db8::/128' }] }, [{ ip: '2001:db8::' }])).toBe(excludedBy('IP address', '2001:db8::', '2001:db8::/128'));
  });
  it('an IPv6 address with all eight groups written out', async () => {
    expect(await constrained({ permitted: [{ ip: '2001:db8:1:2:3:4:5:6/128' }] }, [{ ip: '2001:db8:1:2:3:4:5:6' }])).toBeNull();
    expect(await constrained({ permitted: [{ ip: '2001:db8:1:2:3:4:5:6/128' }] }, [{ ip: '2001:db8:1:2:3:4:5:7' }])).toBe(
      notPermitted('IP address', '2001:db8:1:2:3:4:5:7'),
    );
  });
});

describe('every SAN is checked — chainConstraints.check (constraints.go:480-508): IPs, then DNS names, then URIs', () => {
  it('an unconstrained IP SAN first does not end the check: the DNS name after it is refused', async () => {
    expect(await constrained({ permitted: [{ dns: 'example.com' }] }, [{ ip: '10.0.0.1' }, { dns: 'evil.org' }])).toBe(notPermitted('DNS name', 'evil.org'));
  });
  it('the second URI is checked after a permitted first one', async () => {
    expect(
      await constrained({ permitted: [{ uri: 'cluster.local' }] }, [{ uri: 'spiffe://cluster.local/ns/a/sa/b' }, { uri: 'spiffe://evil.local/ns/a/sa/b' }]),
    ).toBe(notPermitted('URI', 'spiffe://evil.local/ns/a/sa/b'));
  });
});

describe("URI hosts — parseURIs (constraints.go:577-602) over url.Parse's Host", () => {
  const permitted = { permitted: [{ uri: 'example.com' }] };
  it('a URI without a path: the whole authority is the host', async () => {
    expect(await constrained(permitted, [{ uri: 'spiffe://example.com' }])).toBeNull();
  });
  it('user info is not part of the host', async () => {
    expect(await constrained(permitted, [{ uri: 'spiffe://user@example.com/x' }])).toBeNull();
  });
  it('a port is split off (net.SplitHostPort)', async () => {
    expect(await constrained(permitted, [{ uri: 'spiffe://example.com:8443/x' }])).toBeNull();
    expect(await constrained(permitted, [{ uri: 'spiffe://evil.org:8443/x' }])).toBe(notPermitted('URI', 'spiffe://evil.org:8443/x'));
  });
  it('a scheme-relative URI has a host; a colon later in its path is no scheme', async () => {
    expect(await constrained(permitted, [{ uri: '//example.com/a:b' }])).toBeNull();
  });
  it('no authority ("urn:…") or an empty one ("spiffe:///…"): URI with empty host', async () => {
    expect(await constrained(permitted, [{ uri: 'urn:x:y' }])).toBe(`${NAME_PREFIX}URI with empty host ("urn:x:y") cannot be matched against constraints`);
    expect(await constrained(permitted, [{ uri: 'spiffe:///ns/a' }])).toBe(
      `${NAME_PREFIX}URI with empty host ("spiffe:///ns/a") cannot be matched against constraints`,
    );
  });
  // url.Parse accepts a "]" in a host that does not start with "[" (net/url encodeHost), and
  // parseURIs only calls "[…]" an IP when both brackets are there.
  it('a host ending in "]" without "[" is a name, not an IP', async () => {
    expect(await constrained({ excluded: [{ uri: 'other.org' }] }, [{ uri: 'spiffe://a]/x' }])).toBeNull();
  });
  it('a bracketed IPv6 host, with or without a port: URI with IP', async () => {
    expect(await constrained(permitted, [{ uri: 'spiffe://[::1]/x' }])).toBe(
      `${NAME_PREFIX}URI with IP ("spiffe://[::1]/x") cannot be matched against constraints`,
    );
    expect(await constrained(permitted, [{ uri: 'spiffe://[::1]:8443/x' }])).toBe(
      `${NAME_PREFIX}URI with IP ("spiffe://[::1]:8443/x") cannot be matched against constraints`,
    );
  });
});

describe("goNameConstraintsError — one CA's constraints over the certificates below it (the link view)", () => {
  it('a CA without name constraints refuses nothing', async () => {
    const r = await root();
    const l = await leaf(r, { san: [{ dns: 'evil.org' }] });
    expect(goNameConstraintsError(r.cert, [l.cert])).toBeUndefined();
  });

  it("skips certificates without a SAN extension, reports the first refused name with Go's text", async () => {
    const r = await root({ nameConstraints: { permitted: [{ dns: 'example.com' }] } });
    const noSan = await issue({ subject: 'CN=evil.org', issuer: r, eku: [EKU.serverAuth] });
    const good = await leaf(r, { san: [{ dns: 'a.example.com' }] });
    const bad = await leaf(r, { san: [{ dns: 'evil.org' }] });
    expect(goNameConstraintsError(r.cert, [noSan.cert, good.cert])).toBeUndefined();
    expect(goNameConstraintsError(r.cert, [noSan.cert, good.cert, bad.cert])).toBe(notPermitted('DNS name', 'evil.org'));
  });

  it('a URI SAN parseURIs refuses is the error', async () => {
    const r = await root({ nameConstraints: { permitted: [{ dns: 'example.com' }] } });
    const l = await leaf(r, { san: [{ dns: 'a.example.com' }, { uri: 'spiffe://10.0.0.1/ns/a/sa/b' }] });
    expect(goNameConstraintsError(r.cert, [l.cert])).toBe(`${NAME_PREFIX}URI with IP ("spiffe://10.0.0.1/ns/a/sa/b") cannot be matched against constraints`);
  });
});
