// A route's status.parents (conditions.go createRouteStatus).
import { type CondSpec, type ConfigError, type Json, obj, readConditions, setConditions, str } from './objects.ts';
import { GATEWAY_CONTROLLER } from './builtins.ts';
import type { ConversionContext } from './context.ts';
import { cmp } from './istioConfig.ts';
import { type ParentError, type RouteParentRef, parentRefString } from './routeParents.ts';
import { listAt } from '../../document/maps.ts';

/** createRouteStatus: one status.parents entry per parentRef as written, keeping other controllers' entries. */
export function createRouteStatus(
  ctx: ConversionContext,
  results: { ref: RouteParentRef; denied?: ParentError; routeError?: ConfigError; waypointError?: ConfigError }[],
  ns: string,
  generation: number,
  current: Json[],
): Json[] {
  const parents = current.slice();
  const indexes = new Map<string, number>();
  current.forEach((p, i) => {
    if (str(p.controllerName) !== GATEWAY_CONTROLLER) return;
    const rs = parentRefString(obj(p.parentRef), ns);
    if (!indexes.has(rs)) indexes.set(rs, i);
  });
  const seen = new Map<string, typeof results>();
  const success = new Map<string, number>();
  for (const r of results) {
    const k = r.ref.originalKey;
    if (!r.denied) success.set(k, (success.get(k) ?? 0) + 1);
    listAt(seen, k).push(r);
  }
  const rank = (r: (typeof results)[number]) => {
    if (!r.denied) return 0;
    switch (r.denied.reason) {
      case 'NotAllowedByListeners':
        return 1;
      case 'NoMatchingListenerHostname':
        return 2;
      case 'ParentRefConflict':
        return 3;
      case 'NoMatchingParent':
        return 4;
    }
    return 0;
  };
  const toAppend: Json[] = [];
  for (const [k, rs] of seen) {
    let toReport = { ...(rs[0] as (typeof results)[number]) };
    let best = rank(toReport);
    for (const r of rs.slice(1)) {
      const rr = rank(r);
      if (rr < best) {
        best = rr;
        toReport = { ...r };
      } else if (rr === best) {
        if (!toReport.denied) toReport.denied = r.denied ? { ...r.denied } : undefined;
        else if (r.denied) toReport.denied = { ...toReport.denied, message: `${toReport.denied.message}; ${r.denied.message}` };
      }
    }
    const n = success.get(k) ?? 0;
    const conds: Record<string, CondSpec> = {
      Accepted: { reason: 'Accepted', message: n > 1 ? `Route was valid, bound to ${n} parents` : 'Route was valid' },
      ResolvedRefs: { reason: 'ResolvedRefs', message: 'All references resolved' },
    };
    if (toReport.routeError) (conds.ResolvedRefs as CondSpec).error = toReport.routeError;
    if (toReport.denied) (conds.Accepted as CondSpec).error = { reason: toReport.denied.reason, message: toReport.denied.message };
    if (ctx.opts.ambient) conds.ResolvedWaypoints = { reason: 'ResolvedWaypoints', message: toReport.waypointError?.message ?? 'All waypoints resolved' };
    const myRef = parentRefString(toReport.ref.original, ns);
    const cur = current.find((s) => parentRefString(obj(s.parentRef), ns) === myRef && str(s.controllerName) === GATEWAY_CONTROLLER);
    const entry: Json = {
      conditions: setConditions(generation, cur ? readConditions(cur.conditions) : [], conds, ctx.now),
      controllerName: GATEWAY_CONTROLLER,
      parentRef: { ...toReport.ref.original },
    };
    const idx = indexes.get(myRef);
    if (idx !== undefined) {
      parents[idx] = entry;
      indexes.delete(myRef);
    } else {
      toAppend.push(entry);
    }
  }
  toAppend.sort((a, b) => cmp(parentRefString(obj(b.parentRef), ns), parentRefString(obj(a.parentRef), ns)));
  const toDelete = new Set(indexes.values());
  return [...parents, ...toAppend].filter((_, i) => i >= parents.length || !toDelete.has(i));
}
