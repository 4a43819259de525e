import { describe, expect, it } from 'vitest';
import { augmentLabels, localityToString, splitLocality } from '../../src/core/config/locality.ts';
import { resourceNameFromHost } from '../../src/core/config/hosts.ts';
import { message, nullable, list, protoEnum, string } from '../../src/core/config/shape.ts';
import { meshAutoAllocatesAddresses } from '../../src/core/config/dnsProxy.ts';
import { envoyFilter, serviceEntry, sidecar } from '../../src/core/config/api/networking.ts';
import type { Resource } from '../../src/core/document/types.ts';

const resource = (spec: unknown) => ({ body: { spec } }) as unknown as Resource;

describe('locality (pilot LocalityToString / SplitLocalityLabel / AugmentLabels)', () => {
  it('drops a subzone without a zone and splits on /', () => {
    expect(localityToString({ region: 'r', zone: '', subzone: 's' })).toBe('r');
    expect(localityToString({ region: '', zone: 'z', subzone: '' })).toBe('/z');
    expect(localityToString({ region: 'r', zone: 'z', subzone: 's' })).toBe('r/z/s');
    expect(splitLocality('')).toEqual({ region: '', zone: '', subzone: '' });
    expect(splitLocality('/z')).toEqual({ region: '', zone: 'z', subzone: '' });
    expect(splitLocality('a/b/c/d')).toEqual({ region: 'a', zone: 'b', subzone: 'c' });
  });

  it('sets non-empty topology values over the pod labels, and the network only when none is set', () => {
    const out = augmentLabels(
      { app: 'a', 'topology.kubernetes.io/zone': 'own', 'topology.istio.io/network': 'n0' },
      { locality: 'r/z', nodeName: 'node-1', clusterId: 'c1', network: 'n1' },
    );
    expect({ ...out }).toEqual({
      app: 'a',
      'topology.kubernetes.io/region': 'r',
      'topology.kubernetes.io/zone': 'z',
      'topology.istio.io/cluster': 'c1',
      'kubernetes.io/hostname': 'node-1',
      'topology.istio.io/network': 'n0',
    });
    expect({ ...augmentLabels({ toString: 'x' }, {}) }).toEqual({ toString: 'x' });
  });
});

describe('hosts: resourceNameFromHost (Istio GetResourceNameFromHost)', () => {
  it('splits cluster FQDNs greedily on the name and keeps other hosts in the default namespace', () => {
    expect(resourceNameFromHost('d', 'a.b.ns.svc.cluster.local')).toEqual({ namespace: 'ns', name: 'a.b' });
    expect(resourceNameFromHost('d', 'example.com')).toEqual({ namespace: 'd', name: 'example.com' });
  });
});

describe('shapes for proto enums and nil list items', () => {
  it('protoEnum reads names and numbers; anything else is the zero value', () => {
    const e = protoEnum(['A', 'B', 'C'] as const);
    expect([e.read('B'), e.read(2), e.read('2'), e.read(7), e.read(1.5), e.read({ toString: 'x' }), e.read(undefined)]).toEqual([
      'B',
      'C',
      'A',
      'A',
      'A',
      'A',
      'A',
    ]);
  });

  it('nullable keeps null items and reads others (even wrong-typed) as messages', () => {
    const l = list(nullable(message({ name: string })));
    expect(l.read([null, { name: 'x' }, 'str'])).toEqual([null, { name: 'x' }, { name: '' }]);
  });

  it('networking workload selectors use `labels`', () => {
    expect(serviceEntry(resource({ workloadSelector: { labels: { app: 'a' } } })).workloadSelector?.labels).toEqual({ app: 'a' });
    expect(sidecar(resource({ workload_selector: { labels: { app: 'b' } } })).workloadSelector?.labels).toEqual({ app: 'b' });
    expect(envoyFilter(resource({ workloadSelector: { labels: { app: 'c' } } })).workloadSelector?.labels).toEqual({ app: 'c' });
  });
});

describe('dnsProxy', () => {
  it('auto-allocates only with DNS capture and one of the allocation flags', () => {
    const md = (proxyMetadata: unknown) => ({ defaultConfig: { proxyMetadata } });
    expect(meshAutoAllocatesAddresses(md({ ISTIO_META_DNS_CAPTURE: 'true', ISTIO_META_DNS_AUTO_ALLOCATE: 'true' }))).toBe(true);
    expect(meshAutoAllocatesAddresses(md({ ISTIO_META_DNS_CAPTURE: 'true', PILOT_ENABLE_IP_AUTOALLOCATE: 'true' }))).toBe(true);
    expect(meshAutoAllocatesAddresses(md({ ISTIO_META_DNS_AUTO_ALLOCATE: 'true' }))).toBe(false);
    expect(meshAutoAllocatesAddresses(md('nope'))).toBe(false);
    expect(meshAutoAllocatesAddresses({ defaultConfig: { proxyMetadata: { ISTIO_META_DNS_CAPTURE: { toString: 'x' } } } })).toBe(false);
  });
});
