// Kubernetes resource quantities as apimachinery's ParseQuantity reads them.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { QUANTITY_FORMAT_ERROR, QUANTITY_NUMERIC_ERROR, QUANTITY_SUFFIX_ERROR, quantityError } from '../../src/core/config/quantity.ts';

describe('quantityError', () => {
  it('accepts what a Pod spec accepts', () => {
    for (const q of [
      '1',
      '250m',
      '0.25',
      '1.5Gi',
      '128Mi',
      '2Ti',
      '1Ei',
      '4k',
      '3M',
      '7G',
      '1T',
      '2P',
      '5E',
      '1e6',
      '2E+3',
      '9e-3',
      '100n',
      '3u',
      '-1',
      '+2.5',
      '01',
      '0.000000001',
    ]) {
      expect(quantityError(q), q).toBeUndefined();
    }
  });

  it('names the part it cannot read', () => {
    expect(quantityError('')).toBe(QUANTITY_FORMAT_ERROR);
    expect(quantityError('1 Gi')).toBe(QUANTITY_FORMAT_ERROR);
    expect(quantityError('1Gb')).toBe(QUANTITY_FORMAT_ERROR);
    expect(quantityError('1..2')).toBe(QUANTITY_FORMAT_ERROR);
    expect(quantityError('1e5x')).toBe(QUANTITY_FORMAT_ERROR);
    expect(quantityError('1K')).toBe(QUANTITY_SUFFIX_ERROR); // kilo is a lower-case k
    expect(quantityError('1mi')).toBe(QUANTITY_SUFFIX_ERROR);
    expect(quantityError('1e+')).toBe(QUANTITY_SUFFIX_ERROR);
    expect(quantityError('+.e-10')).toBe(QUANTITY_NUMERIC_ERROR);
  });

  const valid = fc
    .tuple(
      fc.constantFrom('', '+', '-'),
      fc.stringMatching(/^[0-9]{1,25}$/),
      fc.option(fc.stringMatching(/^[0-9]{0,12}$/), { nil: undefined }),
      fc.oneof(
        fc.constantFrom('', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'),
        fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 99999 })).map(([e, s, n]) => `${e}${s}${n}`),
      ),
    )
    .map(([sign, num, frac, suffix]) => `${sign}${num}${frac === undefined ? '' : `.${frac}`}${suffix}`);

  it('accepts every number with a known suffix (5,000 random ones)', () => {
    fc.assert(
      fc.property(valid, (q) => quantityError(q) === undefined),
      { numRuns: 5000, seed: 20261203 },
    );
  });

  it('answers one of its three errors for any text, and a format error for text outside the grammar', () => {
    const grammar = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
    const text = fc.stringMatching(/^[0-9.+\-eEinumkKMGTPxB ]{0,12}$/);
    fc.assert(
      fc.property(text, (q) => {
        const err = quantityError(q);
        expect([undefined, QUANTITY_FORMAT_ERROR, QUANTITY_SUFFIX_ERROR, QUANTITY_NUMERIC_ERROR]).toContain(err);
        // apimachinery's reader is laxer than its documented grammar in one way only: the
        // number may be missing (`+`, `Ki`, `m` read as zero). Text that fails the grammar
        // with a number present is always refused.
        if (!grammar.test(q) && /^[+-]?[0-9.]/.test(q)) expect(err).toBeDefined();
      }),
      { numRuns: 5000, seed: 20261203 },
    );
  });
});
