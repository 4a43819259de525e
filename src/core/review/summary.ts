// "What this change does": differences between two analyzed workspaces. Diagnostics are
// matched on what they say (code, level, resource, message), not on their line, so an edit
// that moves text does not count as a fix plus a new problem. Sections for other views
// (xDS listeners/routes/clusters, ambient enrollment) use `diffKeyed`.
import type { Diagnostic } from '../document/types.ts';

export interface FileLike {
  path: string;
  text: string;
}

export type ChangeKind = 'added' | 'removed' | 'changed';

export interface ChangeItem {
  kind: ChangeKind;
  /** What changed, e.g. `listener 0.0.0.0_9080` or `Pod shop/reviews-v1`. */
  label: string;
  /** Before → after, or the detail of what changed. */
  detail?: string;
}

/** One section of the summary, from one contributor (diagnostics, xDS, ambient, …). */
export interface ChangeSection {
  id: string;
  title: string;
  items: ChangeItem[];
  /** Why a section could not be computed, or what it covers. */
  note?: string;
}

export interface DiagnosticDiff {
  added: Diagnostic[];
  removed: Diagnostic[];
}

function diagnosticKey(d: Diagnostic): string {
  return [d.code, d.level, d.origin ?? '', d.message].join('\u0000');
}

/** Diagnostics in `after` and not in `before` (added) and the reverse (removed), as multisets. */
export function diffDiagnostics(before: readonly Diagnostic[], after: readonly Diagnostic[]): DiagnosticDiff {
  const count = new Map<string, number>();
  for (const d of before) count.set(diagnosticKey(d), (count.get(diagnosticKey(d)) ?? 0) + 1);
  const added: Diagnostic[] = [];
  for (const d of after) {
    const k = diagnosticKey(d);
    const n = count.get(k) ?? 0;
    if (n > 0) count.set(k, n - 1);
    else added.push(d);
  }
  const left = new Map<string, number>();
  for (const d of after) left.set(diagnosticKey(d), (left.get(diagnosticKey(d)) ?? 0) + 1);
  const removed: Diagnostic[] = [];
  for (const d of before) {
    const k = diagnosticKey(d);
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else removed.push(d);
  }
  return { added, removed };
}

export interface FileChange {
  path: string;
  kind: ChangeKind;
}

/** Files added, removed and changed between two sides (unchanged files are left out). */
export function diffFiles(before: readonly FileLike[], after: readonly FileLike[]): FileChange[] {
  const b = new Map(before.map((f) => [f.path, f.text]));
  const a = new Map(after.map((f) => [f.path, f.text]));
  const out: FileChange[] = [];
  for (const [p, t] of a) {
    if (!b.has(p)) out.push({ path: p, kind: 'added' });
    else if (b.get(p) !== t) out.push({ path: p, kind: 'changed' });
  }
  for (const p of b.keys()) if (!a.has(p)) out.push({ path: p, kind: 'removed' });
  return out.sort((x, y) => x.path.localeCompare(y.path));
}

/**
 * Items added, removed and changed between two keyed collections: the building block of the
 * xDS (listeners, routes, clusters by name) and ambient (pods by name) sections. `describe`
 * says what changed for an item present on both sides (undefined: unchanged).
 */
export function diffKeyed<T>(
  before: ReadonlyMap<string, T>,
  after: ReadonlyMap<string, T>,
  describe: (b: T, a: T) => string | undefined,
  label: (key: string) => string = (k) => k,
): ChangeItem[] {
  const out: ChangeItem[] = [];
  for (const [k, a] of after) {
    const b = before.get(k);
    if (b === undefined) out.push({ kind: 'added', label: label(k) });
    else {
      const detail = describe(b, a);
      if (detail !== undefined) out.push({ kind: 'changed', label: label(k), detail });
    }
  }
  for (const k of before.keys()) if (!after.has(k)) out.push({ kind: 'removed', label: label(k) });
  const order = { added: 0, removed: 1, changed: 2 };
  return out.sort((x, y) => order[x.kind] - order[y.kind] || x.label.localeCompare(y.label));
}
