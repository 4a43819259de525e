// Redaction's self-check: does a piece of a value it masked still show in the text it
// wrote? Values are cut into pieces (white space removed) so that a partial cut shows too,
// and the text is scanned once with a rolling hash, so that a file with many Secrets costs
// time in proportion to its length, not to its length times its secrets.

/** Pieces are this long; a shorter value is its own piece. */
export const PIECE_CHARS = 32;

function flat(s: string): string {
  return s.replace(/\s+/g, '');
}

/** Polynomial hash of s[from, from + n), mod 2^32. */
function hashOf(s: string, from: number, n: number): number {
  let h = 0;
  for (let i = from; i < from + n; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

export class SecretPieces {
  /** Full-length pieces by hash. */
  private readonly byHash = new Map<number, string[]>();
  /** Values shorter than a piece, searched for as they are. */
  private readonly short: string[] = [];
  /** 31^(PIECE_CHARS-1) mod 2^32, to drop a window's first character. */
  private readonly dropFactor: number;

  constructor(
    secrets: readonly string[],
    /** Text shown in public (certificates): a piece found there is no leak. */
    private readonly publicText: string,
    minChars: number,
  ) {
    let f = 1;
    for (let i = 0; i < PIECE_CHARS - 1; i++) f = Math.imul(f, 31);
    this.dropFactor = f;
    const seen = new Set<string>();
    for (const s of secrets) {
      const v = flat(s);
      if (v.length < minChars) continue;
      if (v.length < PIECE_CHARS) {
        if (!seen.has(v)) this.short.push(v);
        seen.add(v);
        continue;
      }
      for (let i = 0; i + PIECE_CHARS <= v.length; i += PIECE_CHARS) {
        const piece = v.slice(i, i + PIECE_CHARS);
        // Armour lines and runs of one character are shared with certificates and padding.
        if (seen.has(piece) || piece.includes('-----') || /^(.)\1*$/.test(piece)) continue;
        seen.add(piece);
        const h = hashOf(piece, 0, PIECE_CHARS);
        const list = this.byHash.get(h);
        if (list) list.push(piece);
        else this.byHash.set(h, [piece]);
      }
    }
  }

  get empty(): boolean {
    return this.byHash.size === 0 && this.short.length === 0;
  }

  /** True when some piece shows in the text (white space ignored) and is not public. */
  foundIn(text: string): boolean {
    if (this.empty) return false;
    const t = flat(text);
    for (const s of this.short) if (t.includes(s) && !this.publicText.includes(s)) return true;
    if (this.byHash.size === 0 || t.length < PIECE_CHARS) return false;
    let h = hashOf(t, 0, PIECE_CHARS);
    for (let i = 0; ; i++) {
      const candidates = this.byHash.get(h);
      if (candidates) {
        const window = t.slice(i, i + PIECE_CHARS);
        if (candidates.includes(window) && !this.publicText.includes(window)) return true;
      }
      if (i + PIECE_CHARS >= t.length) return false;
      h = (Math.imul(h - Math.imul(t.charCodeAt(i), this.dropFactor), 31) + t.charCodeAt(i + PIECE_CHARS)) | 0;
    }
  }
}
