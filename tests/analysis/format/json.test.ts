import { describe, expect, it } from 'vitest';
import { gatewayMsg } from './fixtures.ts';
import { formatJson } from '../../../src/core/analysis/format/json.ts';
import { goJsonString } from '../../../src/core/go/format.ts';

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

  it('escapes every UTF-16 code unit as Go does, alone and inside plain text', () => {
    // Go's encodeState.string: short escapes for \b \f \n \r \t, \u00XX for other controls,
    // HTML-safe \u003c \u003e \u0026, \u2028 \u2029, and U+FFFD for a lone surrogate.
    const short: Record<number, string> = { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\' };
    const hex4 = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;
    const expected = (c: number): string => {
      if (short[c] !== undefined) return short[c];
      if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) return hex4(c);
      if (c >= 0xd800 && c <= 0xdfff) return '\\ufffd';
      return String.fromCharCode(c);
    };
    const wrong: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      if (goJsonString(ch) !== `"${expected(c)}"`) wrong.push(hex4(c));
      if (goJsonString(`host ${ch} x`) !== `"host ${expected(c)} x"`) wrong.push(`in text ${hex4(c)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('output parses back to the same strings', () => {
    const tricky = { ...gatewayMsg, message: 'x <y> & "z"\t\u2028' };
    expect(JSON.parse(formatJson([tricky]))[0].message).toBe(tricky.message);
  });
});
