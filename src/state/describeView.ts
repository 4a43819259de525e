// The Describe view's own state: the pod described, the resource whose pods the picker lists
// when the view was opened from one ("Describe selected pods"), and the ambient trace's
// client. Kept in localStorage, so a reload describes the same pod.
import { create } from 'zustand';
import type { DescribeRef } from '../core/queries/views.ts';
import { readJson, writeJson } from './persistence.ts';
import { useViews } from './views.ts';

export const DESCRIBE_VIEW_KEY = 'mesh-workbench/describe-view/v1';

/** The resource the view was opened from, and the pods it selects. */
export interface DescribeScope {
  resource: DescribeRef;
  how: string;
  pods: Array<{ key: string; id: string }>;
  total: number;
}

export interface DescribeViewState {
  /** The pod: its store key (or `ns/name`); '' before one is chosen. */
  pod: string;
  scope: DescribeScope | null;
  /** Ambient pods: the client the trace starts from ('' for the view's pick). */
  traceFrom: string;
  /** Bumped to ask the view to focus its pod picker (not kept). */
  pickRequest: number;
  setPod(pod: string): void;
  setScope(scope: DescribeScope | null): void;
  setTraceFrom(from: string): void;
  requestPick(): void;
}

type Saved = Pick<DescribeViewState, 'pod' | 'scope' | 'traceFrom'>;

function readScope(v: unknown): DescribeScope | null {
  if (typeof v !== 'object' || v === null) return null;
  const s = v as Partial<DescribeScope>;
  const r = s.resource as Partial<DescribeRef> | undefined;
  if (!r || typeof r.resourceKey !== 'string' || typeof r.kind !== 'string' || typeof r.name !== 'string' || !Array.isArray(s.pods)) return null;
  const pods = s.pods.filter((p): p is { key: string; id: string } => typeof p?.key === 'string' && typeof p?.id === 'string');
  return {
    resource: { kind: r.kind, namespace: typeof r.namespace === 'string' ? r.namespace : '', name: r.name, resourceKey: r.resourceKey },
    how: typeof s.how === 'string' ? s.how : '',
    pods,
    total: typeof s.total === 'number' ? s.total : pods.length,
  };
}

function initial(): Saved {
  const saved = readJson<Record<string, unknown>>(DESCRIBE_VIEW_KEY);
  return {
    pod: typeof saved?.pod === 'string' ? saved.pod : '',
    scope: readScope(saved?.scope),
    traceFrom: typeof saved?.traceFrom === 'string' ? saved.traceFrom : '',
  };
}

function save(s: Saved): void {
  writeJson(DESCRIBE_VIEW_KEY, { pod: s.pod, scope: s.scope, traceFrom: s.traceFrom });
}

export const useDescribeView = create<DescribeViewState>()((set, get) => ({
  ...initial(),
  pickRequest: 0,
  setPod(pod) {
    if (pod === get().pod) return;
    set({ pod, traceFrom: '' });
    save(get());
  },
  setScope(scope) {
    set({ scope });
    save(get());
  },
  setTraceFrom(traceFrom) {
    set({ traceFrom });
    save(get());
  },
  requestPick() {
    set({ pickRequest: get().pickRequest + 1 });
  },
}));

/** Opens the Describe view on a pod; `scope`: the resource it was chosen from (the picker lists its pods). */
export function openDescribe(pod: string, scope: DescribeScope | null = null): void {
  const s = useDescribeView.getState();
  s.setScope(scope);
  s.setPod(pod);
  useViews.getState().openView('describe');
}

/** Opens the Describe view with its pod picker focused ("Describe a workload…"). */
export function pickAndDescribe(): void {
  useViews.getState().openView('describe');
  useDescribeView.getState().requestPick();
}
