// Property tests: arbitrary text and arbitrary JSON never make the dump reader or a render throw.
// (The `config-dump` fuzz target goes further, from real dumps, with -o json/yaml agreement.)
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readConfigDump } from '../../../src/core/xds/configdump/dump.ts';
import { PROXY_CONFIG_COMMANDS, renderProxyConfig } from '../../../src/core/xds/configdump/render.ts';
import { jsonToYaml } from '../../../src/core/xds/configdump/goYaml.ts';
import { parse as parseYaml } from 'yaml';

const SECTIONS = ['Bootstrap', 'Clusters', 'Listeners', 'Routes', 'Secrets', 'Endpoints', 'Ecds'].map(
  (s) => `type.googleapis.com/envoy.admin.v3.${s}ConfigDump`,
);

/** JSON values shaped a little like dumps: sections with lists of objects with Envoy's field names. */
const dumpLike = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -1, 80, 1.5, '', 'x', 'STATIC', 'EDS', '0.0.0.0', 'outbound|80||a.b', 'BlackHoleCluster', '1s', '/'),
    fc.string(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(
      fc.constantFrom(
        'name',
        'cluster',
        'listener',
        'route_config',
        'virtual_hosts',
        'routes',
        'match',
        'prefix',
        'domains',
        'filter_chains',
        'filters',
        'typed_config',
        'address',
        'socket_address',
        'port_value',
        'active_state',
        'dynamic_active_clusters',
        'static_listeners',
        'dynamic_route_configs',
        'endpoint_config',
        'lb_endpoints',
        'endpoints',
        'secret',
        'bootstrap',
        'node',
        'metadata',
        'ecds_filters',
        'ecds_filter',
        '@type',
        'toString',
        '__proto__',
      ),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

const dumpArb = fc
  .array(fc.tuple(fc.constantFrom(...SECTIONS), fc.dictionary(fc.string({ maxLength: 30 }), dumpLike, { maxKeys: 4 })), { maxLength: 4 })
  .map((sections) => ({
    configs: sections.map(([t, body]) => ({ ...body, '@type': t })),
  }));

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

describe('config dump reading and rendering never throw', () => {
  it('reads any text to a dump or a message', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.constantFrom('{', '[', '{"configs":', 'configs: [', '\ufeff', '\u0000')), (text) => {
        const r = readConfigDump(text);
        if (!r.ok) expect(r.error).toMatch(/^error unmarshalling config dump response from Envoy: \S/);
      }),
      { numRuns: 500 },
    );
  });

  it('renders every command from dump-like JSON, as a text or an istioctl error', () => {
    fc.assert(
      fc.property(dumpArb, (value) => {
        const r = readConfigDump(JSON.stringify(value));
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        for (const command of PROXY_CONFIG_COMMANDS) {
          const out = renderProxyConfig({ dump: r.dump }, { command, output: 'short', now: new Date(0) });
          expect(typeof out.text).toBe('string');
          if (out.error !== undefined) expect(out.error).not.toMatch(/undefined|\[object /);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('writes YAML that reads back to the JSON it came from', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const json = JSON.stringify(v);
        const back = parseYaml(jsonToYaml(json));
        // Keys come back sorted, and -0 as 0: compare canonical JSON texts.
        expect(canonical(back)).toBe(canonical(JSON.parse(json)));
      }),
      { numRuns: 500 },
    );
  });
});
