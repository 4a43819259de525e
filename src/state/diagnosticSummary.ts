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
  const summary = { levels, byFile, codes: [...codes].sort(), sorted: sortProblems(diagnostics) };
  summaries.set(diagnostics, summary);
  return summary;
}

/**
 * The list in compareProblems' order, sorted by numbers: each distinct file and code is ranked
 * once with the collator, then indices are sorted by (level, file rank, line, code rank), which
 * compares as compareProblems does and takes a fraction of its time on 60,000 diagnostics.
 */
function sortProblems(list: readonly Diagnostic[]): Diagnostic[] {
  const n = list.length;
  // Strings the collator holds equal (the same letter composed or not) share a rank, as they tie there.
  const rankOf = (values: Iterable<string>) => {
    const ranks = new Map<string, number>();
    let rank = -1;
    let previous: string | undefined;
    for (const v of [...new Set(values)].sort(compareText)) {
      if (previous === undefined || compareText(previous, v) !== 0) rank++;
      ranks.set(v, rank);
      previous = v;
    }
    return ranks;
  };
  const fileRank = rankOf(list.map((d) => d.file ?? '\uffff'));
  const codeRank = rankOf(list.map((d) => d.code));
  const level = new Uint8Array(n);
  const file = new Uint32Array(n);
  const line = new Float64Array(n);
  const code = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const d = list[i] as Diagnostic;
    level[i] = LEVEL_ORDER[d.level];
    file[i] = fileRank.get(d.file ?? '\uffff') as number;
    line[i] = d.line ?? 0;
    code[i] = codeRank.get(d.code) as number;
  }
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort(
    (a, b) =>
      (level[a] as number) - (level[b] as number) ||
      (file[a] as number) - (file[b] as number) ||
      (line[a] as number) - (line[b] as number) ||
      (code[a] as number) - (code[b] as number) ||
      a - b,
  );
  return order.map((i) => list[i] as Diagnostic);
}

/**
 * The summary of a list that differs from `before` only in some of its diagnostics' objects
 * (quick fixes attached to them): the same counts and order, with the new objects. Sorting
 * 60,000 diagnostics again for that would hold the page for nothing.
 */
export function carrySummary(before: readonly Diagnostic[], after: readonly Diagnostic[]): void {
  const known = summaries.get(before);
  if (!known || before.length !== after.length || summaries.has(after)) return;
  const replaced = new Map<Diagnostic, Diagnostic>();
  for (let i = 0; i < after.length; i++) {
    const a = after[i] as Diagnostic;
    const b = before[i] as Diagnostic;
    if (a === b) continue;
    if (a.level !== b.level || a.file !== b.file || a.line !== b.line || a.code !== b.code) return;
    replaced.set(b, a);
  }
  summaries.set(after, { ...known, sorted: replaced.size === 0 ? known.sorted : known.sorted.map((d) => replaced.get(d) ?? d) });
}
