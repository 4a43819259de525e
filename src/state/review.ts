// Review of a change: each side is analyzed in a worker of its own (the page's worker keeps
// the open workspace), then the summary's sections are computed. Sections beyond diagnostics
// come from contributors: each collects what it needs from a side (through that side's typed
// worker queries) and diffs the two. xDS (listeners, routes, clusters) and ambient waypoint
// changes plug in here with `registerReviewContributor`.
import { AnalysisClient } from '../worker/client.ts';
import type { FromWorker } from '../worker/protocol.ts';
import type { Diagnostic } from '../core/document/types.ts';
import type { QueryArgs, QueryResult, QueryView } from '../core/queries/views.ts';
import type { DataPlanePod, DataPlaneService } from '../core/queries/dataplaneViews.ts';
import {
  diffDiagnostics,
  diffFiles,
  diffKeyed,
  type ChangeItem,
  type ChangeSection,
  type DiagnosticDiff,
  type FileChange,
  type FileLike,
} from '../core/review/summary.ts';
import { collectXds, diffXds, xdsNote, type XdsSnapshot } from '../core/review/xds.ts';
import { toAnalysisSettings, type UserSettings } from './analysis.ts';

export interface AnalyzedSide {
  files: FileLike[];
  diagnostics: Diagnostic[];
  query<V extends QueryView>(view: V, args: QueryArgs<V>): Promise<QueryResult<V>>;
}

export interface ReviewContributor<T = unknown> {
  id: string;
  title: string;
  collect(side: AnalyzedSide): Promise<T>;
  diff(before: T, after: T): ChangeItem[];
  /** What the section does not cover (shown above its items). */
  note?(before: T, after: T): string | undefined;
}

const contributors: ReviewContributor[] = [];

export function registerReviewContributor<T>(c: ReviewContributor<T>): void {
  const i = contributors.findIndex((x) => x.id === c.id);
  if (i >= 0) contributors[i] = c as ReviewContributor;
  else contributors.push(c as ReviewContributor);
}

/**
 * Ambient data plane (#9): pods whose enrollment (ambient, sidecar, none, pending) or
 * workload waypoint changes, and Services whose waypoint binding changes.
 */
registerReviewContributor<{ pods: Map<string, DataPlanePod>; services: Map<string, DataPlaneService> }>({
  id: 'ambient',
  title: 'Ambient enrollment and waypoints',
  async collect(side) {
    const r = await side.query('dataplane', {});
    return {
      pods: new Map(r.pods.filter((p) => p.role === 'app').map((p) => [`${p.namespace}/${p.name}`, p])),
      services: new Map(r.services.map((x) => [`${x.namespace}/${x.name}`, x])),
    };
  },
  diff(before, after) {
    const pod = (p: DataPlanePod) => `${p.mode}${p.waypoint ? `, waypoint ${p.waypoint}` : ''}`;
    const pods = diffKeyed(
      before.pods,
      after.pods,
      (b, a) => (pod(b) === pod(a) ? undefined : `${pod(b)} → ${pod(a)}`),
      (k) => `Pod ${k}`,
    );
    const svc = (x: DataPlaneService) => x.waypoint ?? 'no waypoint';
    const services = diffKeyed(
      before.services,
      after.services,
      (b, a) => (svc(b) === svc(a) ? undefined : `${svc(b)} → ${svc(a)}`),
      (k) => `Service ${k}`,
    ).filter((i) => i.kind === 'changed');
    return [...pods, ...services];
  },
});

/** xDS (#9): for the proxies of either side, listeners, routes and clusters added, removed and changed. */
registerReviewContributor<XdsSnapshot>({
  id: 'xds',
  title: 'Envoy config (listeners, routes, clusters)',
  collect: (side) => collectXds((view, args) => side.query(view, args)),
  diff: diffXds,
  note: xdsNote,
});

/** Analyzes one side in a worker of its own; call `dispose` when done. */
export function analyzeSide(files: FileLike[], settings: UserSettings): Promise<AnalyzedSide & { dispose(): void }> {
  return new Promise((resolve, reject) => {
    let client: AnalysisClient | null = null;
    const onMessage = (m: FromWorker) => {
      if (m.type === 'result' && m.version === 1) {
        const c = client!;
        resolve({ files, diagnostics: m.diagnostics, query: (view, args) => c.query(view, args), dispose: () => c.dispose() });
      } else if (m.type === 'failed') {
        client?.dispose();
        reject(new Error(m.message));
      }
    };
    client = new AnalysisClient({ onMessage, onCrash: (msg) => reject(new Error(msg)) });
    client.sync(1, { changed: files.map((f) => ({ path: f.path, text: f.text })), edits: [], removed: [], full: true }, toAnalysisSettings(settings));
  });
}

export interface ReviewSummary {
  files: FileChange[];
  diagnostics: DiagnosticDiff;
  sections: ChangeSection[];
}

export async function summarize(before: FileLike[], after: FileLike[], settings: UserSettings): Promise<ReviewSummary> {
  const [b, a] = await Promise.all([analyzeSide(before, settings), analyzeSide(after, settings)]);
  try {
    const sections: ChangeSection[] = [];
    for (const c of contributors) {
      try {
        const [cb, ca] = await Promise.all([c.collect(b), c.collect(a)]);
        const note = c.note?.(cb, ca);
        sections.push({ id: c.id, title: c.title, items: c.diff(cb, ca), ...(note ? { note } : {}) });
      } catch (e) {
        sections.push({ id: c.id, title: c.title, items: [], note: `Not available: ${e instanceof Error ? e.message : String(e)}` });
      }
    }
    return { files: diffFiles(before, after), diagnostics: diffDiagnostics(b.diagnostics, a.diagnostics), sections };
  } finally {
    b.dispose();
    a.dispose();
  }
}
