// The selector index must find exactly what testing every selector of the namespace would
// (Kubernetes' equality selectors: every selector label on the workload, an empty selector
// selecting all), in the order the selectors were added.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SelectorIndex } from '../../src/core/config/selectorIndex.ts';
import { selectorMatches, type LabelMap } from '../../src/core/config/labels.ts';

interface Entry {
  namespace: string;
  selector: LabelMap;
}

function bruteForce(entries: readonly Entry[], namespace: string, labels: LabelMap): number[] {
  const out: number[] = [];
  entries.forEach((e, i) => {
    if (e.namespace === namespace && selectorMatches(e.selector, labels)) out.push(i);
  });
  return out;
}

function indexOf(entries: readonly Entry[]): SelectorIndex<number> {
  const index = new SelectorIndex<number>();
  entries.forEach((e, i) => index.add(e.namespace, e.selector, i));
  return index;
}

describe('SelectorIndex', () => {
  it('finds a selector only when the workload carries every one of its labels', () => {
    const index = indexOf([
      { namespace: 'a', selector: { app: 'web', version: 'v1' } },
      { namespace: 'a', selector: { app: 'web' } },
      { namespace: 'a', selector: { version: 'v1' } },
    ]);
    expect(index.matching('a', { app: 'web' })).toEqual([1]);
    expect(index.matching('a', { app: 'web', version: 'v1' })).toEqual([0, 1, 2]);
    expect(index.matching('a', { version: 'v1', app: 'web' })).toEqual([0, 1, 2]);
    expect(index.matching('a', { version: 'v1' })).toEqual([2]);
    expect(index.matching('a', { app: 'Web' })).toEqual([]);
  });

  it('gives an empty selector every workload of its namespace, and none of another', () => {
    const index = indexOf([
      { namespace: 'a', selector: { app: 'web' } },
      { namespace: 'a', selector: {} },
      { namespace: 'b', selector: {} },
    ]);
    expect(index.matching('a', {})).toEqual([1]);
    expect(index.matching('a', { app: 'web' })).toEqual([0, 1]);
    expect(index.matching('b', { app: 'web' })).toEqual([2]);
    expect(index.matching('c', { app: 'web' })).toEqual([]);
  });

  it('keeps the order the selectors were added when they are filed under different labels', () => {
    const index = indexOf([
      { namespace: 'a', selector: { tier: 'front' } },
      { namespace: 'a', selector: {} },
      { namespace: 'a', selector: { app: 'web' } },
      { namespace: 'a', selector: { tier: 'front', app: 'web' } },
    ]);
    expect(index.matching('a', { app: 'web', tier: 'front' })).toEqual([0, 1, 2, 3]);
  });

  it('does not take a label named like an Object property for a selector label', () => {
    const index = indexOf([{ namespace: 'a', selector: { constructor: 'x' } }]);
    expect(index.matching('a', {})).toEqual([]);
    expect(index.matching('a', { constructor: 'x' })).toEqual([0]);
  });

  it('agrees with testing every selector, on generated selectors and workloads', () => {
    const key = fc.constantFrom('app', 'version', 'tier', 'k');
    const value = fc.constantFrom('a', 'b', 'c', '');
    const labels = fc.dictionary(key, value, { maxKeys: 4 });
    const namespace = fc.constantFrom('x', 'y');
    fc.assert(
      fc.property(fc.array(fc.record({ namespace, selector: labels }), { maxLength: 30 }), namespace, labels, (entries, ns, workload) => {
        expect(indexOf(entries).matching(ns, workload)).toEqual(bruteForce(entries, ns, workload));
      }),
      { numRuns: 500 },
    );
  });
});
