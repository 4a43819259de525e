// The allocator of assumed addresses (derived pods, assumed cluster IPs). Expected addresses
// come from its definition: slot s of a range is host s % 254 + 1 of its /24 block s / 254,
// a first probe is the hash modulo the 65,024 slots of the range's first /16, and a taken
// slot steps to the next, round the whole range.
import { describe, expect, it } from 'vitest';
import { AddressRing, parseAddressRange, rangeAddress, rangeSlot, addressRange, type AddressRange } from '../../src/core/config/addressRing.ts';
import { DEFAULT_POD_CIDR, DEFAULT_POD_RANGE, derivePods, podCidrSetting } from '../../src/core/config/derivedWorkloads.ts';
import { addressAtHash, fnv32a } from '../../src/core/config/fnv.ts';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../src/core/config/store.ts';
import { KINDS } from '../../src/core/document/kinds.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../src/core/config/mesh/meshconfig.ts';
import { podStatus } from '../../src/core/config/api/kube.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

const SLOTS_PER_16 = 256 * 254;

/** The address of slot `s` of the /16 `a.b`, as today's allocator numbers it. */
const slot16 = (prefix: string, s: number) => `${prefix}.${Math.floor(s / 254)}.${(s % 254) + 1}`;

function range(cidr: string): AddressRange {
  const r = parseAddressRange(cidr);
  if ('error' in r) throw new Error(r.error);
  return r;
}

describe('address ranges', () => {
  it('reads an IPv4 CIDR as /24 blocks of 254 addresses', () => {
    const r = range('10.244.0.0/14');
    expect(r.base).toBe((10 << 24) + (244 << 16));
    expect(r.prefixLength).toBe(14);
    expect(r.slots).toBe(4 * SLOTS_PER_16);
    expect(range('10.1.2.0/24').slots).toBe(254);
    expect(range(' 172.16.0.0/12 ').cidr).toBe('172.16.0.0/12');
    expect(DEFAULT_POD_CIDR).toBe('10.244.0.0/14');
    expect(DEFAULT_POD_RANGE.slots).toBe(4 * SLOTS_PER_16);
  });

  it('refuses what is not an IPv4 CIDR of prefix length 24 or less, saying why', () => {
    expect(parseAddressRange('10.244.0.0')).toEqual({ error: '"10.244.0.0" is not an IPv4 CIDR (like 10.244.0.0/14)' });
    expect(parseAddressRange('fd00::/64')).toEqual({ error: '"fd00::/64" is not an IPv4 CIDR (like 10.244.0.0/14)' });
    expect(parseAddressRange('10.300.0.0/16')).toEqual({ error: '"10.300.0.0/16" is not an IPv4 CIDR (like 10.244.0.0/14)' });
    expect(parseAddressRange('10.244.0.0/33')).toEqual({ error: '"10.244.0.0/33" is narrower than a /24 (its prefix length must be at most 24)' });
    expect(parseAddressRange('10.244.0.0/25')).toEqual({ error: '"10.244.0.0/25" is narrower than a /24 (its prefix length must be at most 24)' });
    expect(parseAddressRange('10.244.1.0/14')).toEqual({ error: '"10.244.1.0/14" has host bits set (the network is 10.244.0.0/14)' });
    expect(podCidrSetting(undefined)).toBe(DEFAULT_POD_RANGE);
    expect(podCidrSetting('')).toBe(DEFAULT_POD_RANGE);
    expect(podCidrSetting('10.0.0.0/28')).toEqual({ error: 'invalid pod CIDR: "10.0.0.0/28" is narrower than a /24 (its prefix length must be at most 24)' });
  });

  it('numbers slots block by block, skipping .0 and .255, and reads addresses back', () => {
    const r = DEFAULT_POD_RANGE;
    const cases: Array<[number, string]> = [
      [0, '10.244.0.1'],
      [253, '10.244.0.254'],
      [254, '10.244.1.1'],
      [SLOTS_PER_16 - 1, '10.244.255.254'],
      [SLOTS_PER_16, '10.245.0.1'],
      [4 * SLOTS_PER_16 - 1, '10.247.255.254'],
    ];
    for (const [slot, ip] of cases) {
      expect(rangeAddress(r, slot)).toBe(ip);
      expect(rangeSlot(r, ip)).toBe(slot);
    }
    for (const outside of ['10.243.255.254', '10.248.0.1', '10.244.0.0', '10.244.0.255', '10.244.00.1', 'fd00::1', ''])
      expect(rangeSlot(r, outside)).toBeUndefined();
  });
});

