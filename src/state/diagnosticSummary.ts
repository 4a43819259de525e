// What the panels count and sort of a result's diagnostics, worked out once per result and
// shared: the editor's tabs, the file list, the status bar and the Problems panel each read it
// instead of walking the whole list again (a whole-cluster dump gives 60,000 diagnostics).
import type { Diagnostic, Level } from '../core/document/types.ts';
import { isOrderOf, problemsOrder } from '../core/document/problemsOrder.ts';

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

/** Orders the worker sent with a result (see problemsOrder), by the result's list. */
const orders = new WeakMap<readonly Diagnostic[], Int32Array>();

/** Keeps the worker's Problems order of a result's list, when it is one (else the page sorts). */
export function rememberProblemsOrder(diagnostics: readonly Diagnostic[], order: unknown): void {
  if (isOrderOf(order, diagnostics.length)) orders.set(diagnostics, order);
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

function sortProblems(list: readonly Diagnostic[]): Diagnostic[] {
  const order = orders.get(list) ?? problemsOrder(list);
  return Array.from(order, (i) => list[i] as Diagnostic);
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
