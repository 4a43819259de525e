// Go's measures of a string, which limits in Istio and Envoy validation and Go's text layout
// use: len(s) counts UTF-8 bytes and utf8.RuneCountInString counts code points. A JS string
// can hold a lone surrogate, which Go never sees (its decoders turn it into U+FFFD): it
// counts here as that replacement character, 3 bytes and one rune. Neither encodes the text.

/** len(s) in Go: the length of the string's UTF-8 encoding. */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a surrogate pair: 4 bytes for 2 units
      i++;
    } else n += 2;
  }
  return n;
}

/** utf8.RuneCountInString: code points, a surrogate pair counting once. */
export function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    n++;
  }
  return n;
}

/** Characters unicode.IsSpace reports (Go's strings.TrimSpace trims exactly these). */
function isGoSpace(c: number): boolean {
  if (c <= 0xff) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/**
 * strings.TrimSpace. Not String.prototype.trim: JS also trims U+FEFF and keeps U+0085 (NEL),
 * which Go treats the other way round.
 */
export function goTrimSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isGoSpace(s.charCodeAt(start))) start++;
  while (end > start && isGoSpace(s.charCodeAt(end - 1))) end--;
  return s.slice(start, end);
}
