// What the panels count and sort of a result's diagnostics, worked out once per result and
// shared: the editor's tabs, the file list, the status bar and the Problems panel each read it
// instead of walking the whole list again (a whole-cluster dump gives 60,000 diagnostics).
import type { Diagnostic, Level } from '../core/document/types.ts';
import { LEVEL_ORDER } from '../core/document/types.ts';

export type LevelCounts = Record<Level, number>;

export interface DiagnosticSummary {
  levels: LevelCounts;
  /** Per file, its diagnostics by level. */
  byFile: ReadonlyMap<string, LevelCounts>;
  /** Every code, sorted. */
  codes: readonly string[];
  /** The Problems panel's order: level, then file, then line, then code. */
  sorted: readonly Diagnostic[];
}

const collator = new Intl.Collator();
/** Files and codes in the order localeCompare gives, without its cost when they are the same. */
const compareText = (a: string, b: string): number => (a === b ? 0 : collator.compare(a, b));

export function compareProblems(a: Diagnostic, b: Diagnostic): number {
  return (
    LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] ||
    compareText(a.file ?? '\uffff', b.file ?? '\uffff') ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compareText(a.code, b.code)
  );
}

const summaries = new WeakMap<readonly Diagnostic[], DiagnosticSummary>();

export function diagnosticSummary(diagnostics: readonly Diagnostic[]): DiagnosticSummary {
  const known = summaries.get(diagnostics);
  if (known) return known;
  const levels: LevelCounts = { Error: 0, Warning: 0, Info: 0 };
  const byFile = new Map<string, LevelCounts>();
  const codes = new Set<string>();
  for (const d of diagnostics) {
    levels[d.level]++;
    codes.add(d.code);
    if (!d.file) continue;
    let c = byFile.get(d.file);
    if (!c) byFile.set(d.file, (c = { Error: 0, Warning: 0, Info: 0 }));
    c[d.level]++;
  }
  const summary = { levels, byFile, codes: [...codes].sort(), sorted: [...diagnostics].sort(compareProblems) };
  summaries.set(diagnostics, summary);
  return summary;
}
