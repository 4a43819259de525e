import { describe, expect, it } from 'vitest';
import { ResourceStore, type StoreOptions } from '../../../src/core/config/store.ts';
import { KINDS } from '../../../src/core/document/kinds.ts';
import { makeResource } from '../../../src/core/document/resources.ts';
import type { Resource } from '../../../src/core/document/types.ts';
import { defaultMeshConfig, defaultMeshNetworks, mergeMeshConfig } from '../../../src/core/config/mesh/meshconfig.ts';
import { parseSuppressions, suppressedByAnnotation, suppressedBySettings } from '../../../src/core/analysis/suppress.ts';
import { goQuote, goSprintf } from '../../../src/core/go/fmt.ts';

function res(apiVersion: string, kind: string, name: string, namespace?: string, annotations?: Record<string, string>): Resource {
  return makeResource({ apiVersion, kind, metadata: { name, ...(namespace ? { namespace } : {}), ...(annotations ? { annotations } : {}) } }, undefined);
}

function store(resources: Resource[], opts: Partial<StoreOptions> = {}): ResourceStore {
  return new ResourceStore(resources, {
    mode: 'cli',
    defaultNamespace: 'default',
    includePlaceholders: false,
    meshConfig: defaultMeshConfig(),
    meshNetworks: defaultMeshNetworks(),
    ...opts,
  });
}

describe('ResourceStore', () => {
  it('defaults the namespace in CLI mode and keeps it empty in harness mode', () => {
    const svc = res('v1', 'Service', 'a');
    expect(
      store([svc])
        .list(KINDS.Service)
        .map((r) => r.namespace),
    ).toEqual(['default']);
    expect(
      store([svc], { mode: 'harness', defaultNamespace: '' })
        .list(KINDS.Service)
        .map((r) => r.namespace),
    ).toEqual(['']);
  });

  it('clears the namespace of cluster-scoped kinds', () => {
    const ns = res('v1', 'Namespace', 'shop', 'whatever');
    expect(store([ns]).find(KINDS.Namespace, '', 'shop')?.namespace).toBe('');
  });

  it('drops ignored namespaces and unknown kinds/versions', () => {
    const s = store([
      res('v1', 'Service', 'dns', 'kube-system'),
      res('v1', 'Namespace', 'kube-public'),
      res('v1', 'Service', 'ok', 'shop'),
      res('networking.istio.io/v1alpha3', 'VirtualService', 'old-but-fine', 'shop'),
      res('networking.istio.io/v9', 'VirtualService', 'future', 'shop'),
      res('example.com/v1', 'Widget', 'w', 'shop'),
    ]);
    expect(
      s
        .all()
        .map((r) => `${r.gvk.kind}/${r.name}`)
        .sort(),
    ).toEqual(['MeshConfig/meshconfig', 'MeshNetworks/meshnetworks', 'Service/ok', 'VirtualService/old-but-fine']);
  });

  it('applies the kind filter, and adds placeholders first (CLI) or last (harness)', () => {
    const mine = res('v1', 'Service', 'istio-ingressgateway', 'istio-system');
    (mine.body as { spec?: unknown }).spec = { ports: [] };
    const cli = store([mine], { includePlaceholders: true });
    // CLI: the file's Service replaces the placeholder loaded before it.
    expect(cli.find(KINDS.Service, 'istio-system', 'istio-ingressgateway')?.synthetic).toBeUndefined();
    const harness = store([mine], { mode: 'harness', defaultNamespace: '', includePlaceholders: true, kindFilter: new Set([KINDS.Service.id]) });
    expect(harness.find(KINDS.Service, 'istio-system', 'istio-ingressgateway')?.synthetic).toBe('placeholder');
    expect(harness.list(KINDS.Pod)).toEqual([]);
    expect(harness.list(KINDS.MeshConfig)).toEqual([]);
    const off = store([], { includePlaceholders: true, meshConfig: { ...defaultMeshConfig(), ingressControllerMode: 'OFF' } });
    expect(off.list(KINDS.Pod)).toEqual([]);
  });
});

