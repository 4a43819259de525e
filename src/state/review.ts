// Review of a change: each side is analyzed in a worker of its own (the page's worker keeps
// the open workspace), then the summary's sections are computed. Sections beyond diagnostics
// come from contributors: each collects what it needs from a side (through that side's typed
// worker queries) and diffs the two. xDS (listeners, routes, clusters) and ambient waypoint
// changes plug in here with `registerReviewContributor`.
import { AnalysisClient } from '../worker/client.ts';
import type { FromWorker } from '../worker/protocol.ts';
import type { Diagnostic } from '../core/model/types.ts';
import type { QueryArgs, QueryResult, QueryView, WorkloadSummary } from '../core/queries/views.ts';
import { diffDiagnostics, diffFiles, diffKeyed, type ChangeItem, type ChangeSection, type DiagnosticDiff, type FileChange, type FileLike } from '../core/review/summary.ts';
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
}

const contributors: ReviewContributor[] = [];

export function registerReviewContributor<T>(c: ReviewContributor<T>): void {
  const i = contributors.findIndex((x) => x.id === c.id);
  if (i >= 0) contributors[i] = c as ReviewContributor;
  else contributors.push(c as ReviewContributor);
}

/** Pods whose way into the mesh (sidecar, ambient, none) changes. */
registerReviewContributor<Map<string, WorkloadSummary>>({
  id: 'mesh-enrollment',
  title: 'Pods whose mesh enrollment changes',
  async collect(side) {
    const out = new Map<string, WorkloadSummary>();
    for (let offset = 0; ; ) {
      const r = await side.query('workloads', { offset, limit: 2000 });
      for (const w of r.items) out.set(`${w.namespace}/${w.name}`, w);
      offset += r.items.length;
      if (r.items.length === 0 || offset >= r.total) break;
    }
    return out;
  },
  diff(before, after) {
    const mode = (w: WorkloadSummary) => `${w.mesh}${w.onRestart ? ` (after a restart: ${w.onRestart})` : ''}`;
    return diffKeyed(before, after, (b, a) => (mode(b) === mode(a) ? undefined : `${mode(b)} → ${mode(a)}`), (k) => `Pod ${k}`);
  },
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
        sections.push({ id: c.id, title: c.title, items: c.diff(cb, ca) });
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
