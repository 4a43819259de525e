// EnvoyFilter selection and proxy matching, transcribed from Istio's
// pilot/pkg/model/envoyfilter_test.go (TestEnvoyFilterMatch, TestConvertEnvoyFilter) and
// pilot/pkg/model/push_context_test.go (TestEnvoyFilters, TestEnvoyFilterOrder,
// TestEnvoyFilterOrderAcrossNamespaces).
import { describe, expect, it } from 'vitest';
import { envoyFilterWrapper, type EnvoyFilterWrapper } from '../../../src/core/xds/envoyfilter/wrapper.ts';
import { mergeEnvoyFilters, mergeFromIndex, proxyMatches } from '../../../src/core/xds/envoyfilter/select.ts';
import type { Resource } from '../../../src/core/document/types.ts';
import { proxyOf } from './helpers.ts';

function resource(name: string, namespace: string, spec: unknown, creationTimestamp?: string): Resource {
  return {
    key: `networking.istio.io/EnvoyFilter/${namespace}/${name}`,
    kindId: 'networking.istio.io/EnvoyFilter',
    name,
    namespace,
    labels: {},
    annotations: {},
    body: { metadata: { name, namespace, ...(creationTimestamp ? { creationTimestamp } : {}) }, spec },
  } as unknown as Resource;
}

const wrap = (name: string, namespace: string, spec: unknown, ts?: string): EnvoyFilterWrapper => envoyFilterWrapper(resource(name, namespace, spec, ts));

describe('TestEnvoyFilterMatch', () => {
  const cases: { name: string; version: string; prefix: boolean; matches: Record<string, boolean> }[] = [
    {
      name: 'version prefix match',
      version: '^1\\.19.*',
      prefix: true,
      matches: { '1.19': true, '1.19.0': true, '1.19-dev.foo': true, '1.5': false, '11.19': false, 'foo1.19': false },
    },
    {
      name: 'version prefix mismatch',
      version: '1\\.19.*',
      prefix: false,
      matches: { '1.19': true, '1.19.0': true, '1.19-dev.foo': true, '1.5': false, '11.19': true, 'foo1.19': true },
    },
    { name: 'non-numeric', version: 'foobar', prefix: false, matches: { '1.19': false, '1.19.0': false, '1.19-dev.foo': false, foobar: true } },
    { name: 'proxy version too long', version: 'a{100}'.repeat(200), prefix: false, matches: { '1.19': false, '1.19.0': false, foobar: false, '': false } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const w = wrap('f', 'ns', { configPatches: [{ patch: {}, match: { proxy: { proxyVersion: c.version } } }] });
      expect(w.patches).toHaveLength(1);
      const p = w.patches[0]!;
      expect(p.applyTo).toBe('INVALID');
      expect(p.proxyVersion.kind === 'prefix').toBe(c.prefix);
      for (const [ver, want] of Object.entries(c.matches)) {
        // describeProxy fills an empty version with its default; set it after.
        const proxy = { ...proxyOf(), istioVersion: ver };
        expect(proxyMatches(proxy, p), ver).toBe(want);
      }
    });
  }
});

describe('TestConvertEnvoyFilter', () => {
  it('keeps the valid patches and drops the one whose value has an unresolvable type', () => {
    const w = wrap('test', 'testns', {
      configPatches: [
        { patch: {}, match: { proxy: { proxyVersion: 'foobar' } } },
        { patch: { operation: 'MERGE', value: { statPrefix: 'bar' } }, match: { proxy: { proxyVersion: 'foobar' } }, applyTo: 'HTTP_ROUTE' },
        {
          patch: {
            operation: 'MERGE',
            value: { typed_per_filter_config: { 'envoy.filters.http.ratelimit': { '@type': 'type.googleapis.com/thisisaninvalidtype' } } },
          },
          match: { proxy: { proxyVersion: 'foobar' } },
          applyTo: 'HTTP_ROUTE',
        },
      ],
    });
    expect(w.name).toBe('test');
    expect(w.namespace).toBe('testns');
    expect(w.patches.filter((p) => p.applyTo === 'INVALID')).toHaveLength(1);
    expect(w.patches.filter((p) => p.applyTo === 'HTTP_ROUTE')).toHaveLength(1);
  });
});

