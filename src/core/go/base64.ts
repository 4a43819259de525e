// encoding/base64's decoding errors, as encoding/json reports them for a []byte field.

const UTF8 = new TextEncoder();

/** undefined when base64.StdEncoding decodes `s` (as encoding/json does for []byte), else its error. */
export function goBase64Error(s: string): string | undefined {
  // Go skips \r and \n; its error offsets count the input bytes.
  const bytes = UTF8.encode(s);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const isAlpha = (b: number) => alphabet.includes(String.fromCharCode(b)) && b < 0x80;
  let i = 0;
  const n = bytes.length;
  const corrupt = (at: number) => `illegal base64 data at input byte ${at}`;
  while (i < n) {
    // one quantum of up to 4 symbols
    let j = 0;
    while (j < 4) {
      if (i === n) {
        if (j === 0) return undefined;
        if (j === 1) return corrupt(i - 1 < 0 ? 0 : lastSymbol(i));
        return corrupt(i - j);
      }
      const b = bytes[i] as number;
      i++;
      if (b === 10 || b === 13) continue;
      if (isAlpha(b)) {
        j++;
        continue;
      }
      if (b !== 61 /* = */) return corrupt(i - 1);
      // padding
      if (j === 0 || j === 1) return corrupt(i - 1);
      while (i < n && (bytes[i] === 10 || bytes[i] === 13)) i++;
      if (j === 2) {
        if (i === n) return corrupt(n);
        if (bytes[i] !== 61) return corrupt(i - 1);
        i++;
      }
      while (i < n && (bytes[i] === 10 || bytes[i] === 13)) i++;
      if (i < n) return corrupt(i);
      return undefined;
    }
  }
  return undefined;
  function lastSymbol(end: number): number {
    let k = end - 1;
    while (k > 0 && (bytes[k] === 10 || bytes[k] === 13)) k--;
    return k;
  }
}
