// The shared summary of a result: counts per level and per file, the codes, and the Problems
// panel's order, which must be the order the panel's definition gives with localeCompare.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { carrySummary, diagnosticSummary } from '../../src/state/diagnosticSummary.ts';
import { compareProblems } from '../../src/core/document/problemsOrder.ts';
import { LEVEL_ORDER, type Diagnostic, type Level } from '../../src/core/document/types.ts';

/** The panel's order as first written: level, file (no file last), line, code. */
function byDefinition(a: Diagnostic, b: Diagnostic): number {
  return (
    LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] ||
    (a.file ?? '\uffff').localeCompare(b.file ?? '\uffff') ||
    (a.line ?? 0) - (b.line ?? 0) ||
    a.code.localeCompare(b.code)
  );
}

const diagnostic = fc.record({
  level: fc.constantFrom<Level>('Error', 'Warning', 'Info'),
  code: fc.constantFrom('IST0101', 'IST0102', 'KIA1101', 'MWB-LARGE-FILE', 'ist0101'),
  message: fc.constant('m'),
  file: fc.option(fc.constantFrom('a.yaml', 'B.yaml', 'b.yaml', 'dir/a.yaml', 'Ä.yaml', 'a-b.yaml', 'ab.yaml', 'á.yaml', 'a\u0301.yaml'), { nil: undefined }),
  line: fc.option(fc.nat({ max: 50 }), { nil: undefined }),
  source: fc.constant<Diagnostic['source']>('analyzer'),
});

describe('diagnosticSummary', () => {
  it('sorts as the definition does', () => {
    fc.assert(
      fc.property(fc.array(diagnostic, { maxLength: 60 }), (list) => {
        const sorted = diagnosticSummary(list as Diagnostic[]).sorted;
        for (let i = 1; i < sorted.length; i++) expect(byDefinition(sorted[i - 1]!, sorted[i]!)).toBeLessThanOrEqual(0);
        // Ties keep their order in the list (a stable sort by the definition).
        expect(sorted).toEqual([...list].sort(byDefinition));
        expect(new Set(sorted)).toEqual(new Set(list));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(diagnostic, diagnostic, (a, b) => {
        expect(Math.sign(compareProblems(a as Diagnostic, b as Diagnostic))).toBe(Math.sign(byDefinition(a as Diagnostic, b as Diagnostic)));
      }),
    );
  });

  it('counts per level and per file, and lists the codes once, sorted', () => {
    const list: Diagnostic[] = [
      { level: 'Error', code: 'IST0101', message: '', file: 'a.yaml', line: 3, source: 'analyzer' },
      { level: 'Warning', code: 'IST0102', message: '', file: 'a.yaml', line: 1, source: 'analyzer' },
      { level: 'Error', code: 'IST0101', message: '', file: 'b.yaml', line: 2, source: 'analyzer' },
      { level: 'Info', code: 'IST0118', message: '', source: 'analyzer' },
    ];
    const s = diagnosticSummary(list);
    expect(s.levels).toEqual({ Error: 2, Warning: 1, Info: 1 });
    expect(s.byFile.get('a.yaml')).toEqual({ Error: 1, Warning: 1, Info: 0 });
    expect(s.byFile.get('b.yaml')).toEqual({ Error: 1, Warning: 0, Info: 0 });
    expect(s.byFile.size).toBe(2);
    expect(s.codes).toEqual(['IST0101', 'IST0102', 'IST0118']);
    expect(s.sorted.map((d) => `${d.level} ${d.file ?? '-'}:${d.line ?? 0}`)).toEqual(['Error a.yaml:3', 'Error b.yaml:2', 'Warning a.yaml:1', 'Info -:0']);
    // Worked out once per result.
    expect(diagnosticSummary(list)).toBe(s);
  });

  it('carries a summary over to the same list with quick fixes attached, in the same order', () => {
    const a: Diagnostic = { level: 'Warning', code: 'IST0102', message: '', file: 'a.yaml', line: 5, source: 'analyzer' };
    const b: Diagnostic = { level: 'Error', code: 'IST0101', message: '', file: 'a.yaml', line: 9, source: 'analyzer' };
    const before = [a, b];
    expect(diagnosticSummary(before).sorted).toEqual([b, a]);
    const fixed = { ...b, fixes: [] };
    const after = [a, fixed];
    carrySummary(before, after);
    expect(diagnosticSummary(after).sorted).toEqual([fixed, a]);
    // Another list is not carried over: it is summarised afresh.
    const other = [a, { ...b, line: 1 }];
    carrySummary(before, other);
    expect(diagnosticSummary(other).sorted.map((d) => d.line)).toEqual([1, 5]);
  });
});
