// Go's strconv.Quote (go/fmt.ts goQuote), where two copies once disagreed. Expected texts are
// Go 1.26's strconv.Quote.
import { describe, expect, it } from 'vitest';
import { goQuote } from '../../src/core/go/fmt.ts';

describe('strconv.Quote (go/fmt.ts)', () => {
  it('writes U+FFFD as is: unicode.IsPrint holds for it', () => {
    // strconv.Quote("\uFFFD") == `"\uFFFD"` (only an invalid byte is escaped, as \xNN).
    expect(goQuote('\ufffd')).toBe('"\ufffd"');
    expect(goQuote('a\ufffdb')).toBe('"a\ufffdb"');
  });

  it('writes a lone surrogate as the U+FFFD Go decodes it to', () => {
    // encoding/json reads "\ud800x" as "\uFFFDx"; strconv.Quote of that is `"\uFFFDx"`.
    expect(goQuote('\ud800x')).toBe('"\ufffdx"');
    expect(goQuote('\udc00\ud83d')).toBe('"\ufffd\ufffd"');
    expect(goQuote('\u{1f600}')).toBe('"\u{1f600}"');
  });

  it('escapes what unicode.IsPrint refuses, by rune', () => {
    expect(goQuote('\u0007\b\f\n\r\t\v\u0000\u007f"\\')).toBe('"\\a\\b\\f\\n\\r\\t\\v\\x00\\x7f\\"\\\\"');
    expect(goQuote('\u00ad\u2028\u{e0001}')).toBe('"\\u00ad\\u2028\\U000e0001"');
  });
});
