// Property tests for the schema validator (the fuzz harness `npm run fuzz` does not exist yet;
// these take its place): random and mutated resources of every kind never make validation
// throw, every finding is a well-formed schema finding, and a valid resource mutated by adding
// one unknown field gets exactly that field reported.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { validateResource } from '../../src/core/validation/index.ts';
import { schemaFindings } from '../../src/core/validation/schema.ts';
import { makeResource } from '../../src/core/document/resources.ts';
import { API_KINDS } from '../../src/core/config/api/crd/index.ts';

const kinds = API_KINDS.map((k) => ({ apiVersion: k.group ? `${k.group}/${k.versions[0]}` : (k.versions[0] as string), kind: k.kind }));

/** Any JSON-ish value YAML can produce, with keys likely to hit real fields. */
const key = fc.oneof(
  fc.constantFrom(
    'hosts',
    'http',
    'route',
    'destination',
    'host',
    'port',
    'number',
    'tls',
    'mode',
    'selector',
    'matchLabels',
    'rules',
    'from',
    'to',
    'servers',
    'timeout',
    'weight',
    'subsets',
    'name',
    'labels',
    'endpoints',
    'address',
    'ports',
    'jwtRules',
    'url',
    'spec',
    'metadata',
    '*',
    '',
  ),
  fc.string(),
);
const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.constantFrom('5s', '1ms', 'ISTIO_MUTUAL', 'unix:///a', '*', '0', 'http://x'),
    tie('list'),
    tie('map'),
  ),
  list: fc.array(tie('any'), { maxLength: 4 }),
  map: fc.dictionary(key, tie('any'), { maxKeys: 5 }),
}));

function wellFormed(f: { level: string; message: string; layer: string; path?: string }): boolean {
  return (
    (f.level === 'error' || f.level === 'warning') &&
    f.message.length > 0 &&
    (f.layer === 'schema' || f.layer === 'webhook') &&
    (f.path === undefined || typeof f.path === 'string')
  );
}

describe('schema validator properties', () => {
  it('never throws on random bodies of every kind, and its findings are well formed', () => {
    fc.assert(
      fc.property(fc.constantFrom(...kinds), value.map, value.any, (k, meta, spec) => {
        const r = makeResource({ apiVersion: k.apiVersion, kind: k.kind, metadata: { name: 'x', ...meta }, spec }, undefined);
        const found = validateResource(r);
        expect(found.every(wellFormed)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('reports an added unknown field, and only it, on a valid resource', () => {
    const base = {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'r' },
      spec: { hosts: ['r'], http: [{ route: [{ destination: { host: 'r' }, weight: 100 }], timeout: '5s' }] },
    };
    expect(schemaFindings(makeResource(structuredClone(base), undefined))).toEqual([]);
    const places: Array<(b: typeof base) => Record<string, unknown>> = [
      (b) => b.spec,
      (b) => b.spec.http[0] as never,
      (b) => b.spec.http[0]!.route[0] as never,
      (b) => b.spec.http[0]!.route[0]!.destination as never,
    ];
    const paths = ['spec', 'spec.http[0]', 'spec.http[0].route[0]', 'spec.http[0].route[0].destination'];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: places.length - 1 }), fc.stringMatching(/^[a-z][a-zA-Z]{2,10}z$/), (i, field) => {
        const b = structuredClone(base);
        (places[i] as (b: typeof base) => Record<string, unknown>)(b)[field] = 'x';
        const found = schemaFindings(makeResource(b, undefined));
        expect(found.map((f) => f.message)).toEqual([`unknown field "${paths[i]}.${field}"`]);
      }),
      { numRuns: 100 },
    );
  });
});
