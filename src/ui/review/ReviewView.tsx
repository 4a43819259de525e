// The Review view: a workspace against a pinned baseline, another workspace, or the "before"
// a shared link carries; the files side by side in Monaco's diff editor and a summary of what
// the change does (diagnostics added and removed, then each contributor's section). It opens
// in the main area beside the files; "Compare again" takes the files as they are now.
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { fileText, useWorkspace } from '../../state/workspace.ts';
import { useAnalysis } from '../../state/analysis.ts';
import { pinBaseline, clearBaseline, useWorkspaces } from '../../state/workspaces.ts';
import { useShareView } from '../../state/shareOpen.ts';
import { summarize, type ReviewSummary } from '../../state/review.ts';
import * as idb from '../../state/idb.ts';
import type { Diagnostic } from '../../core/document/types.ts';
import type { FileLike } from '../../core/review/summary.ts';
import { LevelIcon } from '../common/LevelIcon.tsx';
import { useViews } from '../../state/views.ts';

const DiffView = lazy(() => import('./DiffView.tsx'));

type Source = { kind: 'baseline' } | { kind: 'link' } | { kind: 'workspace'; id: string };

function currentFiles(): FileLike[] {
  return useWorkspace.getState().files.map((f) => ({ path: f.path, text: fileText(f.path) ?? '' }));
}

