import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/model/types.ts';
import { gatewayMsg } from './fixtures.ts';
import { formatJson, goJsonString } from '../../src/core/analysis/format/json.ts';


describe('formatJson (istioctl -o json)', () => {
  it('writes MarshalIndent with tabs, sorted keys and a trailing newline', () => {
    expect(formatJson([gatewayMsg])).toBe(
      '[\n' +
        '\t{\n' +
        '\t\t"code": "IST0101",\n' +
        '\t\t"documentationUrl": "https://istio.io/latest/docs/reference/config/analysis/ist0101/?ref=istioctl-analyze",\n' +
        '\t\t"level": "Error",\n' +
        '\t\t"message": "Referenced selector not found: \\"istio=ingressgateway\\"",\n' +
        '\t\t"origin": "Gateway default/bookinfo-gateway",\n' +
        '\t\t"reference": "samples/bookinfo/networking/bookinfo-gateway.yaml:9"\n' +
        '\t}\n' +
        ']\n',
    );
  });

  it('prints [] for no messages', () => {
    expect(formatJson([])).toBe('[]\n');
  });

  it('omits origin and reference when there is no resource', () => {
    const out = formatJson([{ level: 'Warning', code: 'IST0002', message: 'Deprecated: x', source: 'analyzer' }]);
    expect(out).toBe(
      '[\n\t{\n\t\t"code": "IST0002",\n' +
        '\t\t"documentationUrl": "https://istio.io/latest/docs/reference/config/analysis/ist0002/?ref=istioctl-analyze",\n' +
        '\t\t"level": "Warning",\n\t\t"message": "Deprecated: x"\n\t}\n]\n',
    );
  });

  it('omits reference for resources without a file, and prints only the path for JSON files', () => {
    const noFile = formatJson([{ ...gatewayMsg, file: undefined, line: undefined }]);
    expect(noFile).toContain('"origin": "Gateway default/bookinfo-gateway"\n\t}');
    expect(noFile).not.toContain('"reference"');
    const json = formatJson([{ ...gatewayMsg, file: 'gw.json', line: undefined }]);
    expect(json).toContain('\t\t"reference": "gw.json"\n');
  });

  it('separates several messages with commas', () => {
    const out = formatJson([gatewayMsg, { ...gatewayMsg, code: 'IST0132', level: 'Warning' }]);
    expect(out).toContain('\t},\n\t{\n\t\t"code": "IST0132"');
    expect(JSON.parse(out)).toHaveLength(2);
  });

  it("uses Go's HTML-safe escaping", () => {
    expect(goJsonString('a<b>&c')).toBe('"a\\u003cb\\u003e\\u0026c"');
    expect(goJsonString('line\u2028sep\u2029')).toBe('"line\\u2028sep\\u2029"');
    expect(goJsonString('tab\there\nnl\r\u0001\u001b\b\f')).toBe('"tab\\there\\nnl\\r\\u0001\\u001b\\b\\f"');
    expect(goJsonString('q"b\\')).toBe('"q\\"b\\\\"');
    expect(goJsonString('caf\u00e9 \u{1f600}')).toBe('"caf\u00e9 \u{1f600}"');
    expect(goJsonString('lone \ud800')).toBe('"lone \\ufffd"');
  });

  it('output parses back to the same strings', () => {
    const tricky = { ...gatewayMsg, message: 'x <y> & "z"\t\u2028' };
    expect(JSON.parse(formatJson([tricky]))[0].message).toBe(tricky.message);
  });
});
