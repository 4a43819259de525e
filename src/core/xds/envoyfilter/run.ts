// State of one patching pass over a proxy's generated config: which patches took effect
// (for the note and istiod's "applied" metric), what to tell the user, and provenance marks
// on what the patches made or changed.
import { copyMarks, mark, patchRef, type PatchAction } from '../provenance.ts';
import type { MergedPatches } from './select.ts';
import type { PatchWrapper } from './wrapper.ts';

export interface PatchRun {
  merged: MergedPatches;
  /** Patches that changed something at least once. */
  applied: Set<PatchWrapper>;
  /** Things worth telling (a merge that istiod would have failed, a schema we lack). */
  notes: Set<string>;
  /** Whole resources a REMOVE took out (they have no place left to carry provenance). */
  removed: { kind: 'listener' | 'cluster'; name: string; patch: PatchWrapper }[];
}

export function newRun(merged: MergedPatches): PatchRun {
  return { merged, applied: new Set(), notes: new Set(), removed: [] };
}

/** Records that `p` took effect, marking `on` (when given) with what it did. */
export function hit(run: PatchRun, p: PatchWrapper, on?: object, action?: PatchAction, what?: string): void {
  run.applied.add(p);
  if (on && action) mark(on, patchRef(p.resourceKey, p.fullName, p.index, action, what));
}

export function note(run: PatchRun, p: PatchWrapper, msg: string): void {
  run.notes.add(`EnvoyFilter ${p.fullName} patch ${p.index}: ${msg}`);
}

/**
 * A deep copy of generated JSON whose objects keep their provenance marks. Generated objects
 * can share parts (constants reused across clusters); patches edit copies so nothing else
 * changes with them.
 */
export function cloneMarked<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => cloneMarked(x)) as T;
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = cloneMarked(x);
    copyMarks(v, out);
    return out as T;
  }
  return v;
}

/** A patch value copied for insertion, marked as made by the patch. */
export function valueCopy(run: PatchRun, p: PatchWrapper, action: PatchAction, what?: string): Record<string, unknown> {
  const v = JSON.parse(JSON.stringify(p.value ?? {})) as Record<string, unknown>;
  hit(run, p, v, action, what);
  return v;
}
