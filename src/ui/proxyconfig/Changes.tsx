// "What changes": the picked proxy's listeners, routes, clusters and endpoints now, against
// the same proxy generated from the workspace's Review baseline (the files pinned here or in
// Review changes; one baseline for both). The baseline's files are analyzed in a worker of
// their own, as Review does, kept while this tab is open.
import { useEffect, useMemo, useState } from 'react';
import { pinBaseline, useWorkspaces } from '../../state/workspaces.ts';
import { useAnalysis, type UserSettings } from '../../state/analysis.ts';
import { analyzeSide, type AnalyzedSide } from '../../state/review.ts';
import type { FileLike } from '../../core/review/summary.ts';
import { diffResources, resourcesOfDump, type ConfigChange, type ResourceSet } from '../../core/xds/diff.ts';
import type { ProxyConfigResult } from '../../core/queries/views.ts';

type Side = AnalyzedSide & { dispose(): void };

// One analyzed baseline at a time: a new pin (or new settings) replaces it.
let cached: { files: readonly FileLike[]; settings: UserSettings; side: Promise<Side> } | null = null;
let users = 0;

function baselineSide(files: readonly FileLike[], settings: UserSettings): Promise<Side> {
  if (cached && cached.files === files && cached.settings === settings) return cached.side;
  release();
  const side = analyzeSide([...files], settings);
  cached = { files, settings, side };
  return side;
}

function release(): void {
  const old = cached;
  cached = null;
  void old?.side.then(
    (s) => s.dispose(),
    () => undefined,
  );
}

const EMPTY: ResourceSet = { listeners: [], routes: [], clusters: [], endpoints: [] };

/** What the baseline gave, and for which baseline, proxy and settings (by identity). */
type Before = { of: readonly unknown[] } & ({ resources: ResourceSet; absent: boolean } | { error: string });

export function Changes({ proxy, data }: { proxy: string; data: ProxyConfigResult }) {
  const baseline = useWorkspaces((s) => s.baseline);
  const mode = useWorkspaces((s) => s.mode);
  const settings = useAnalysis((s) => s.settings);
  const current = useMemo(() => resourcesOfDump(data.dump), [data]);
  const [before, setBefore] = useState<Before | null>(null);
  const [pinning, setPinning] = useState(false);

  useEffect(() => {
    users++;
    return () => {
      // Leaving the tab frees the baseline's worker.
      if (--users === 0) release();
    };
  }, []);

  useEffect(() => {
    if (!baseline) return;
    // A new pin makes a new baseline array, so identity tells which pin an answer is for.
    const of = [baseline, proxy, settings];
    let live = true;
    void (async () => {
      try {
        const side = await baselineSide(baseline, settings);
        const ids = (await side.query('proxies', { limit: 0, include: proxy })).items.map((p) => p.id);
        if (!ids.includes(proxy)) {
          if (live) setBefore({ of, resources: EMPTY, absent: true });
          return;
        }
        const r = await side.query('proxyConfig', { proxy });
        if (live) setBefore({ of, resources: resourcesOfDump(r.dump), absent: false });
      } catch (e) {
        if (live) setBefore({ of, error: e instanceof Error ? e.message : String(e) });
      }
    })();
    return () => {
      live = false;
    };
  }, [baseline, settings, proxy]);

  const ready = before && before.of[0] === baseline && before.of[1] === proxy && before.of[2] === settings ? before : null;
  const changes: ConfigChange[] = useMemo(() => (ready && 'resources' in ready ? diffResources(ready.resources, current) : []), [ready, current]);
  const canPin = mode !== 'review' && mode !== 'loading';
  const pin = () => {
    setPinning(true);
    void pinBaseline().finally(() => setPinning(false));
  };
  const pinButton = canPin && (
    <button type="button" className="button" data-testid="changes-pin" disabled={pinning} onClick={pin}>
      Pin current as baseline
    </button>
  );

  if (!baseline) {
    return (
      <div className="proxy-changes" data-testid="proxy-changes">
        <p className="muted" data-testid="changes-no-baseline">
          No baseline is pinned. Pin the current files as the baseline, edit, and this tab shows what your edits change in this proxy&apos;s config. Review
          changes compares with the same baseline.
        </p>
        {pinButton}
      </div>
    );
  }
  return (
    <div className="proxy-changes" data-testid="proxy-changes">
      <div className="changes-head">
        <span className="muted">Compared with the Review baseline (the files pinned here or in Review changes).</span>
        {pinButton}
      </div>
      {!ready && (
        <p className="muted" data-testid="changes-running">
          Generating this proxy from the baseline…
        </p>
      )}
      {ready && 'error' in ready && <div className="field-error">The baseline could not be generated: {ready.error}</div>}
      {ready && 'resources' in ready && ready.absent && (
        <p className="proxy-note" data-testid="changes-new-proxy">
          The baseline has no proxy {proxy}: all of its config is new.
        </p>
      )}
      {ready && 'resources' in ready && changes.length === 0 && (
        <p className="muted" data-testid="changes-none">
          No listener, route, cluster or endpoint changed since the baseline.
        </p>
      )}
      {changes.length > 0 && (
        <ul className="change-list">
          {changes.map((c) => (
            <li key={`${c.type}/${c.name}`} className={`change change-${c.change}`} data-testid="change-row" data-type={c.type} data-change={c.change}>
              <div>
                <span className="change-kind">{c.change}</span> {c.type} <code>{c.name}</code>
              </div>
              {c.fields.length > 0 && (
                <ul className="change-fields">
                  {c.fields.map((f, i) => (
                    <li key={i}>
                      <code>{f.path}</code>: {f.before ?? '(absent)'} → {f.after ?? '(absent)'}
                    </li>
                  ))}
                  {c.moreFields > 0 && <li className="muted">and {c.moreFields} more</li>}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
