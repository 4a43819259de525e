// The time package's texts (go/time.ts): its own quote, and time.Parse's errors for the RFC 3339
// layouts. Expected texts are Go 1.26's (time.Parse(time.RFC3339Nano, v), time.Parse(time.RFC3339, v)).
import { describe, expect, it } from 'vitest';
import { goParseRFC3339Error, timeQuote } from '../../src/core/go/time.ts';

describe('time quote (go/time.ts)', () => {
  it('writes printable ASCII as is and any other character as \\x of its UTF-8 bytes', () => {
    expect(timeQuote('5x')).toBe('"5x"');
    expect(timeQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(timeQuote('1\u00b5s\t')).toBe('"1\\xc2\\xb5s\\x09"');
    expect(timeQuote('\u{1f600}')).toBe('"\\xf0\\x9f\\x98\\x80"');
  });
});

describe('time.Parse with RFC 3339 layouts (go/time.ts)', () => {
  const cases: Array<[string, string | undefined, string | undefined]> = [
    ['2024-02-29T12:00:00Z', undefined, undefined],
    ['2023-02-29T12:00:00Z', 'parsing time "2023-02-29T12:00:00Z": day out of range', 'parsing time "2023-02-29T12:00:00Z": day out of range'],
    ['2024-01-01T00:00:00.123456789+05:30', undefined, undefined],
    ['2024-13-01T00:00:00Z', 'parsing time "2024-13-01T00:00:00Z": month out of range', 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['2024-01-01T24:00:00Z', 'parsing time "2024-01-01T24:00:00Z": hour out of range', 'parsing time "2024-01-01T24:00:00Z": hour out of range'],
    [
      '2024-01-01T00:00:00',
      'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse "" as "Z07:00"',
      'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"',
    ],
    ['2024-01-01T00:00:00Zjunk', 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"', 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'],
    [
      '24-01-01T00:00:00Z',
      'parsing time "24-01-01T00:00:00Z" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse "24-01-01T00:00:00Z" as "2006"',
      'parsing time "24-01-01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "24-01-01T00:00:00Z" as "2006"',
    ],
    [
      '2024-01-01 00:00:00Z',
      'parsing time "2024-01-01 00:00:00Z" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse " 00:00:00Z" as "T"',
      'parsing time "2024-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"',
    ],
    [
      '2024-01-01T00:00:00+25:00',
      'parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range',
      'parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range',
    ],
    ['2024-01-01T00:00:00,5Z', undefined, undefined],
    [
      'é2024',
      'parsing time "\\xc3\\xa92024" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse "\\xc3\\xa92024" as "2006"',
      'parsing time "\\xc3\\xa92024" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xc3\\xa92024" as "2006"',
    ],
    ['2024-01-01T00:60:00Z', 'parsing time "2024-01-01T00:60:00Z": minute out of range', 'parsing time "2024-01-01T00:60:00Z": minute out of range'],
  ];
  it.each(cases)('%j', (value, nanoErr, secErr) => {
    expect(goParseRFC3339Error(value, true)).toBe(nanoErr);
    expect(goParseRFC3339Error(value, false)).toBe(secErr);
  });
});
