// The xDS section of "what this change does": for each proxy of either side, the listeners,
// route configurations and clusters generated before and after the change, compared with the
// "what changes" diff (core/xds/diff.ts). Pure: the caller passes each side's query function
// (a worker of its own in the app, the core directly in tests and the CLI).
import type { QueryArgs, QueryResult, QueryView } from '../queries/views.ts';
import { diffResources, resourcesOfDump, type ConfigChange, type ResourceSet } from '../xds/diff.ts';
import type { ChangeItem } from './summary.ts';

/** Proxies compared at most per side (generation costs time for each). */
export const MAX_REVIEW_PROXIES = 60;
const MAX_DETAIL_FIELDS = 3;

type Query = <V extends QueryView>(view: V, args: QueryArgs<V>) => Promise<QueryResult<V>>;

export interface XdsSnapshot {
  /** Proxy id → its listeners, routes and clusters (endpoints are left out of the review). */
  proxies: Map<string, ResourceSet>;
  /** Proxies of the side that were not generated (over MAX_REVIEW_PROXIES). */
  skipped: number;
  /** Proxies whose generation failed, with the reason. */
  failed: Map<string, string>;
}

/** Generates every proxy of one side (up to `limit`) and keeps what the review compares. */
export async function collectXds(query: Query, limit = MAX_REVIEW_PROXIES): Promise<XdsSnapshot> {
  const items = (await query('proxies', {})).items;
  const ids = items.map((p) => p.id).sort();
  const proxies = new Map<string, ResourceSet>();
  const failed = new Map<string, string>();
  for (const id of ids.slice(0, limit)) {
    try {
      const r = await query('proxyConfig', { proxy: id });
      const set = resourcesOfDump(r.dump);
      proxies.set(id, { listeners: set.listeners, routes: set.routes, clusters: set.clusters, endpoints: [] });
    } catch (e) {
      failed.set(id, e instanceof Error ? e.message : String(e));
    }
  }
  return { proxies, skipped: Math.max(0, ids.length - limit), failed };
}

function detailOf(c: ConfigChange): string | undefined {
  if (c.change !== 'changed') return undefined;
  const parts = c.fields.slice(0, MAX_DETAIL_FIELDS).map((f) => `${f.path}: ${f.before ?? '(absent)'} → ${f.after ?? '(absent)'}`);
  const more = c.fields.length - MAX_DETAIL_FIELDS + c.moreFields;
  if (more > 0) parts.push(`and ${more} more`);
  return parts.join('; ');
}

const TYPE_LABEL = { listener: 'listener', route: 'route', cluster: 'cluster', endpoints: 'endpoints' } as const;

/** Listeners, routes and clusters added, removed and changed, per proxy (proxies that came or went as one item). */
export function diffXds(before: XdsSnapshot, after: XdsSnapshot): ChangeItem[] {
  const out: ChangeItem[] = [];
  const count = (s: ResourceSet) => `${s.listeners.length} listeners, ${s.routes.length} routes, ${s.clusters.length} clusters`;
  const ids = [...new Set([...before.proxies.keys(), ...after.proxies.keys()])].sort();
  for (const id of ids) {
    const b = before.proxies.get(id);
    const a = after.proxies.get(id);
    if (!b && a) {
      if (!before.failed.has(id)) out.push({ kind: 'added', label: `Proxy ${id}`, detail: count(a) });
      continue;
    }
    if (b && !a) {
      if (!after.failed.has(id)) out.push({ kind: 'removed', label: `Proxy ${id}`, detail: count(b) });
      continue;
    }
    for (const c of diffResources(b!, a!)) {
      const detail = detailOf(c);
      out.push({ kind: c.change, label: `${id}: ${TYPE_LABEL[c.type]} ${c.name}`, ...(detail ? { detail } : {}) });
    }
  }
  return out;
}

/** What the section did not cover, if anything. */
export function xdsNote(before: XdsSnapshot, after: XdsSnapshot): string | undefined {
  const parts: string[] = [];
  const skipped = Math.max(before.skipped, after.skipped);
  if (skipped > 0) parts.push(`Only the first ${MAX_REVIEW_PROXIES} proxies (by name) are compared; ${skipped} more are not.`);
  const failed = [...new Set([...before.failed.keys(), ...after.failed.keys()])];
  if (failed.length > 0)
    parts.push(
      `Not generated: ${failed.slice(0, 5).join(', ')}${failed.length > 5 ? ` and ${failed.length - 5} more` : ''} (${(before.failed.get(failed[0]!) ?? after.failed.get(failed[0]!))!}).`,
    );
  return parts.length > 0 ? parts.join(' ') : undefined;
}
