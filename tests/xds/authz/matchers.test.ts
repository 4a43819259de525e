// Matcher helpers, IP canonicalisation, trust-domain bundles and durations.
import { describe, expect, it } from 'vitest';
import { headerMatcher, hostMatcher, pathTemplateMatcher, quoteMeta, stringMatcherWithPrefix, stringOrMatcher } from '../../../src/core/xds/authz/matcher.ts';
import { addrToCidrRange } from '../../../src/core/xds/authz/cidrRange.ts';
import { expandTrustDomainAliases, newBundle, replaceTrustDomainAliases } from '../../../src/core/xds/authz/trustDomain.ts';
import { formatProtoDuration, parseProtoDuration } from '../../../src/core/go/protoDuration.ts';

describe('string matchers', () => {
  it('StringMatcherWithPrefix', () => {
    expect(stringMatcherWithPrefix('*', 'spiffe://')).toEqual({ safeRegex: { regex: '.+' } });
    expect(stringMatcherWithPrefix('*x.y', 'spiffe://')).toEqual({ safeRegex: { regex: 'spiffe://.*x\\.y' } });
    expect(stringMatcherWithPrefix('*x.y', '')).toEqual({ suffix: 'x.y' });
    expect(stringMatcherWithPrefix('a*', 'p')).toEqual({ prefix: 'pa' });
    expect(stringMatcherWithPrefix('a', 'p')).toEqual({ exact: 'pa' });
  });

  it("QuoteMeta escapes Go's regexp metacharacters", () => {
    expect(quoteMeta('a.b+c*d?e(f)g|h[i]j{k}l^m$n\\o-p')).toBe('a\\.b\\+c\\*d\\?e\\(f\\)g\\|h\\[i\\]j\\{k\\}l\\^m\\$n\\\\o-p');
  });

  it('header matchers: `*` is presence, case only ignored for hosts', () => {
    expect(headerMatcher('h', '*')).toEqual({ name: 'h', presentMatch: true });
    expect(headerMatcher('h', '*x')).toEqual({ name: 'h', stringMatch: { suffix: 'x' } });
    expect(hostMatcher('h', 'x*')).toEqual({ name: 'h', stringMatch: { prefix: 'x', ignoreCase: true } });
  });

  it('one value is its own matcher, several an OR', () => {
    expect(stringOrMatcher(['a'])).toEqual({ stringMatch: { exact: 'a' } });
    expect(stringOrMatcher(['a', 'b'])).toEqual({ orMatch: { valueMatchers: [{ stringMatch: { exact: 'a' } }, { stringMatch: { exact: 'b' } }] } });
  });

  it('path templates: {*} → *, {**} → **, existing * kept', () => {
    expect(pathTemplateMatcher('/a/{*}/{**}/*/{*}x').pathTemplate).toBe('/a/*/**/*/*x');
  });
});

describe('addresses', () => {
  it('plain IPs get a full-length prefix; CIDRs keep their host bits', () => {
    expect(addrToCidrRange('10.1.2.3')).toEqual({ addressPrefix: '10.1.2.3', prefixLen: 32 });
    expect(addrToCidrRange('10.1.2.3/8')).toEqual({ addressPrefix: '10.1.2.3', prefixLen: 8 });
    expect(addrToCidrRange('0.0.0.0/0')).toEqual({ addressPrefix: '0.0.0.0', prefixLen: 0 });
  });

  it('IPv6 in canonical form', () => {
    expect(addrToCidrRange('2001:0DB8:0:0:0:0:0:1')).toEqual({ addressPrefix: '2001:db8::1', prefixLen: 128 });
    expect(addrToCidrRange('1:0:0:2:0:0:0:3/64')).toEqual({ addressPrefix: '1:0:0:2::3', prefixLen: 64 });
    expect(addrToCidrRange('1:0:0:2:3:0:0:4')).toEqual({ addressPrefix: '1::2:3:0:0:4', prefixLen: 128 });
    expect(addrToCidrRange('::')).toEqual({ addressPrefix: '::', prefixLen: 128 });
    expect(addrToCidrRange('::ffff:10.0.0.1')).toEqual({ addressPrefix: '::ffff:10.0.0.1', prefixLen: 128 });
    expect(addrToCidrRange('::1.2.3.4')).toEqual({ addressPrefix: '::102:304', prefixLen: 128 });
    expect(addrToCidrRange('fe80::1%eth0')).toEqual({ addressPrefix: 'fe80::1', prefixLen: 128 });
  });

  it("what Go's netip refuses", () => {
    for (const bad of ['', '1.2.3', '01.2.3.4', '1.2.3.4/33', '1.2.3.4/08', 'fe80::1%eth0/64', 'host', '1.2.3.4%x']) {
      expect(addrToCidrRange(bad), bad).toHaveProperty('error');
    }
  });
});

describe('trust domain bundles', () => {
  const bundle = newBundle('td1', ['cluster.local', 'old-td']);

  it('principals with wildcard trust domains are kept where they match', () => {
    expect(replaceTrustDomainAliases(bundle, ['*-td/ns/a/sa/b'])).toEqual(['td1/ns/a/sa/b', 'cluster.local/ns/a/sa/b', '*-td/ns/a/sa/b']);
    expect(replaceTrustDomainAliases(bundle, ['*/ns/a/sa/b', 'sa/b', 'unknown/ns/a/sa/b'])).toEqual(['*/ns/a/sa/b', 'sa/b', 'unknown/ns/a/sa/b']);
  });

  it('trust domain values expand to the bundle, de-duplicated', () => {
    expect(expandTrustDomainAliases(bundle, ['old-td', 'td1', 'x'])).toEqual(['td1', 'cluster.local', 'old-td', 'x']);
  });
});

describe('durations', () => {
  it('proto3 JSON form', () => {
    expect(formatProtoDuration(parseProtoDuration('0.002s') as bigint)).toBe('0.002s');
    expect(formatProtoDuration(parseProtoDuration('10s') as bigint)).toBe('10s');
    expect(formatProtoDuration(parseProtoDuration('1.5s') as bigint)).toBe('1.500s');
    expect(formatProtoDuration(parseProtoDuration('0.000001s') as bigint)).toBe('0.000001s');
    expect(formatProtoDuration(0n)).toBe('0s');
    expect(parseProtoDuration('2ms')).toBeUndefined();
  });
});