describe('TestEnvoyFilters', () => {
  const v14 = { proxy: { proxyVersion: '1\\.4.*' } };
  const envoyFilters = [
    wrap('ef1', 'test-ns', { workloadSelector: { labels: { app: 'v1' } }, configPatches: [{ applyTo: 'LISTENER', match: v14, patch: {} }] }),
    wrap('ef2', 'test-ns', { workloadSelector: { labels: { app: 'v1' } }, configPatches: [{ applyTo: 'CLUSTER', match: v14, patch: {} }] }),
    wrap('ef-with-target-ref', 'test-ns', {
      targetRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'gateway-1' }],
      configPatches: [{ applyTo: 'CLUSTER', match: v14, patch: {} }],
    }),
    wrap('ef-for-waypoint', 'test-ns', {
      targetRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'waypoint' }],
      configPatches: [{ applyTo: 'CLUSTER', patch: {} }],
    }),
  ];
  const rootEnvoyFilters = [
    wrap('ef-gatewayclass-root', 'istio-system', {
      targetRefs: [{ group: 'gateway.networking.k8s.io', kind: 'GatewayClass', name: 'istio-waypoint' }],
      configPatches: [{ applyTo: 'HTTP_FILTER', match: v14, patch: {} }],
    }),
  ];
  // The test's hand-built index puts the test-ns filters under istio-system too.
  const index = new Map([
    ['istio-system', [...envoyFilters, ...rootEnvoyFilters]],
    ['test-ns', envoyFilters],
  ]);
  const gw = 'gateway.networking.k8s.io/gateway-name';
  const cases: {
    name: string;
    labels: Record<string, string>;
    version: string;
    ns: string;
    type: 'sidecar' | 'router' | 'waypoint';
    listener: number;
    cluster: number;
    http: number;
  }[] = [
    { name: 'proxy matches two envoyfilters', labels: { app: 'v1' }, version: '1.4.0', ns: 'test-ns', type: 'sidecar', listener: 2, cluster: 2, http: 0 },
    {
      name: 'proxy in root namespace matches an envoyfilter',
      labels: { app: 'v1' },
      version: '1.4.0',
      ns: 'istio-system',
      type: 'sidecar',
      listener: 1,
      cluster: 1,
      http: 0,
    },
    { name: 'proxy matches no envoyfilter', labels: { app: 'v2' }, version: '1.4.0', ns: 'test-ns', type: 'sidecar', listener: 0, cluster: 0, http: 0 },
    { name: 'proxy matches envoyfilter in root ns', labels: { app: 'v1' }, version: '1.4.0', ns: 'test-n2', type: 'sidecar', listener: 1, cluster: 1, http: 0 },
    {
      name: 'proxy version matches no envoyfilters',
      labels: { app: 'v1' },
      version: '1.3.0',
      ns: 'test-ns',
      type: 'sidecar',
      listener: 0,
      cluster: 0,
      http: 0,
    },
    // The Go proxy has no type (neither sidecar nor waypoint semantics matter here but "not a waypoint").
    { name: 'proxy matched target ref', labels: { [gw]: 'gateway-1' }, version: '1.4.0', ns: 'test-ns', type: 'router', listener: 0, cluster: 2, http: 0 },
    { name: 'waypoint matched', labels: { [gw]: 'waypoint' }, version: '1.4.0', ns: 'test-ns', type: 'waypoint', listener: 0, cluster: 2, http: 1 },
    {
      name: 'waypoint matched gatewayclass in root namespace',
      labels: { [gw]: 'istio-waypoint' },
      version: '1.4.0',
      ns: 'test-ns',
      type: 'waypoint',
      listener: 0,
      cluster: 0,
      http: 1,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const m = mergeFromIndex(index, proxyOf({ labels: c.labels, istioVersion: c.version, configNamespace: c.ns, type: c.type }), 'istio-system');
      expect(m.byApplyTo.get('LISTENER')?.length ?? 0).toBe(c.listener);
      expect(m.byApplyTo.get('CLUSTER')?.length ?? 0).toBe(c.cluster);
      expect(m.byApplyTo.get('HTTP_FILTER')?.length ?? 0).toBe(c.http);
    });
  }
});

describe('TestEnvoyFilterOrder', () => {
  const ctime = '2024-05-01T10:00:00Z';
  const later = '2024-05-01T10:00:05Z';
  const spec = (priority?: number) => ({
    ...(priority !== undefined ? { priority } : {}),
    configPatches: [{ patch: {}, match: { proxy: { proxyVersion: 'foobar' } } }],
  });
  const all = [
    wrap('default-priority', 'testns-1', spec()),
    wrap('default-priority', 'testns', spec()),
    wrap('b-medium-priority', 'testns-1', spec(10), ctime),
    wrap('a-medium-priority', 'testns-1', spec(10), ctime),
    wrap('b-medium-priority', 'testns', spec(10), ctime),
    wrap('a-medium-priority', 'testns', spec(10), ctime),
    wrap('a-low-priority', 'testns', spec(20), later),
    wrap('b-low-priority', 'testns', spec(20), ctime),
    wrap('high-priority', 'testns', spec(-1)),
    wrap('super-high-priority', 'testns', spec(-10)),
  ];
  const orderIn = (ns: string) =>
    mergeEnvoyFilters(all, proxyOf({ configNamespace: ns, istioVersion: 'foobar' }), '').filters.map((f) => `${f.namespace}/${f.name}`);
  it('orders each namespace by priority, creation time, then name', () => {
    expect(orderIn('testns')).toEqual([
      'testns/super-high-priority',
      'testns/high-priority',
      'testns/default-priority',
      'testns/a-medium-priority',
      'testns/b-medium-priority',
      'testns/b-low-priority',
      'testns/a-low-priority',
    ]);
    expect(orderIn('testns-1')).toEqual(['testns-1/default-priority', 'testns-1/a-medium-priority', 'testns-1/b-medium-priority']);
  });
});

describe('TestEnvoyFilterOrderAcrossNamespaces', () => {
  it('priority wins over the root namespace', () => {
    const filters = [
      wrap('filter-1', 'test-ns', {
        priority: -5,
        configPatches: [
          { applyTo: 'HTTP_FILTER', patch: { operation: 'INSERT_BEFORE', value: { name: 'filter-1' } }, match: { proxy: { proxyVersion: 'foobar' } } },
        ],
      }),
      wrap('filter-2', 'istio-system', {
        priority: -1,
        configPatches: [
          { applyTo: 'HTTP_FILTER', patch: { operation: 'INSERT_BEFORE', value: { name: 'filter-2' } }, match: { proxy: { proxyVersion: 'foobar' } } },
        ],
      }),
    ];
    const m = mergeEnvoyFilters(filters, proxyOf({ configNamespace: 'test-ns', labels: { app: 'v1' }, istioVersion: 'foobar' }), 'istio-system');
    expect((m.byApplyTo.get('HTTP_FILTER') ?? []).map((p) => p.fullName)).toEqual(['test-ns/filter-1', 'istio-system/filter-2']);
  });
});
