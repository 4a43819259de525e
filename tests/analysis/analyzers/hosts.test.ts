import { describe, expect, it } from 'vitest';
import { hostToFqdn, hostMatches, hostsVisibleFromNamespace, shortOrFullName } from '../../../src/core/config/hosts.ts';
import { selectorMatches, selectorString } from '../../../src/core/config/labels.ts';

describe('host helpers', () => {
  it('matches hosts with wildcards in either direction', () => {
    expect(hostMatches('a.com', 'a.com')).toBe(true);
    expect(hostMatches('a.com', 'b.com')).toBe(false);
    expect(hostMatches('*.com', 'a.com')).toBe(true);
    expect(hostMatches('a.com', '*.com')).toBe(true);
    expect(hostMatches('*.a.com', 'a.com')).toBe(false);
    expect(hostMatches('*', '*.a.com')).toBe(true);
    expect(hostMatches('*.b.a.com', '*.a.com')).toBe(true);
  });

  it('keeps hosts visible from a namespace and strips their prefixes', () => {
    expect(hostsVisibleFromNamespace(['ns1/a.com', '*/b.com', 'c.com', 'ns2/d.com'], 'ns1')).toEqual(['a.com', 'b.com', 'c.com']);
  });

  it('expands short names only', () => {
    expect(hostToFqdn('shop', 'cart')).toBe('cart.shop.svc.cluster.local');
    expect(hostToFqdn('shop', 'cart.shop')).toBe('cart.shop');
    expect(hostToFqdn('shop', '*')).toBe('*');
  });

  it('parses gateway references', () => {
    expect(shortOrFullName('vsns', 'gw')).toEqual({ namespace: 'vsns', name: 'gw' });
    expect(shortOrFullName('vsns', 'other/gw')).toEqual({ namespace: 'other', name: 'gw' });
  });

  it('matches equality selectors and prints them sorted', () => {
    expect(selectorMatches({}, { a: '1' })).toBe(true);
    expect(selectorMatches({ a: '1' }, { a: '1', b: '2' })).toBe(true);
    expect(selectorMatches({ a: '1', c: '3' }, { a: '1' })).toBe(false);
    expect(selectorString({ b: '2', a: '1' })).toBe('a=1,b=2');
  });
});
