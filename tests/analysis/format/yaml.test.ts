import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import type { Diagnostic } from '../../../src/core/document/types.ts';
import { gatewayMsg } from './fixtures.ts';
import { formatYaml, scalarStyle, yamlMappingEntry } from '../../../src/core/analysis/format/yaml.ts';

describe('formatYaml (istioctl -o yaml)', () => {
  it('matches sigs.k8s.io/yaml output plus the Fprintln newline', () => {
    expect(formatYaml([gatewayMsg])).toBe(
      '- code: IST0101\n' +
        '  documentationUrl: https://istio.io/latest/docs/reference/config/analysis/ist0101/?ref=istioctl-analyze\n' +
        '  level: Error\n' +
        '  message: \'Referenced selector not found: "istio=ingressgateway"\'\n' +
        '  origin: Gateway default/bookinfo-gateway\n' +
        '  reference: samples/bookinfo/networking/bookinfo-gateway.yaml:9\n' +
        '\n',
    );
  });

  it('prints [] and an empty line for no messages', () => {
    expect(formatYaml([])).toBe('[]\n\n');
  });

  it('folds long strings at the first space after column 80, indented by 4', () => {
    const msg: Diagnostic = {
      level: 'Info',
      code: 'IST0102',
      message:
        "The namespace is not enabled for Istio injection. Run 'kubectl label namespace default istio-injection=enabled' to enable it, or 'kubectl label namespace default istio-injection=disabled' to explicitly mark it as not needing injection.",
      origin: 'Namespace default',
      file: 'ns.yaml',
      line: 1,
      source: 'analyzer',
    };
    const out = formatYaml([msg]);
    expect(out).toContain(
      "  message: The namespace is not enabled for Istio injection. Run 'kubectl label namespace\n" +
        "    default istio-injection=enabled' to enable it, or 'kubectl label namespace default\n" +
        "    istio-injection=disabled' to explicitly mark it as not needing injection.\n",
    );
    expect((load(out) as Array<{ message: string }>)[0]!.message).toBe(msg.message);
  });

  it('folds single-quoted strings too, doubling inner quotes', () => {
    const long = "Referenced gateway not found: 'a-really-long-gateway-name' in namespace it's-complicated and more words";
    const line = yamlMappingEntry('  ', 'message', long);
    expect(line).toBe("  message: 'Referenced gateway not found: ''a-really-long-gateway-name'' in namespace\n    it''s-complicated and more words'\n");
    expect((load(line) as { message: string }).message).toBe(long);
  });

  it('quotes the way go-yaml v2 does', () => {
    expect(scalarStyle('IST0101')).toBe('plain');
    expect(scalarStyle('https://istio.io/x/?ref=istioctl-analyze')).toBe('plain');
    expect(scalarStyle('a.yaml:12')).toBe('plain');
    expect(scalarStyle('-:3')).toBe('plain');
    expect(scalarStyle('Gateway default/gw')).toBe('plain');
    expect(scalarStyle('key: value')).toBe('single');
    expect(scalarStyle('ends with colon:')).toBe('single');
    expect(scalarStyle('- starts like a list')).toBe('single');
    expect(scalarStyle('*star')).toBe('single');
    expect(scalarStyle('"quoted"')).toBe('single');
    expect(scalarStyle('has # comment')).toBe('single');
    expect(scalarStyle('a#b')).toBe('plain');
    expect(scalarStyle(' leading')).toBe('single');
    expect(scalarStyle('---x')).toBe('single');
    expect(scalarStyle('true')).toBe('double');
    expect(scalarStyle('yes')).toBe('double');
    expect(scalarStyle('123')).toBe('double');
    expect(scalarStyle('1.5e3')).toBe('double');
    expect(scalarStyle('null')).toBe('double');
    expect(scalarStyle('')).toBe('double');
    expect(scalarStyle('2024-01-02')).toBe('double');
    expect(scalarStyle('1:20')).toBe('double');
    expect(scalarStyle('tab\there')).toBe('double');
    expect(scalarStyle('two\nlines')).toBe('literal');
    expect(scalarStyle('trailing space \nx')).toBe('double');
  });

  it('writes escapes in double quotes and literal blocks for multi-line text', () => {
    expect(yamlMappingEntry('  ', 'message', 'a\tb "c" \\ \u{1f600}')).toBe('  message: "a\\tb \\"c\\" \\\\ \\U0001F600"\n');
    expect(yamlMappingEntry('  ', 'message', '')).toBe('  message: ""\n');
    expect(yamlMappingEntry('  ', 'message', 'one\ntwo')).toBe('  message: |-\n    one\n    two\n');
    expect(yamlMappingEntry('  ', 'message', 'one\n\ntwo\n')).toBe('  message: |\n    one\n\n    two\n');
    expect(yamlMappingEntry('  ', 'message', 'one\n\n')).toBe('  message: |+\n    one\n\n');
  });

  it('round-trips every message through a YAML parser', () => {
    const msgs: Diagnostic[] = ['plain text', 'a: b', "it's", 'x\ty', 'l1\nl2', 'true', ''].map((m) => ({ ...gatewayMsg, message: m }));
    const parsed = load(formatYaml(msgs)) as Array<{ message: string }>;
    expect(parsed.map((p) => p.message)).toEqual(msgs.map((m) => m.message));
  });
});
