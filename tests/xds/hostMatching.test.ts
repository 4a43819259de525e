// Host-name rules generation uses to pick config by host, from Istio's source (tag 1.30.3 and
// master 86c9f01f, identical here): pilot/pkg/model/config.go MostSpecificHostMatch /
// mostSpecificHostWildcardMatch, pkg/config/host/names.go MoreSpecific, and
// pilot/pkg/model/config.go ResolveShortnameToFQDN.
import { describe, expect, it } from 'vitest';
import { compareHostsSpecificFirst, moreSpecific, mostSpecificHostMatch, resolveShortname } from '../../src/core/xds/hostname.ts';

const m = (entries: string[]) => new Map(entries.map((h) => [h, h]));
const match = (needle: string, hosts: string[]) => {
  const specific = m(hosts.filter((h) => !h.startsWith('*')));
  const wildcard = m(hosts.filter((h) => h.startsWith('*')));
  return mostSpecificHostMatch(needle, specific, wildcard)?.host;
};

describe('MostSpecificHostMatch', () => {
  it('takes an exact host first, even with a matching wildcard', () => {
    expect(match('a.foo.com', ['*.foo.com', 'a.foo.com'])).toBe('a.foo.com');
  });

  // mostSpecificHostWildcardMatch: strings.HasSuffix(needle, h[1:]) — "*.foo.com" covers
  // "a.foo.com" and also ".foo.com" (no character needed before the dot), but not "foo.com".
  it('matches "*.foo.com" against "a.foo.com" and ".foo.com", not "foo.com"', () => {
    expect(match('a.foo.com', ['*.foo.com'])).toBe('*.foo.com');
    expect(match('.foo.com', ['*.foo.com'])).toBe('*.foo.com');
    expect(match('foo.com', ['*.foo.com'])).toBeUndefined();
  });

  // Among matching wildcards, host.MoreSpecific: the longest.
  it('prefers the longest matching wildcard', () => {
    expect(match('a.b.foo.com', ['*.com', '*.b.foo.com', '*.foo.com'])).toBe('*.b.foo.com');
    expect(match('a.x.foo.com', ['*.com', '*.b.foo.com', '*.foo.com'])).toBe('*.foo.com');
    expect(match('a.bar', ['*.com', '*.foo.com'])).toBeUndefined();
  });

  // A wildcard needle: exact key in the wildcard map first, else needle[1:] against the wildcards.
  it('matches a wildcard needle exactly, else by its suffix', () => {
    expect(match('*.foo.com', ['*.com', '*.foo.com'])).toBe('*.foo.com');
    expect(match('*.foo.com', ['*.com', '*.bar.foo.com'])).toBe('*.com');
    expect(match('*.foo.com', ['foo.com', 'a.foo.com'])).toBeUndefined();
  });

  it('matches "*" against every host', () => {
    expect(match('anything.example', ['*'])).toBe('*');
    expect(match('anything.example', ['*', '*.example'])).toBe('*.example');
  });
});

describe('host.MoreSpecific', () => {
  it('sorts non-wildcards first, then longest, then alphabetically', () => {
    expect(moreSpecific('a.com', '*.foo.com')).toBe(true);
    expect(moreSpecific('*.foo.com', 'a.com')).toBe(false);
    expect(moreSpecific('*.foo.com', '*.com')).toBe(true);
    expect(moreSpecific('b.com', 'a.com')).toBe(false);
    expect(moreSpecific('a.com', 'b.com')).toBe(true);
    expect(['*.com', 'b.com', '*.foo.com', 'a.com', 'long.a.com'].sort(compareHostsSpecificFirst)).toEqual([
      'long.a.com',
      'a.com',
      'b.com',
      '*.foo.com',
      '*.com',
    ]);
  });
});

describe('ResolveShortnameToFQDN', () => {
  it('qualifies names without a dot, and leaves "*", dotted names and IPs alone', () => {
    expect(resolveShortname('reviews', 'shop', 'cluster.local')).toBe('reviews.shop.svc.cluster.local');
    expect(resolveShortname('reviews.shop', 'shop', 'cluster.local')).toBe('reviews.shop');
    expect(resolveShortname('*', 'shop', 'cluster.local')).toBe('*');
    expect(resolveShortname('10.0.0.1', 'shop', 'cluster.local')).toBe('10.0.0.1');
    expect(resolveShortname('fd00::1', 'shop', 'cluster.local')).toBe('fd00::1');
  });
});
