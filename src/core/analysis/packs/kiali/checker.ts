// Helpers to define checkers the way Kiali's are: an object checker validates one object at a
// time (Kiali's Checker), a group checker looks at all of them together (Kiali's GroupChecker).
import type { KindInfo } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { KialiContext } from './context.ts';
import type { KialiCheck, KialiChecker, KialiObjectRef, KialiValidation } from './types.ts';

export function objectRef(r: Resource): KialiObjectRef {
  return { group: r.gvk.group, kind: r.gvk.kind, namespace: r.namespace, name: r.name };
}

/** A checker that validates every object of `kind` (or of each of the kinds) on its own. */
export function objectChecker(
  name: string,
  kind: KindInfo | readonly KindInfo[],
  codes: readonly string[],
  check: (ctx: KialiContext, resource: Resource) => { checks: KialiCheck[]; valid: boolean },
): KialiChecker {
  const kinds: readonly KindInfo[] = Array.isArray(kind) ? kind : [kind as KindInfo];
  return {
    name,
    kinds,
    codes,
    run: (ctx, o) => {
      const out: KialiValidation[] = [];
      // Only the findings are wanted of the thousands of objects a large mesh has: no validation for a clean one.
      const findingsOnly = o?.findingsOnly === true;
      for (const k of kinds)
        for (const r of ctx.list(k)) {
          const { checks, valid } = check(ctx, r);
          if (!findingsOnly || checks.length > 0) out.push({ object: objectRef(r), resource: r, checks, valid });
        }
      return out;
    },
  };
}

/** Collects a group checker's findings per object, merging what it reports on one object twice. */
export class GroupResults {
  private readonly byKey = new Map<string, KialiValidation>();

  add(r: Resource, check: KialiCheck, valid: boolean, references: readonly string[] = []): void {
    let v = this.byKey.get(r.key);
    if (!v) this.byKey.set(r.key, (v = { object: objectRef(r), resource: r, checks: [], valid: true, references: [] }));
    // Kiali's MergeValidations keeps one check per (path, severity, message).
    if (!v.checks.some((c) => c.path === check.path && c.severity === check.severity && c.message === check.message)) v.checks.push(check);
    v.valid = v.valid && valid;
    for (const ref of references) if (!v.references?.includes(ref)) v.references?.push(ref);
  }

  list(): KialiValidation[] {
    return [...this.byKey.values()];
  }
}