describe('suppression', () => {
  it('matches annotation items exactly (no trimming) and * for everything', () => {
    const a = res('v1', 'Service', 'a', 'ns', { 'galley.istio.io/analyze-suppress': 'IST0101,IST0118' });
    expect(suppressedByAnnotation(a, 'IST0118')).toBe(true);
    expect(suppressedByAnnotation(a, 'IST0102')).toBe(false);
    const spaced = res('v1', 'Service', 'b', 'ns', { 'galley.istio.io/analyze-suppress': 'IST0101, IST0118' });
    expect(suppressedByAnnotation(spaced, 'IST0118')).toBe(false);
    expect(suppressedByAnnotation(res('v1', 'Service', 'c', 'ns', { 'galley.istio.io/analyze-suppress': '*' }), 'IST0999')).toBe(true);
  });

  it('matches -S rules as globs over the origin, including the legacy name.namespace form', () => {
    const { rules, warnings } = parseSuppressions(['IST0102=Namespace *', 'IST0107=Pod web.shop', 'bogus'], (c) => c.startsWith('IST'));
    expect(suppressedBySettings(rules, 'IST0102', 'Namespace anything')).toBe(true);
    expect(suppressedBySettings(rules, 'IST0102', 'Pod x/y')).toBe(false);
    expect(suppressedBySettings(rules, 'IST0107', 'Pod shop/web')).toBe(true);
    expect(warnings.some((w) => w.includes('legacy'))).toBe(true);
    expect(warnings.some((w) => w.includes('bogus'))).toBe(true);
  });
});

describe('Go formatting', () => {
  it('quotes like strconv.Quote', () => {
    expect(goQuote('a"b\\c\n\t')).toBe('"a\\"b\\\\c\\n\\t"');
    expect(goQuote('\u0001')).toBe('"\\x01"');
    expect(goQuote('héllo')).toBe('"héllo"');
    // unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space only.
    expect(goQuote('a b\u00a0c')).toBe('"a b\\u00a0c"');
    expect(goQuote('zero\u200bwidth\ufeff')).toBe('"zero\\u200bwidth\\ufeff"');
    expect(goQuote('\u0085\u2028')).toBe('"\\u0085\\u2028"');
    expect(goQuote('\u{1f600}\u{e0001}')).toBe('"\u{1f600}\\U000e0001"');
    expect(goQuote('日本語, ñ, ½, €')).toBe('"日本語, ñ, ½, €"');
  });

  it('renders %q, %v slices, %d and %s', () => {
    expect(goSprintf('Referenced %s not found: %q', ['host', 'a"b'])).toBe('Referenced host not found: "a\\"b"');
    expect(goSprintf('ports %v', [[80, 443]])).toBe('ports [80 443]');
    expect(goSprintf('hosts %v', [['a', 'b']])).toBe('hosts [a b]');
    expect(goSprintf('hosts %v', [[]])).toBe('hosts []');
    expect(goSprintf('%d%%', [5])).toBe('5%');
    expect(goSprintf('%s and %s', ['x'])).toBe('x and %!s(MISSING)');
  });
});

describe('mesh config merge', () => {
  it('replaces top-level fields, merges defaultConfig, providers by name and unions aliases', () => {
    const base = { ...defaultMeshConfig(), trustDomainAliases: ['a'] };
    const merged = mergeMeshConfig(base, {
      ingressService: 'my-gw',
      defaultConfig: { image: { imageType: 'distroless' } },
      extensionProviders: [
        { name: 'envoy', envoyOtelAls: {} },
        { name: 'new', zipkin: {} },
      ],
      trustDomainAliases: ['b', 'a'],
    });
    expect(merged.ingressService).toBe('my-gw');
    expect(merged.defaultConfig.image).toEqual({ imageType: 'distroless' });
    expect(merged.defaultConfig.discoveryAddress).toBe('istiod.istio-system.svc:15012');
    expect(merged.extensionProviders.map((p) => p.name)).toEqual(['prometheus', 'stackdriver', 'envoy', 'new']);
    expect(merged.extensionProviders[2]).toEqual({ name: 'envoy', envoyOtelAls: {} });
    expect(merged.trustDomainAliases).toEqual(['a', 'b']);
    expect(mergeMeshConfig(base, null)).toBe(base);
  });
});
