// Istio's host.Name rules, which the analyzers, webhook validation, the Gateway API conversion
// and xDS generation all take from config/hosts.ts. A name stands for a set of host names: a
// plain name for itself, `*<suffix>` for every name that ends with <suffix> (the empty prefix
// included). Matches is "the two sets meet" and SubsetOf "the first set lies in the second".
// Both are checked here against those sets, built by brute force over a small alphabet.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hostMatches, hostSubsetOf, isWildcardHost } from '../../src/core/config/hosts.ts';

const ALPHABET = ['a', 'b', '.'];
const MAX_SUFFIX = 3;
// Every witness the oracle needs is a suffix itself (at most MAX_SUFFIX long): a longer universe
// would not change an answer.
const UNIVERSE: string[] = (() => {
  const out = [''];
  let layer = [''];
  for (let n = 1; n <= MAX_SUFFIX + 1; n++) {
    layer = layer.flatMap((s) => ALPHABET.map((c) => s + c));
    out.push(...layer);
  }
  return out;
})();

function members(host: string): Set<string> {
  if (!isWildcardHost(host)) return new Set([host]);
  const suffix = host.slice(1);
  return new Set(UNIVERSE.filter((s) => s.endsWith(suffix)));
}

const plainHost = fc.array(fc.constantFrom(...ALPHABET), { minLength: 0, maxLength: MAX_SUFFIX }).map((cs) => cs.join(''));
const host = fc.tuple(fc.boolean(), plainHost).map(([wild, rest]) => (wild ? `*${rest}` : rest));

describe('host.Name rules (config/hosts.ts)', () => {
  it('Matches is true exactly when the two names share a host', () => {
    fc.assert(
      fc.property(host, host, (n, o) => {
        const a = members(n);
        const meet = [...members(o)].some((h) => a.has(h));
        expect(hostMatches(n, o)).toBe(meet);
      }),
      { seed: 20261202, numRuns: 2000 },
    );
  });

  it('SubsetOf is true exactly when every host of the first name is a host of the second', () => {
    fc.assert(
      fc.property(host, host, (n, o) => {
        // A wildcard's set is infinite: a plain name never covers it (the universe is finite, so say so).
        const within = isWildcardHost(n) && !isWildcardHost(o) ? false : [...members(n)].every((h) => members(o).has(h));
        expect(hostSubsetOf(n, o)).toBe(within);
      }),
      { seed: 20261203, numRuns: 2000 },
    );
  });
});
