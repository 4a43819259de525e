import { describe, expect, it } from 'vitest';
import { compileLabelSelector, compiledMatches, webhookSelectorMatches } from '../../../../src/core/config/labelSelector.ts';
import { goParseIP, goUrlHostname } from '../../../../src/core/config/addresses.ts';
import { injectorConfigMapName, injectorProxyImage } from '../../../../src/core/config/injector.ts';
import type { Resource } from '../../../../src/core/document/types.ts';

describe('webhook label selectors', () => {
  it('matches like Kubernetes: absent selects all, empty selects all, invalid selects nothing', () => {
    expect(webhookSelectorMatches(undefined, {})).toBe(true);
    expect(webhookSelectorMatches({}, { a: 'b' })).toBe(true);
    expect(webhookSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, { a: 'b' })).toBe(false);
    expect(webhookSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'Equals', values: ['b'] }] }, { a: 'b' })).toBe(false);
    expect(webhookSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['b'] }] }, { a: 'b' })).toBe(false);
    expect(webhookSelectorMatches({ matchLabels: { 'bad key!': 'x' } }, { 'bad key!': 'x' })).toBe(false);
  });

  it('evaluates In, NotIn, Exists and DoesNotExist', () => {
    const sel = compileLabelSelector({
      matchLabels: { tier: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'NotIn', values: ['prod'] },
        { key: 'istio.io/rev', operator: 'DoesNotExist' },
        { key: 'team', operator: 'Exists' },
      ],
    });
    expect(sel).toBeTruthy();
    expect(compiledMatches(sel!, { tier: 'web', team: 'x' })).toBe(true);
    expect(compiledMatches(sel!, { tier: 'web', team: 'x', env: 'prod' })).toBe(false);
    expect(compiledMatches(sel!, { tier: 'web', team: 'x', 'istio.io/rev': 'a' })).toBe(false);
    expect(compiledMatches(sel!, { tier: 'web' })).toBe(false);
  });
});

describe('webhook URLs', () => {
  it("extracts the host name as Go's net/url does, and rejects what it rejects", () => {
    expect(goUrlHostname('https://istiod.example.com:15017/inject')).toEqual({ ok: true, hostname: 'istiod.example.com' });
    expect(goUrlHostname('https://user@[fd00::1]:443/x')).toEqual({ ok: true, hostname: 'fd00::1' });
    expect(goUrlHostname('istiod.example.com:15017/inject')).toEqual({ ok: true, hostname: '' });
    expect(goUrlHostname('https://istiod:abc/')).toEqual({ ok: false });
    expect(goUrlHostname(':nothing')).toEqual({ ok: false });
    expect(goUrlHostname('https://a b/')).toEqual({ ok: false });
  });

  it('recognizes IP addresses', () => {
    expect(goParseIP('10.1.2.3')).toBe(true);
    expect(goParseIP('010.1.2.3')).toBe(false);
    expect(goParseIP('::ffff:10.1.2.3')).toBe(true);
    expect(goParseIP('2001:db8::')).toBe(true);
    expect(goParseIP('2001:db8:::1')).toBe(false);
    expect(goParseIP('istiod')).toBe(false);
  });
});

describe('injector ConfigMap', () => {
  const cm = (values: string): Resource => ({
    key: 'k',
    kindId: 'core/ConfigMap',
    gvk: { group: '', version: 'v1', kind: 'ConfigMap' },
    namespace: 'istio-system',
    name: 'istio-sidecar-injector',
    labels: {},
    annotations: {},
    body: { data: { values } },
  });

  it('names revision ConfigMaps and builds the proxy image like the injector template', () => {
    expect(injectorConfigMapName('')).toBe('istio-sidecar-injector');
    expect(injectorConfigMapName('default')).toBe('istio-sidecar-injector');
    expect(injectorConfigMapName('1-24')).toBe('istio-sidecar-injector-1-24');
    expect(injectorProxyImage(cm('{"global":{"hub":"h","tag":"t","proxy":{"image":"proxyv2"}}}'))).toBe('h/proxyv2:t');
    expect(injectorProxyImage(cm('{"global":{"proxy":{"image":"r.io/p:1"}}}'))).toBe('r.io/p:1');
    // Go matches struct fields case-insensitively; a wrongly typed field fails the whole decode.
    expect(injectorProxyImage(cm('{"Global":{"HUB":"h","tag":"t","proxy":{"image":"p"}}}'))).toBe('h/p:t');
    expect(injectorProxyImage(cm('{"global":{"hub":1}}'))).toBe('');
    expect(injectorProxyImage(cm('not json'))).toBe('');
  });
});