describe('the address ring', () => {
  it("gives today's /16 addresses while no probe passes the end of the first /16", () => {
    const ring = new AddressRing(DEFAULT_POD_RANGE);
    const taken = new Set<string>();
    // The seeds of 3,000 pods, then again (every second one collides with its first address).
    const hashes = Array.from({ length: 3000 }, (_, i) => fnv32a(`ns-${i % 7}/pod-${i}`));
    for (const h of [...hashes, ...hashes]) {
      const expected = addressAtHash('10.244', h, taken);
      expect(ring.take(h)).toBe(expected);
    }
    // Directly from the definition: the first probe is the hash modulo 65,024.
    const fresh = new AddressRing(DEFAULT_POD_RANGE);
    expect(fresh.take(0)).toBe('10.244.0.1');
    expect(fresh.take(SLOTS_PER_16)).toBe('10.244.0.2');
    expect(fresh.take(2 * SLOTS_PER_16 + 254)).toBe('10.244.1.1');
    expect(fresh.take(12_345)).toBe(slot16('10.244', 12_345));
  });

  it('continues past the end of the first /16 into the next ones, and from the last slot back to the first', () => {
    const ring = new AddressRing(DEFAULT_POD_RANGE);
    const last = SLOTS_PER_16 - 1;
    expect(ring.take(last)).toBe('10.244.255.254');
    expect(ring.take(last)).toBe('10.245.0.1');
    expect(ring.take(last)).toBe('10.245.0.2');
    // The /24 of 254 hosts: the same hash goes round it.
    const small = new AddressRing(range('192.168.7.0/24'));
    expect(small.take(253)).toBe('192.168.7.254');
    expect(small.take(253)).toBe('192.168.7.1');
    expect(small.take(253 + 254)).toBe('192.168.7.2');
  });

  it('never fails past 65,024 addresses, and gives each once', () => {
    const ring = new AddressRing(DEFAULT_POD_RANGE);
    const n = 100_000;
    const seen = new Set<string>();
    let secondOn = 0;
    let failed = 0;
    for (let i = 0; i < n; i++) {
      const ip = ring.take(fnv32a(`ns-${i % 20}/svc-${i}-v1-abc-${i % 3}`));
      if (ip === '') failed++;
      seen.add(ip);
      if (!ip.startsWith('10.244.')) secondOn++;
    }
    expect(failed).toBe(0);
    expect(seen.size).toBe(n);
    expect(ring.taken).toBe(n);
    // At least the 100,000 - 65,024 that the first /16 cannot hold are past it, all in the /14.
    expect(secondOn).toBeGreaterThanOrEqual(n - SLOTS_PER_16);
    expect([...seen].filter((ip) => rangeSlot(DEFAULT_POD_RANGE, ip) === undefined)).toEqual([]);
  });

  it('skips reserved addresses of its range and ignores others', () => {
    const ring = new AddressRing(DEFAULT_POD_RANGE);
    ring.reserveAddress('10.244.0.1');
    ring.reserveAddress('10.245.0.1');
    ring.reserveAddress('192.168.0.1');
    ring.reserveAddress('10.244.0.1');
    expect(ring.taken).toBe(2);
    expect(ring.take(0)).toBe('10.244.0.2');
    expect(ring.take(SLOTS_PER_16 - 1)).toBe('10.244.255.254');
    expect(ring.take(SLOTS_PER_16 - 1)).toBe('10.245.0.2');
  });

  it('gives every address of a /24 once, then none', () => {
    const r = range('10.9.8.0/24');
    const ring = new AddressRing(r);
    ring.reserveAddress('10.9.8.100');
    const got = new Set<string>();
    for (let i = 0; i < 253; i++) got.add(ring.take(i * 7919));
    expect(got.size).toBe(253);
    expect(got.has('10.9.8.100')).toBe(false);
    for (let host = 1; host <= 254; host++) if (host !== 100) expect(got.has(`10.9.8.${host}`)).toBe(true);
    expect(ring.takeSlot(5)).toBe(-1);
    expect(ring.take(5)).toBe('');
    expect(ring.taken).toBe(254);
  });

  it('first-probes within the whole range when it is narrower than a /16', () => {
    const r = range('172.16.0.0/20');
    expect(r.slots).toBe(16 * 254);
    const ring = new AddressRing(r);
    const h = 987_654_321;
    const s = h % (16 * 254);
    expect(ring.take(h)).toBe(`172.16.${Math.floor(s / 254)}.${(s % 254) + 1}`);
  });
});

