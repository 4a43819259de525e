import type { ProxySubTab } from '../../state/proxyView.ts';
import type { ProxyConfigResult, ResolvedProvenance } from '../../core/queries/views.ts';
import { openAt } from '../../state/navigation.ts';

export type TabId = ProxySubTab;
export type TableTab = 'listeners' | 'routes' | 'clusters' | 'endpoints' | 'secrets';

export const TABS: { id: TabId; label: string }[] = [
  { id: 'listeners', label: 'Listeners' },
  { id: 'routes', label: 'Routes' },
  { id: 'clusters', label: 'Clusters' },
  { id: 'endpoints', label: 'Endpoints' },
  { id: 'secrets', label: 'Secrets' },
  { id: 'simulate', label: 'Simulate' },
  { id: 'changes', label: 'What changes' },
  { id: 'dump', label: 'Compare dump' },
  { id: 'routeTests', label: 'Route tests' },
];

export const TABLE_TABS: readonly TableTab[] = ['listeners', 'routes', 'clusters', 'endpoints', 'secrets'];

export function isTableTab(t: string): t is TableTab {
  return (TABLE_TABS as readonly string[]).includes(t);
}

export const TYPE_LABEL = { sidecar: 'sidecar', router: 'gateway', waypoint: 'waypoint' } as const;

export type Provenance = ProxyConfigResult['provenance'];

/** What a table needs: a dump, and (for generated config) provenance and the secrets' sources. */
export type TableData = Pick<ProxyConfigResult, 'dump' | 'provenance' | 'secrets'> & { proxy?: Pick<ProxyConfigResult['proxy'], 'type'> };

/** The best source of a piece of config: a resource line, preferring a field over a whole resource. */
export function bestSource(refs: readonly ResolvedProvenance[] | undefined): ResolvedProvenance | undefined {
  if (!refs) return undefined;
  const located = refs.filter((r) => r.file && r.line);
  return located.find((r) => r.fieldPath) ?? located[0];
}

/** Opens the source's file at its line in the editor. */
export function reveal(src: ResolvedProvenance): void {
  if (!src.file) return;
  openAt(src.file, { line: src.line });
}

export function describeSource(r: ResolvedProvenance): string {
  // An EnvoyFilter patch's mark says what it did ("HTTP filter … inserted by EnvoyFilter ns/name, patch 0").
  if (r.kind && r.note) return r.note;
  if (r.kind) return `${r.kind} ${r.namespace}/${r.name}${r.fieldPath ? ` ${r.fieldPath}` : ''}`;
  return r.note ?? 'built in';
}
