import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/core/document/types.ts';
import { artifactUri, buildSarif, formatSarif } from '../../../src/core/analysis/format/sarif.ts';

const vsMsg: Diagnostic = {
  level: 'Error',
  code: 'IST0101',
  message: 'Referenced host not found: "ratings-v9"',
  origin: 'VirtualService shop/ratings',
  file: 'configs\\mesh/vs.yaml',
  line: 12,
  range: { startLine: 12, startCol: 9, endLine: 12, endCol: 25 },
  source: 'analyzer',
};
const infoMsg: Diagnostic = { level: 'Info', code: 'IST0102', message: 'not injected', origin: 'Namespace shop', source: 'analyzer' };
const parseMsg: Diagnostic = {
  level: 'Error',
  code: 'MWB-YAML-SYNTAX',
  message: 'YAML syntax error: bad indentation',
  file: 'broken.yaml',
  line: 5,
  range: { startLine: 5, startCol: 3, endLine: 5, endCol: 4 },
  source: 'parser',
};

describe('formatSarif', () => {
  it('is a SARIF 2.1.0 log with one run and the tool driver', () => {
    const log = buildSarif([vsMsg], { toolVersion: '1.2.3' });
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-schema-2\.1\.0\.json$/);
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]!.tool.driver.name).toBe('mesh-workbench');
    expect(log.runs[0]!.tool.driver.version).toBe('1.2.3');
  });

  it('declares one rule per code used, with name, description, help and level', () => {
    const log = buildSarif([vsMsg, { ...vsMsg, message: 'other' }, infoMsg, parseMsg]);
    const rules = log.runs[0]!.tool.driver.rules!;
    expect(rules.map((r) => r.id)).toEqual(['IST0101', 'IST0102', 'MWB-YAML-SYNTAX']);
    expect(rules[0]).toMatchObject({
      name: 'ReferencedResourceNotFound',
      helpUri: 'https://istio.io/latest/docs/reference/config/analysis/ist0101/',
      defaultConfiguration: { level: 'error' },
    });
    expect(rules[0]!.shortDescription.text.length).toBeGreaterThan(20);
    expect(rules[1]!.defaultConfiguration).toEqual({ level: 'note' });
    expect(rules[2]).toMatchObject({ name: 'YamlSyntaxError', defaultConfiguration: { level: 'error' } });
  });

  it('maps results to levels, physical regions and logical locations', () => {
    const log = buildSarif([vsMsg, infoMsg, parseMsg]);
    const [vs, info, parse] = log.runs[0]!.results;
    expect(vs).toEqual({
      ruleId: 'IST0101',
      ruleIndex: 0,
      level: 'error',
      message: { text: 'Referenced host not found: "ratings-v9"' },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: 'configs/mesh/vs.yaml' }, region: { startLine: 12, startColumn: 9, endLine: 12, endColumn: 25 } },
          logicalLocations: [{ name: 'shop/ratings', fullyQualifiedName: 'VirtualService shop/ratings', kind: 'resource' }],
        },
      ],
    });
    expect(info!.level).toBe('note');
    expect(info!.locations).toEqual([{ logicalLocations: [{ name: 'shop', fullyQualifiedName: 'Namespace shop', kind: 'resource' }] }]);
    expect(parse!.locations![0]!.physicalLocation!.artifactLocation.uri).toBe('broken.yaml');
    expect(parse!.locations![0]!.logicalLocations).toBeUndefined();
  });

  it('uses the line alone when there is no range, and no locations without file or origin', () => {
    const log = buildSarif([
      { ...vsMsg, range: undefined },
      { level: 'Warning', code: 'IST0002', message: 'x', source: 'analyzer' },
    ]);
    expect(log.runs[0]!.results[0]!.locations![0]!.physicalLocation!.region).toEqual({ startLine: 12 });
    expect(log.runs[0]!.results[1]!.locations).toBeUndefined();
  });

  it('writes relative URIs with forward slashes, percent-encoded; absolute paths as file URIs', () => {
    expect(artifactUri('./a b/c.yaml')).toBe('a%20b/c.yaml');
    expect(artifactUri('dir\\x.yaml')).toBe('dir/x.yaml');
    expect(artifactUri('/abs/p.yaml')).toBe('file:///abs/p.yaml');
    expect(artifactUri('C:\\w\\p.yaml')).toBe('file:///C:/w/p.yaml');
  });

  it('prints JSON with a trailing newline, and an empty run for no messages', () => {
    const out = formatSarif([]);
    expect(out.endsWith('}\n')).toBe(true);
    const log = JSON.parse(out);
    expect(log.runs[0].results).toEqual([]);
    expect(log.runs[0].tool.driver.rules).toEqual([]);
  });
});
