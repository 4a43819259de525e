// Target `quantities`: Kubernetes resource quantities (config/quantity.ts), which the
// proxy CPU and memory annotations are checked with. The reader follows apimachinery's
// ParseQuantity step by step; the oracle here restates its verdict in closed form:
//   - the text is [+-]? digits? (. digits?)? then a suffix of [eEinumkKMGTP]* [+-]? digits*,
//     else a format error (and the empty text is one);
//   - the suffix must be a decimal SI one, a binary one or e/E with an int64 exponent, else a
//     suffix error;
//   - a numeric error only when the number has no digit at all and the value would need the
//     exact path: a decimal exponent below -9 (scale under nano) or a binary one of 2^50 or more.
// It must agree on every text and never throw or hang.
import fc from 'fast-check';
import { QUANTITY_FORMAT_ERROR, QUANTITY_NUMERIC_ERROR, QUANTITY_SUFFIX_ERROR, quantityError } from '../../src/core/config/quantity.ts';
import { FuzzFailure, guarded } from '../failure.ts';
import type { CheckOptions, CheckOutcome, Target } from '../target.ts';

export interface QuantitiesInput {
  text: string;
}

const DECIMAL = new Map([
  ['n', -9],
  ['u', -6],
  ['m', -3],
  ['', 0],
  ['k', 3],
  ['M', 6],
  ['G', 9],
  ['T', 12],
  ['P', 15],
  ['E', 18],
]);
const BINARY = new Map([
  ['Ki', 10],
  ['Mi', 20],
  ['Gi', 30],
  ['Ti', 40],
  ['Pi', 50],
  ['Ei', 60],
]);
const SHAPE = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[+-]?[0-9]*)$/;

export function expectedQuantityError(text: string): string | undefined {
  if (text === '') return QUANTITY_FORMAT_ERROR;
  const m = SHAPE.exec(text);
  if (!m) return QUANTITY_FORMAT_ERROR;
  const hasDigit = /[0-9]/.test((m[2] ?? '') + (m[3] ?? ''));
  const suffix = m[4] ?? '';
  let exponent: number;
  let binary = false;
  if (DECIMAL.has(suffix)) exponent = DECIMAL.get(suffix)!;
  else if (BINARY.has(suffix)) {
    exponent = BINARY.get(suffix)!;
    binary = true;
  } else if (/^[eE][+-]?[0-9]+$/.test(suffix) && BigInt(suffix.slice(1)) >= -(1n << 63n) && BigInt(suffix.slice(1)) < 1n << 63n) {
    exponent = Number(BigInt.asIntN(32, BigInt(suffix.slice(1))));
  } else return QUANTITY_SUFFIX_ERROR;
  if (hasDigit) return undefined;
  return (binary ? exponent >= 50 : exponent < -9) ? QUANTITY_NUMERIC_ERROR : undefined;
}

function checkQuantity(input: QuantitiesInput, options: CheckOptions): CheckOutcome {
  const got = guarded(`quantityError(${JSON.stringify(input.text)})`, options.timeLimitMs, () => quantityError(input.text));
  const want = expectedQuantityError(input.text);
  if (got !== want)
    throw new FuzzFailure('divergence', `quantityError(${JSON.stringify(input.text)}) = ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  return 'ok';
}

const piece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('0', '1', '7', '.', '+', '-', 'e', 'E', 'i', 'n', 'u', 'm', 'k', 'K', 'M', 'G', 'T', 'P') },
  { weight: 2, arbitrary: fc.stringMatching(/^[0-9]{1,22}$/) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'Ki',
      'Mi',
      'Gi',
      'Ti',
      'Pi',
      'Ei',
      'e-10',
      'e+3',
      'E18',
      'e9223372036854775808',
      'e4294967296',
      ' ',
      'B',
      'x',
      '\u00b5',
      '\u0085',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 2 }) },
);
const wellFormed = fc
  .tuple(
    fc.constantFrom('', '+', '-'),
    fc.stringMatching(/^[0-9]{0,20}$/),
    fc.option(fc.stringMatching(/^[0-9]{0,12}$/), { nil: undefined }),
    fc.constantFrom(...DECIMAL.keys(), ...BINARY.keys(), 'e-12', 'E7', 'e0', 'e-9', 'e-10'),
  )
  .map(([sign, num, frac, suffix]) => `${sign}${num}${frac === undefined ? '' : `.${frac}`}${suffix}`);

export const quantitiesTarget: Target<QuantitiesInput> = {
  name: 'quantities',
  description: "Kubernetes resource quantities (apimachinery's ParseQuantity) against the closed-form verdict",
  arbitrary: () =>
    fc
      .oneof(
        fc.array(piece, { maxLength: 8 }).map((ps) => ps.join('')),
        wellFormed,
      )
      .map((text) => ({ text })),
  check: checkQuantity,
  async: false,
  smokeRuns: 5000,
};
