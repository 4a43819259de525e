// Odd input never throws: any value where a policy, a provider or an address is expected.
import { describe, expect, it } from 'vitest';
import { buildProxyAuthz, type ProxyAuthzInputs } from '../../../src/core/xds/authz/index.ts';
import { addrToCidrRange } from '../../../src/core/xds/authz/cidrRange.ts';

// A small deterministic generator (mulberry32).
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ATOMS: unknown[] = [null, 0, 1, -1, 65536, '', '*', 'a*', '*b', '1.2.3.4', '::1', '10.0.0.0/8', 'x/y', 'GET', '{*}', true, [], {}, ['*'], { a: 'b' }];
const KEYS = [
  'rules',
  'from',
  'to',
  'when',
  'source',
  'operation',
  'key',
  'values',
  'notValues',
  'principals',
  'ports',
  'paths',
  'hosts',
  'methods',
  'ipBlocks',
  'namespaces',
  'action',
  'provider',
  'name',
  'selector',
  'matchLabels',
  'targetRefs',
  'jwtRules',
  'issuer',
  'jwksUri',
  'envoyExtAuthzGrpc',
  'envoyExtAuthzHttp',
  'service',
  'port',
  'timeout',
  'statusOnError',
  'request.auth.claims[a]',
  'destination.ip',
  'experimental.envoy.filters.x[y]',
];

function value(r: () => number, depth: number): unknown {
  const pick = <T>(l: readonly T[]) => l[Math.floor(r() * l.length)] as T;
  if (depth <= 0 || r() < 0.3) return pick(ATOMS.concat(KEYS));
  if (r() < 0.5) return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth - 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 5); i > 0; i--) o[pick(KEYS)] = value(r, depth - 1);
  return o;
}

/** Plain JSON only: no undefined, NaN, functions or class instances anywhere. */
function plainJson(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(plainJson);
  if (typeof v === 'object') return Object.getPrototypeOf(v) === Object.prototype && Object.values(v as object).every(plainJson);
  return false;
}

describe('robustness', () => {
  it('addresses', () => {
    const r = rng(7);
    const chars = '0123456789abcdef:./%[]x ';
    for (let i = 0; i < 3000; i++) {
      const s = Array.from({ length: Math.floor(r() * 20) }, () => chars[Math.floor(r() * chars.length)]).join('');
      expect(() => addrToCidrRange(s)).not.toThrow();
    }
  });

  it('policies, request authentications and providers of any shape', () => {
    const r = rng(42);
    for (let i = 0; i < 400; i++) {
      const actions = ['ALLOW', 'DENY', 'AUDIT', 'CUSTOM'];
      const inputs: ProxyAuthzInputs = {
        proxy: { namespace: 'ns', labels: { a: 'b' }, type: (['sidecar', 'router', 'waypoint'] as const)[i % 3] },
        authorizationPolicies: Array.from({ length: 3 }, (_, k) => {
          const spec = value(r, 5);
          if (spec && typeof spec === 'object' && !Array.isArray(spec) && r() < 0.5) (spec as Record<string, unknown>).action = actions[k % 4];
          return { name: `p${k}`, namespace: 'ns', annotations: (r() < 0.2 ? { 'istio.io/dry-run': 'true' } : {}) as Record<string, string>, spec };
        }),
        requestAuthentications: [{ name: 'ra', namespace: 'ns', spec: value(r, 4) }],
        mesh: {
          rootNamespace: 'istio-system',
          trustDomain: 'cluster.local',
          trustDomainAliases: ['old'],
          extensionProviders: [value(r, 4), { name: 'p', envoyExtAuthzGrpc: value(r, 2) }],
        },
        services: (h) => (h === 'x/y' ? [] : [{ hostname: h, namespace: 'ns' }]),
      };
      const out = buildProxyAuthz(inputs);
      expect(plainJson([...out.http, ...out.tcp, ...out.tcpRulesAsHttp])).toBe(true);
    }
  });
});
