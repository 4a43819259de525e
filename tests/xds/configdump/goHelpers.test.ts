// Go's text/tabwriter, sort.Slice, encoding/json and strconv formats, as istioctl's output depends on them.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tabwrite, tabwriteRows } from '../../../src/core/xds/configdump/tabwriter.ts';
import { goSortSlice } from '../../../src/core/xds/configdump/goSort.ts';
import { formatFloatG, goJsonFloat, goJsonString } from '../../../src/core/go/format.ts';
import { goAtoi, goLess } from '../../../src/core/xds/configdump/table.ts';

describe('tabwriter (Go text/tabwriter, pad character space, flags 0)', () => {
  it('pads every tab-terminated cell to the widest of its column plus the padding', () => {
    expect(tabwrite('a\tbb\tc\nccc\td\te\n', { padding: 2 })).toBe('a    bb  c\nccc  d   e\n');
  });

  it('writes the last cell of a line as it is, so an empty last cell leaves the padding behind', () => {
    expect(tabwrite('NAME\tX\nn\t\n', { padding: 5 })).toBe('NAME     X\nn        \n');
  });

  it('aligns a column only over the consecutive lines that have it (column blocks)', () => {
    // The line without tabs ends the block: the next lines are aligned on their own.
    expect(tabwrite('aaaa\tb\nx\ny\tz\n', { padding: 1 })).toBe('aaaa b\nx\ny z\n');
    // A shorter line in the middle ends the block of the third column only.
    expect(tabwrite('a\tb\tccc\td\nxx\ty\nz\tw\te\tf\n', { padding: 1 })).toBe('a  b ccc d\nxx y\nz  w e f\n');
  });

  it('counts runes, not UTF-16 units or bytes', () => {
    expect(tabwrite('é😀\tx\nab\ty\n', { padding: 1 })).toBe('é😀 x\nab y\n');
  });

  it('keeps a text that does not end in a newline unterminated', () => {
    expect(tabwrite('a\tb\nlast', { padding: 1 })).toBe('a b\nlast');
    expect(
      tabwriteRows(
        [
          ['h1', 'h2'],
          ['x', ''],
        ],
        { padding: 3 },
      ),
    ).toBe('h1   h2\nx    \n');
  });
});

describe('goSortSlice (Go sort.Slice: pdqsort)', () => {
  it('is an insertion sort up to 12 elements: stable, and what istioctl does with a comparator that is not an order', () => {
    // istioctl's route sort: numeric names by value, false whenever either is not numeric.
    const less = (a: string, b: string) => {
      const x = goAtoi(a);
      const y = goAtoi(b);
      return x !== undefined && y !== undefined && x < y;
    };
    expect(goSortSlice(['9080', 'inbound|8080||', '80'], less)).toEqual(['9080', 'inbound|8080||', '80']);
    expect(goSortSlice(['9080', '80', 'x', '15010', '443'], less)).toEqual(['80', '9080', 'x', '443', '15010']);
    const pairs = [
      [2, 'a'],
      [1, 'b'],
      [2, 'c'],
      [1, 'd'],
    ] as const;
    expect(
      goSortSlice([...pairs], (a, b) => a[0] < b[0])
        .map((p) => p[1])
        .join(''),
    ).toBe('bdac');
  });

  it('sorts any array of any length by a strict order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 400 }), (xs) => {
        const sorted = goSortSlice([...xs], (a, b) => a < b);
        expect(sorted).toEqual([...xs].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });

  it('handles long runs, reversed input and many duplicates (pattern breaking, heap sort fallback)', () => {
    const n = 5000;
    const reversed = Array.from({ length: n }, (_, i) => n - i);
    expect(goSortSlice(reversed, (a, b) => a < b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    const dups = Array.from({ length: n }, (_, i) => (i * 7919) % 13);
    expect(goSortSlice([...dups], (a, b) => a < b)).toEqual([...dups].sort((a, b) => a - b));
    const organ = Array.from({ length: n }, (_, i) => (i < n / 2 ? i : n - i));
    expect(goSortSlice([...organ], (a, b) => a < b)).toEqual([...organ].sort((a, b) => a - b));
  });
});

describe('Go value formats', () => {
  it('escapes strings as encoding/json does (HTML-safe, U+2028/9, invalid UTF-16 as U+FFFD)', () => {
    expect(goJsonString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goJsonString('<a href="x">&</a>')).toBe('"\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c/a\\u003e"');
    expect(goJsonString('\n\r\t\b\f\u0001\u001f\u007f')).toBe('"\\n\\r\\t\\b\\f\\u0001\\u001f\u007f"');
    expect(goJsonString('\u2028\u2029')).toBe('"\\u2028\\u2029"');
    expect(goJsonString('😀')).toBe('"😀"');
    expect(goJsonString('\ud800x')).toBe('"\\ufffdx"');
  });

  it('writes floats as encoding/json does', () => {
    expect(goJsonFloat(0.1)).toBe('0.1');
    expect(goJsonFloat(140)).toBe('140');
    expect(goJsonFloat(1e-6)).toBe('0.000001');
    expect(goJsonFloat(1e-7)).toBe('1e-7');
    expect(goJsonFloat(1.5e-10)).toBe('1.5e-10');
    expect(goJsonFloat(1e21)).toBe('1e+21');
    expect(goJsonFloat(123456789012345680000)).toBe('123456789012345680000');
    expect(goJsonFloat(-0)).toBe('-0');
    // float32 fields print the shortest decimal of the float32 value.
    expect(goJsonFloat(0.1, 32)).toBe('0.1');
    expect(goJsonFloat(0.123456789, 32)).toBe('0.12345679');
    expect(goJsonFloat(16777217, 32)).toBe('16777216');
  });

  it("formats strconv 'g' (shortest) as go-yaml writes floats", () => {
    expect(formatFloatG(0.5)).toBe('0.5');
    expect(formatFloatG(100000)).toBe('100000');
    expect(formatFloatG(1000000)).toBe('1e+06');
    expect(formatFloatG(1234567)).toBe('1.234567e+06');
    expect(formatFloatG(0.0001)).toBe('0.0001');
    expect(formatFloatG(0.00001)).toBe('1e-05');
    expect(formatFloatG(0)).toBe('0');
    expect(formatFloatG(Number.NaN)).toBe('NaN');
    expect(formatFloatG(-Infinity)).toBe('-Inf');
  });

  it('parses integers as strconv.Atoi and compares strings in UTF-8 byte order', () => {
    expect(goAtoi('+080')).toBe(80n);
    expect(goAtoi('-1')).toBe(-1n);
    expect(goAtoi('9223372036854775808')).toBeUndefined();
    expect(goAtoi('1e3')).toBeUndefined();
    expect(goAtoi('')).toBeUndefined();
    expect(goLess('B', 'a')).toBe(true);
    expect(goLess('\uffff', '😀')).toBe(true); // UTF-16 order would say otherwise
    expect(goLess('ab', 'abc')).toBe(true);
    expect(goLess('abc', 'abc')).toBe(false);
  });
});