describe('derived pods in the configured pod CIDR', () => {
  const deployment = (name: string, replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: shop}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: app, image: example.org/${name}:1}]}
`;

  function storeOf(text: string, podCidr?: AddressRange): ResourceStore {
    const model = new WorkspaceModel(kindProblems);
    model.update([{ path: 'a.yaml', text }], []);
    return new ResourceStore(model.resources(), {
      mode: 'cli',
      defaultNamespace: 'default',
      includePlaceholders: false,
      deriveWorkloads: true,
      meshConfig: defaultMeshConfig(),
      meshNetworks: defaultMeshNetworks(),
      ...(podCidr ? { podCidr } : {}),
    });
  }

  const derivedPods = (text: string, podCidr?: AddressRange) =>
    storeOf(text, podCidr)
      .list(KINDS.Pod)
      .filter((p) => p.synthetic === 'derived');

  it('addresses pods by the hash of namespace/name in 10.244.0.0/16 by default', () => {
    const pods = derivedPods(deployment('web', 3));
    expect(pods).toHaveLength(3);
    const taken = new Set<string>();
    for (const p of pods) expect(podStatus(p).podIP).toBe(addressAtHash('10.244', fnv32a(`shop/${p.name}`), taken));
  });

  it('honours a configured pod CIDR', () => {
    const r = addressRange('100.64.0.0/22');
    const pods = derivedPods(deployment('web', 5), r);
    expect(pods).toHaveLength(5);
    const want = new Set<number>();
    for (const p of pods) {
      const ip = podStatus(p).podIP;
      expect(ip).toMatch(/^100\.64\.[0-3]\.\d+$/);
      // The first probe, or a later slot when an earlier pod holds it.
      const first = fnv32a(`shop/${p.name}`) % (4 * 254);
      const slot = rangeSlot(r, ip)!;
      expect((slot - first + r.slots) % r.slots).toBeLessThan(5);
      want.add(slot);
    }
    expect(want.size).toBe(5);
  });

  it('leaves pods past a full pod CIDR without an address', () => {
    // 14 controllers of 20 replicas (the most derived) in a /24 of 254 addresses.
    const text = Array.from({ length: 14 }, (_, i) => deployment(`app-${i}`, 20)).join('---\n');
    const store = storeOf(text);
    // derivePods itself, in derivation order.
    const pods = derivePods({ view: store, pods: [], nodes: [], podRange: addressRange('10.1.2.0/24') });
    expect(pods).toHaveLength(280);
    const ips = pods.map((p) => podStatus(p).podIP);
    const given = ips.filter((ip) => ip !== '');
    expect(given).toHaveLength(254);
    expect(new Set(given).size).toBe(254);
    // Allocation is in derivation order: the first 254 pods get the addresses.
    expect(ips.slice(0, 254).every((ip) => ip.startsWith('10.1.2.'))).toBe(true);
    expect(ips.slice(254).every((ip) => ip === '')).toBe(true);
  });
});
