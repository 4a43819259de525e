// Go's strconv parsers as Istio calls them (base 10), and the *NumError texts its validation
// passes on (`strconv.ParseUint: parsing "x": invalid syntax`).
import { goQuote } from './fmt.ts';

/** Why a strconv parser refused its input (ErrSyntax, ErrRange). */
export type NumErrorKind = 'invalid syntax' | 'value out of range';

/** strconv.ParseInt(s, 10, bitSize): the value, or why it fails. */
export function parseInt10(s: string, bitSize: number): bigint | NumErrorKind {
  if (!/^[+-]?[0-9]+$/.test(s)) return 'invalid syntax';
  const v = BigInt(s);
  const limit = 1n << BigInt(bitSize - 1);
  return v >= -limit && v < limit ? v : 'value out of range';
}

/** strconv.ParseUint(s, 10, bitSize): the value, or why it fails (no sign is allowed). */
export function parseUint10(s: string, bitSize: number): bigint | NumErrorKind {
  if (!/^[0-9]+$/.test(s)) return 'invalid syntax';
  const v = BigInt(s);
  return v < 1n << BigInt(bitSize) ? v : 'value out of range';
}

/** A *NumError's text: `strconv.<fn>: parsing "<input>": <why>`. */
export function numError(fn: 'Atoi' | 'ParseInt' | 'ParseUint' | 'ParseBool', input: string, why: NumErrorKind): string {
  return `strconv.${fn}: parsing ${goQuote(input)}: ${why}`;
}

/** strconv.Atoi (int is 64 bits): the value, or undefined on a syntax or range error. */
export function atoi(s: string): number | undefined {
  const v = parseInt10(s, 64);
  return typeof v === 'bigint' ? Number(v) : undefined;
}

/** strconv.Atoi's error text for an input it rejects. */
export function atoiError(s: string): string {
  const v = parseInt10(s, 64);
  return numError('Atoi', s, typeof v === 'bigint' ? 'invalid syntax' : v);
}

const TRUE_TEXTS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_TEXTS = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** strconv.ParseBool: the value, or undefined (its error is always invalid syntax). */
export function parseBool(s: string): boolean | undefined {
  if (TRUE_TEXTS.has(s)) return true;
  if (FALSE_TEXTS.has(s)) return false;
  return undefined;
}