export default function ReviewView() {
  const mode = useWorkspaces((s) => s.mode);
  const baseline = useWorkspaces((s) => s.baseline);
  const list = useWorkspaces((s) => s.list);
  const currentId = useWorkspaces((s) => s.currentId);
  const linkBefore = useShareView((s) => s.review?.before);
  const [source, setSource] = useState<Source | null>(linkBefore ? { kind: 'link' } : baseline ? { kind: 'baseline' } : null);
  const [before, setBefore] = useState<FileLike[] | null>(null);
  const [after, setAfter] = useState<FileLike[]>(currentFiles);
  // Shown again (the view stays mounted while hidden): compare the files as they are now.
  const shown = useViews((s) => s.active === 'review');
  useEffect(() => {
    if (shown) setAfter(currentFiles());
  }, [shown]);
  const [summary, setSummary] = useState<ReviewSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setBefore(null);
    setSummary(null);
    setError(null);
    if (!source) return;
    const load = async (): Promise<FileLike[] | null> => {
      if (source.kind === 'link') return linkBefore ?? null;
      if (source.kind === 'baseline') return baseline;
      const w = await idb.getWorkspace(source.id);
      // Its large files are stored as Blobs: decoded here, a piece at a time.
      return w ? await idb.fileTexts(w.files) : null;
    };
    void load().then(async (b) => {
      if (!live || !b) return;
      setBefore(b);
      try {
        const s = await summarize(b, after, useAnalysis.getState().settings);
        if (live) {
          setSummary(s);
          setSelected((cur) => cur ?? s.files[0]?.path ?? null);
        }
      } catch (e) {
        if (live) setError(e instanceof Error ? e.message : String(e));
      }
    });
    return () => {
      live = false;
    };
  }, [source, baseline, linkBefore, after]);

  const sel = useMemo(() => {
    if (!selected || !before) return null;
    return { path: selected, before: before.find((f) => f.path === selected)?.text ?? '', after: after.find((f) => f.path === selected)?.text ?? '' };
  }, [selected, before, after]);

  const value = source ? (source.kind === 'workspace' ? `ws:${source.id}` : source.kind) : '';
  return (
    <div className="review-view" data-testid="review-dialog">
      <div className="review-toolbar">
        <label>
          Compare the open workspace with{' '}
          <select
            className="select"
            data-testid="review-source"
            value={value}
            onChange={(e) => {
              const v = e.target.value;
              setSelected(null);
              setSource(
                v === 'link' ? { kind: 'link' } : v === 'baseline' ? { kind: 'baseline' } : v.startsWith('ws:') ? { kind: 'workspace', id: v.slice(3) } : null,
              );
            }}
          >
            <option value="">Choose…</option>
            {linkBefore && <option value="link">the link's "before"</option>}
            {baseline && <option value="baseline">the pinned baseline</option>}
            {list
              .filter((w) => w.id !== currentId)
              .map((w) => (
                <option key={w.id} value={`ws:${w.id}`}>
                  workspace {w.name}
                </option>
              ))}
          </select>
        </label>
        <button
          type="button"
          className="button"
          data-testid="review-refresh"
          title="Compare the files as they are now"
          onClick={() => setAfter(currentFiles())}
        >
          Compare again
        </button>
        {mode === 'local' && (
          <>
            <button type="button" className="button" data-testid="pin-baseline" onClick={() => void pinBaseline().then(() => setSource({ kind: 'baseline' }))}>
              Pin the current files as baseline
            </button>
            {baseline && (
              <button type="button" className="button" data-testid="unpin-baseline" onClick={() => void clearBaseline().then(() => setSource(null))}>
                Unpin baseline
              </button>
            )}
          </>
        )}
      </div>
      {!source && <p className="modal-note">Pin a baseline now, edit, then come back here to see what your edits change. Or compare with another workspace.</p>}
      {error && <p className="error-text">The review could not be computed: {error}</p>}
      {source && !summary && !error && (
        <p className="modal-note" data-testid="review-running">
          Analyzing both sides…
        </p>
      )}
      {summary && (
        <div className="review-body">
          <section className="review-summary" data-testid="review-summary" aria-label="What this change does">
            <h3>What this change does</h3>
            <DiagnosticList title="Diagnostics added" items={summary.diagnostics.added} testId="diagnostics-added" />
            <DiagnosticList title="Diagnostics removed" items={summary.diagnostics.removed} testId="diagnostics-removed" />
            {summary.sections.map((s) => (
              <div key={s.id} className="review-section" data-testid={`review-section-${s.id}`}>
                <h4>{s.title}</h4>
                {s.note && <p className="modal-note">{s.note}</p>}
                {s.items.length === 0 && !s.note && <p className="modal-note">None.</p>}
                <ul>
                  {s.items.map((it, i) => (
                    <li key={i} className={`change-${it.kind}`}>
                      {it.kind === 'added' ? '+ ' : it.kind === 'removed' ? '− ' : '~ '}
                      {it.label}
                      {it.detail ? `: ${it.detail}` : ''}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </section>
          <section className="review-files" aria-label="Changed files">
            <h3>Files</h3>
            {summary.files.length === 0 && <p className="modal-note">No file differs.</p>}
            <ul className="review-file-list">
              {summary.files.map((f) => (
                <li key={f.path}>
                  <button
                    type="button"
                    className={`link-button${f.path === selected ? ' active' : ''}`}
                    data-testid="review-file"
                    onClick={() => setSelected(f.path)}
                  >
                    {f.kind === 'added' ? '+ ' : f.kind === 'removed' ? '− ' : '~ '}
                    {f.path}
                  </button>
                </li>
              ))}
            </ul>
            {sel && (
              <Suspense fallback={<p className="modal-note">Loading the diff editor…</p>}>
                <DiffView path={sel.path} before={sel.before} after={sel.after} />
              </Suspense>
            )}
          </section>
        </div>
      )}
    </div>
  );
}

function DiagnosticList({ title, items, testId }: { title: string; items: Diagnostic[]; testId: string }) {
  return (
    <div className="review-section" data-testid={testId}>
      <h4>
        {title} ({items.length})
      </h4>
      <ul>
        {items.map((d, i) => (
          <li key={i} data-testid="review-diagnostic" data-code={d.code}>
            <LevelIcon level={d.level} /> <strong>{d.code}</strong> {d.message}
            {d.file ? ` (${d.file}${d.line ? `:${d.line}` : ''})` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}
