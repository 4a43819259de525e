// Following a kind's resource list across runs by slot. The store swaps an edited resource in
// place, so comparing the old and new list slot by slot finds what an edit changed without
// hashing (or even reading) the thousands of resources that did not change.
import type { Resource } from '../document/types.ts';
import type { KindInfo } from '../document/kinds.ts';
import type { AnalysisContext } from './types.ts';

/** The slots whose resource differs, or undefined when the lists differ in length. */
export function changedSlots(before: readonly Resource[], after: readonly Resource[]): number[] | undefined {
  if (before.length !== after.length) return undefined;
  const out: number[] = [];
  for (let i = 0; i < after.length; i++) if (before[i] !== after[i]) out.push(i);
  return out;
}

/** How an analyzer's table takes in and lets go of one resource at one slot of the list. */
export interface ListFollower<S> {
  create(): S;
  add(state: S, r: Resource, slot: number): void;
  remove(state: S, r: Resource, slot: number): void;
}

/**
 * A table an analyzer keeps per workspace (by its lookups object, which lives as long as the
 * store) over the list of one kind: built once, then updated for the slots an edit replaced.
 * After a change of length it is built again.
 */
export function followList<S>(ctx: AnalysisContext, kind: KindInfo, kept: WeakMap<object, { list: Resource[]; state: S }>, follower: ListFollower<S>): S {
  const list = ctx.list(kind);
  let entry = kept.get(ctx.lookups);
  const slots = entry && changedSlots(entry.list, list);
  if (entry && slots) {
    for (const slot of slots) {
      follower.remove(entry.state, entry.list[slot] as Resource, slot);
      follower.add(entry.state, list[slot] as Resource, slot);
      entry.list[slot] = list[slot] as Resource;
    }
  } else {
    entry = { list: [...list], state: follower.create() };
    for (let slot = 0; slot < list.length; slot++) follower.add(entry.state, list[slot] as Resource, slot);
    kept.set(ctx.lookups, entry);
  }
  return entry.state;
}
