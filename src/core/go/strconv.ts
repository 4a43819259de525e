// Go's strconv.Atoi and the error texts Istio's validation passes on from it.
import { goQuote } from './fmt.ts';

/** strconv.Atoi: the value, or undefined on a syntax or range error. */
export function atoi(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  if (!Number.isSafeInteger(n) && Math.abs(n) > 2 ** 63) return undefined;
  return n;
}

/** strconv.Atoi's error text for an input it rejects. */
export function atoiError(s: string): string {
  if (/^[+-]?\d+$/.test(s)) return `strconv.Atoi: parsing ${goQuote(s)}: value out of range`;
  return `strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`;
}
