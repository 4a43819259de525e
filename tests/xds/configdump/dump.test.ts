// Reading dumps defensively: any text gives a dump or one clear message.
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, readConfigDump, UNMARSHAL_PREFIX, field, jsonName } from '../../../src/core/xds/configdump/dump.ts';
import { renderProxyConfig } from '../../../src/core/xds/configdump/render.ts';

const err = (text: string) => {
  const r = readConfigDump(text);
  expect(r.ok).toBe(false);
  return r.ok ? '' : r.error.slice(UNMARSHAL_PREFIX.length);
};

describe('readConfigDump', () => {
  it('reads Envoy dumps with proto names, and lowerCamel JSON names alike', () => {
    const snake = readConfigDump(
      '{"configs":[{"@type":"type.googleapis.com/envoy.admin.v3.ClustersConfigDump","static_clusters":[{"cluster":{"name":"a","type":"STATIC"}}]}]}',
    );
    const camel = readConfigDump(
      '{"configs":[{"@type":"type.googleapis.com/envoy.admin.v3.ClustersConfigDump","staticClusters":[{"cluster":{"name":"a","type":"STATIC"}}]}]}',
    );
    for (const r of [snake, camel]) {
      expect(r.ok).toBe(true);
      if (r.ok) expect(renderProxyConfig({ dump: r.dump }, { command: 'clusters', now: new Date() }).text).toMatch(/^a +- +- +- +STATIC +\n/m);
    }
  });

  it('accepts a single section, a bare list of sections, YAML, and a byte-order mark', () => {
    for (const text of [
      '{"@type":"type.googleapis.com/envoy.admin.v3.RoutesConfigDump"}',
      '[{"@type":"type.googleapis.com/envoy.admin.v3.RoutesConfigDump"}]',
      'configs:\n- "@type": type.googleapis.com/envoy.admin.v3.RoutesConfigDump\n',
      '\ufeff{"configs":[]}',
      '{"configs":null}',
    ]) {
      expect(readConfigDump(text).ok, text).toBe(true);
    }
  });

  it('says what is wrong, with the line and column of a JSON error', () => {
    expect(err('')).toBe('the input is empty');
    expect(err('   \n ')).toBe('the input is empty');
    expect(err('{"configs": [\n  {"a": 1,}\n]}')).toMatch(/^invalid JSON at line 2, column \d+: /);
    expect(err('{"configs": 5}')).toBe('not an Envoy config dump: "configs" is number, not a list');
    expect(err('{"foo": 1}')).toMatch(/has no "configs" list/);
    expect(err('42')).toBe('not an Envoy config dump: the document is number, not an object');
    expect(err('null')).toBe('not an Envoy config dump: the document is null, not an object');
    expect(err('\u0000\u0001\u0002binary')).toBe('the input is binary, not JSON or YAML');
    expect(err('a: [b\n')).toMatch(/^neither JSON nor YAML: /);
  });

  it('refuses documents nested deeper than the limit, without overflowing the stack', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(err(deep)).toMatch(/nests deeper than/);
    const ok = `{"configs":[${'{"a":'.repeat(MAX_DEPTH - 3)}1${'}'.repeat(MAX_DEPTH - 3)}]}`;
    expect(readConfigDump(ok).ok).toBe(true);
  });

  it('skips config entries it cannot use, with a warning', () => {
    const r = readConfigDump('{"configs":[1, {"x": 1}, {"@type": "t"}]}');
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.dump.configs.map((c) => c.typeUrl)).toEqual(['t']);
      expect(r.dump.warnings).toEqual(['configs[0] is not an object; skipped', 'configs[1] has no "@type"; skipped']);
    }
  });

  it('never reads inherited properties as fields', () => {
    expect(field({}, 'constructor')).toBeUndefined();
    expect(field({}, '__proto__')).toBeUndefined();
    expect(jsonName('route_config_name')).toBe('routeConfigName');
    expect(jsonName('ipv4_compat')).toBe('ipv4Compat');
    const r = readConfigDump(
      '{"configs":[{"@type":"type.googleapis.com/envoy.admin.v3.ClustersConfigDump","static_clusters":[{"cluster":{"name":"toString","__proto__":{"x":1}}}]}]}',
    );
    expect(r.ok).toBe(true);
    if (r.ok) expect(renderProxyConfig({ dump: r.dump }, { command: 'clusters', now: new Date() }).text).toContain('toString');
  });
});
