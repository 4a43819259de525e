import { describe, expect, it } from 'vitest';
import { validateWebhook, WEBHOOK_VALIDATORS } from '../../src/core/validation/webhook.ts';
import { goRegexpError } from '../../src/core/validation/webhook/goRegexp.ts';
import { parsePrefixError } from '../../src/core/go/netip.ts';
import { formatFloatG } from '../../src/core/go/format.ts';
import { validateResource } from '../../src/core/validation/index.ts';
import type { Resource } from '../../src/core/document/types.ts';

const run = (kind: string, spec: unknown, name = 'foo', namespace = 'bar') => {
  const id = Object.keys(WEBHOOK_VALIDATORS).find((k) => k.endsWith(`/${kind}`)) as string;
  const out = validateWebhook({ kindId: id, name, namespace, spec });
  return {
    errors: out.filter((f) => f.level === 'error').map((f) => f.message),
    warnings: out.filter((f) => f.level === 'warning').map((f) => f.message),
    findings: out,
  };
};

describe('webhook rules: Istio texts byte for byte', () => {
  it('Gateway: multierror order and the port text', () => {
    expect(run('Gateway', { servers: [{ hosts: ['foo'], port: { number: 70000, protocol: 'kafka' } }] }).errors).toEqual([
      'short names (non FQDN) are not allowed',
      'invalid protocol "kafka", supported protocols are HTTP, HTTP2, GRPC, GRPC-WEB, MONGO, REDIS, MYSQL, TCP',
      'port number 70000 must be in the range 1..65535',
      'port name must be set: number:70000 protocol:"kafka"',
    ]);
  });

  it('VirtualService: weights, durations, regexes and rule analysis, with field paths', () => {
    const r = run('VirtualService', {
      hosts: ['reviews'],
      http: [
        { route: [{ destination: { host: 'reviews' }, weight: -5 }], timeout: '0.0005s', retries: { attempts: 0, retryOn: '5xx,bogus' } },
        { match: [{ uri: { regex: 'a(b' } }], route: [{ destination: { host: 'reviews' } }], mirrorPercentage: { value: 101 } },
      ],
    });
    expect(r.errors).toEqual([
      'http retry policy configured when attempts are set to 0 (disabled)',
      '"bogus" is not a valid retryOn policy',
      'weight -5 < 0',
      'duration must be greater than 1ms',
      '"uri": error parsing regexp: missing closing ): `a(b`; Istio uses RE2 style regex-based match (https://github.com/google/re2/wiki/Syntax)',
      'mirror_percentage must have a max value of 100 (it has 101.000000)',
    ]);
    expect(r.warnings).toEqual(['virtualService rule #1 not used (route without matches defined before)']);
    const paths = r.findings.map((f) => f.path);
    expect(paths).toContain('spec.http[0].route[0].weight');
    expect(paths).toContain('spec.http[0].timeout');
    expect(paths).toContain('spec.http[1].match[0].uri');
    expect(r.findings.find((f) => f.analysis)?.analysis).toEqual({
      type: 'VirtualServiceUnreachableRule',
      rule: '#1',
      reason: 'route without matches defined before',
    });
  });

  it('reads durations as Istio reads them (time.ParseDuration), so Go forms are checked too', () => {
    const timeout = (t: string) => run('VirtualService', { hosts: ['reviews'], http: [{ route: [{ destination: { host: 'reviews' } }], timeout: t }] }).errors;
    expect(timeout('1m')).toEqual([]);
    expect(timeout('1m0.5ms')).toEqual(['only durations to ms precision are supported']);
    expect(timeout('500us')).toEqual(['duration must be greater than 1ms']);
    expect(timeout('1.0000001s')).toEqual(['only durations to ms precision are supported']);
    // Not a duration at all: the schema's to report, not ValidateDuration's.
    expect(timeout('1x')).toEqual([]);
  });

  it('AuthorizationPolicy errors carry the policy prefix; a DENY of HTTP attributes warns', () => {
    const r = run('AuthorizationPolicy', {
      action: 'DENY',
      rules: [{ to: [{ operation: { methods: ['GET'], ports: ['99999'] } }] }, { to: [{ operation: { paths: ['/a'] } }] }],
    });
    expect(r.errors).toEqual(['invalid policy foo.bar: bad port (99999): <nil>']);
    expect(r.warnings).toEqual([
      'configured AuthorizationPolicy will deny all traffic to TCP ports under its scope due to the use of only HTTP attributes in a DENY rule; it is recommended to explicitly specify the port',
    ]);
  });

  it('DestinationRule: subset traffic policy warnings are dropped as Istio drops them', () => {
    const r = run('DestinationRule', {
      host: 'reviews',
      subsets: [{ name: 'v1', trafficPolicy: { outlierDetection: { consecutiveErrors: 5 } } }],
      trafficPolicy: { outlierDetection: { consecutiveErrors: 5 } },
    });
    expect(r.warnings).toEqual(['outlier detection consecutive errors is deprecated, use consecutiveGatewayErrors or consecutive5xxErrors instead']);
  });

  it('accepts snake_case field names and enum numbers as protobuf JSON does', () => {
    expect(run('DestinationRule', { host: 'reviews', traffic_policy: { tls: { mode: 2 } } }).errors).toEqual([
      'client certificate required for mutual tls',
      'private key required for mutual tls',
    ]);
  });

  it('Go regexp syntax (RE2), not JavaScript', () => {
    expect(goRegexpError('(?=x)')).toBe('error parsing regexp: invalid or unsupported Perl syntax: `(?=`');
    expect(goRegexpError('\\1')).toBe('error parsing regexp: invalid escape sequence: `\\1`');
    expect(goRegexpError('a{1001}')).toBe('error parsing regexp: invalid repeat count: `{1001}`');
    expect(goRegexpError('\\Qa.b\\E[[:alpha:]]\\pL\\z')).toBeUndefined();
    expect(goRegexpError('[[:alphax:]]')).toBe('error parsing regexp: invalid character class range: `[:alphax:]`');
  });

  it('Go texts for addresses and floats', () => {
    expect(parsePrefixError('10.0.0.0/33')).toBe('netip.ParsePrefix("10.0.0.0/33"): prefix length out of range');
    expect(parsePrefixError('10.0.0/8')).toBe('netip.ParsePrefix("10.0.0/8"): ParseAddr("10.0.0"): IPv4 address too short');
    expect(formatFloatG(0.00001)).toBe('1e-05');
    expect(formatFloatG(1234567)).toBe('1.234567e+06');
    expect(formatFloatG(100.5)).toBe('100.5');
  });

  it('validateResource runs the webhook like istioctl analyze: name and namespace only', () => {
    const r = {
      key: 'k',
      kindId: 'networking.istio.io/Gateway',
      gvk: { group: 'networking.istio.io', version: 'v1', kind: 'Gateway' },
      namespace: 'ns',
      name: 'Bad_Name',
      labels: {},
      annotations: { 'internal.istio.io/webhook-always-reject': 'x' },
      body: { spec: { servers: [{ hosts: ['a.example.com'], port: { number: 80, name: 'http', protocol: 'HTTP' } }] } },
    } as unknown as Resource;
    expect(
      validateResource(r)
        .filter((f) => f.layer === 'webhook')
        .map((f) => f.message),
    ).toEqual(['invalid gateway name: "Bad_Name"']);
  });
});

