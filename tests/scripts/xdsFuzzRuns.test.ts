import { describe, expect, it } from 'vitest';
import { addUpRuns } from '../../scripts/oracle/xdsFuzzRuns.ts';
import type { OracleXdsRunCounts } from '../../fuzz/targets/oracleXds.ts';

function run(seed: number | null, started: string, inputs: number, causes: OracleXdsRunCounts['causes'] = {}): OracleXdsRunCounts {
  return {
    seed,
    started,
    updated: started,
    partial: true,
    seconds: inputs,
    inputs,
    compared: inputs - 1,
    comparedProxies: 2 * inputs,
    comparedResources: 50 * inputs,
    identical: inputs - 2,
    rejectedObjects: 1,
    inputsWithRejected: 1,
    skipped: {},
    causes,
  };
}

describe('oracle-xds runs added up', () => {
  it('adds runs of different seeds, cause by cause', () => {
    const t = addUpRuns([
      run(1, '2026-12-06T10:00:00Z', 300, { a: { inputs: 2, count: 5, known: true } }),
      run(2, '2026-12-07T10:00:00Z', 700, { a: { inputs: 3, count: 4, known: true }, b: { inputs: 1, count: 1, known: false } }),
    ]);
    expect(t.inputs).toBe(1000);
    expect(t.identical).toBe(996);
    expect(t.runs.map((r) => r.seed)).toEqual([1, 2]);
    expect(t.causes.get('a')).toEqual({ inputs: 5, count: 9, known: true });
    expect(t.causes.get('b')).toEqual({ inputs: 1, count: 1, known: false });
  });

  it('counts a seed once, by its longest run: a second run of a seed repeats its inputs', () => {
    const t = addUpRuns([run(5, '2026-12-06T10:00:00Z', 400), run(5, '2026-12-07T10:00:00Z', 900), run(6, '2026-12-07T11:00:00Z', 100)]);
    expect(t.inputs).toBe(1000);
    expect(t.runs).toHaveLength(2);
  });

  it('a cause known in one run and not in another is not known', () => {
    const t = addUpRuns([run(1, 'a', 1, { c: { inputs: 1, count: 1, known: true } }), run(2, 'b', 1, { c: { inputs: 1, count: 1, known: false } })]);
    expect(t.causes.get('c')?.known).toBe(false);
  });
});