// A small deterministic generator (no dependency): random and mutated specs never make
// validation throw, whatever types and keys they hold.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const KEYS = [
  'hosts',
  'http',
  'tcp',
  'tls',
  'route',
  'match',
  'destination',
  'host',
  'port',
  'number',
  'name',
  'servers',
  'tls',
  'mode',
  'rules',
  'from',
  'to',
  'source',
  'operation',
  'when',
  'key',
  'values',
  'selector',
  'matchLabels',
  'workloadSelector',
  'labels',
  'configPatches',
  'applyTo',
  'patch',
  'value',
  'ingress',
  'egress',
  'jwtRules',
  'jwks',
  'jwksUri',
  'trafficPolicy',
  'subsets',
  'portLevelSettings',
  'loadBalancer',
  'connectionPool',
  'outlierDetection',
  'endpoints',
  'ports',
  'resolution',
  'addresses',
  'exportTo',
  'headers',
  'uri',
  'regex',
  'prefix',
  'exact',
  'timeout',
  'retries',
  'fault',
  'abort',
  'delay',
  'mirror',
  'mirrors',
  'corsPolicy',
  'redirect',
  'rewrite',
  'tracing',
  'metrics',
  'accessLogging',
  'providers',
  'filter',
  'expression',
  'url',
  'targetRefs',
  'targetRef',
  'wasm',
  'lua',
  'template',
  'probe',
  'weight',
  'action',
  'toString',
  '__proto__',
  'constructor',
  'portLevelMtls',
  'customTags',
  'overrides',
  'tagOverrides',
];

function randomValue(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * 10);
  if (depth > 4) return ['x', 1, null, true, -1.5][Math.floor(r() * 5)];
  switch (k) {
    case 0:
      return null;
    case 1:
      return Math.floor(r() * 200000) - 1000;
    case 2:
      return r() * 1e6;
    case 3:
      return r() < 0.5;
    case 4:
      return ['', '*', 'a.b.c', '1.2.3.4/40', '[', '(?=x)', '5s', '0.0001s', '%', 'unix://', 'ISTIO_MUTUAL', 'DENY', 'CUSTOM', 'HTTP', '::1', 'ns/*'][
        Math.floor(r() * 16)
      ];
    case 5:
    case 6:
      return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      const n = Math.floor(r() * 5);
      for (let i = 0; i < n; i++) o[KEYS[Math.floor(r() * KEYS.length)] as string] = randomValue(r, depth + 1);
      return o;
    }
  }
}

describe('webhook rules never throw on bad input', () => {
  it('random specs for every kind', () => {
    const r = rng(42);
    for (let i = 0; i < 800; i++) {
      for (const kindId of Object.keys(WEBHOOK_VALIDATORS)) {
        const spec = randomValue(r, 0);
        expect(() => validateWebhook({ kindId, name: 'x', namespace: 'y', spec })).not.toThrow();
      }
    }
  });

  it('mutated corpus specs', async () => {
    const { loadCorpus } = await import('../../scripts/conformance/webhookCorpus.ts');
    const r = rng(7);
    const mutate = (v: unknown, depth: number): unknown => {
      if (r() < 0.1) return randomValue(r, depth);
      if (Array.isArray(v)) return v.map((x) => mutate(x, depth + 1));
      if (v && typeof v === 'object')
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [r() < 0.05 ? KEYS[Math.floor(r() * KEYS.length)] : k, mutate(x, depth + 1)]));
      return v;
    };
    for (const c of loadCorpus()) {
      const id = Object.keys(WEBHOOK_VALIDATORS).find((k) => k.endsWith(`/${c.kind}`)) as string;
      for (let i = 0; i < 5; i++) expect(() => validateWebhook({ kindId: id, name: 'x', namespace: 'y', spec: mutate(c.spec, 0) })).not.toThrow();
    }
  });
});
