// The Proxy config view in the main area: pick a proxy (sidecar, gateway, waypoint) and see the
// Envoy config istiod would send it as `istioctl proxy-config` tables (same columns, same
// order) with what we add — where routes go, header matches, rows that fail requests (503 NC,
// 503 UH, 404 NR) — and each row's JSON and config line; a request simulator; what changed
// since the Review baseline; a real dump compared; route tests. It fills its container and
// scrolls inside; the inspector's summary shares its picked proxy.
import { useWorkerQuery } from '../common/useWorkerQuery.ts';
import { useProxyView } from '../../state/proxyView.ts';
import { ConfigTable } from './ConfigTable.tsx';
import { Simulator } from './Simulator.tsx';
import { Changes } from './Changes.tsx';
import { DumpCompare } from './DumpCompare.tsx';
import { RouteTestsView } from './RouteTests.tsx';
import { ProxyPicker } from './ProxyPicker.tsx';
import { useProxyConfigData } from './useProxyData.ts';
import { TABS, isTableTab } from './shared.ts';
import './proxyConfig.css';

export function ProxyConfigView() {
  const picked = useProxyView((s) => s.proxy);
  // How many proxies there are, and whether the picked one is among them (the picker pages the list).
  const proxies = useWorkerQuery('proxies', { limit: 0, include: picked });
  const tab = useProxyView((s) => s.tab);
  const total = proxies.data?.total ?? 0;
  // Nothing is generated until a proxy is picked: on a large mesh generation costs the worker
  // time after every edit, so it runs only for a proxy someone is looking at.
  const proxy = proxies.data?.items.some((p) => p.id === picked) ? picked : '';
  const config = useProxyConfigData(proxy);
  const data = config.data;

  let content;
  if (proxies.error) content = <div className="field-error">{proxies.error}</div>;
  else if (proxies.data && total === 0) {
    content = (
      <p className="empty-line" data-testid="proxy-none">
        No proxies: add pods (or Deployments) in a namespace with sidecar injection, or a gateway.
      </p>
    );
  }
  const summary = data?.proxy;
  const showNotes = data && data.notes.length > 0 && isTableTab(tab);
  return (
    <div className="proxy-view" data-testid="view-proxy-root">
      {content ?? (
        <div className="proxy-config" data-testid="proxy-config">
          <div className="pc-head">
            <ProxyPicker total={total} proxy={proxy} />
            {summary && (summary.syntheticAddress || summary.derived) && (
              <p className="muted proxy-note" data-testid="proxy-synthetic">
                {[
                  summary.derived ? `Pod derived from ${summary.derivedFrom ?? 'its controller'} (not in your files).` : '',
                  summary.syntheticAddress ? 'The pod has no IP in your files, so it gets a deterministic synthetic one.' : '',
                ]
                  .filter((x) => x !== '')
                  .join(' ')}
              </p>
            )}
          </div>
          <div className="proxy-tabs" role="tablist" aria-label="Proxy config views">
            {TABS.map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                aria-selected={t.id === tab}
                className={`proxy-tab${t.id === tab ? ' active' : ''}`}
                data-testid={`proxy-tab-${t.id}`}
                onClick={() => useProxyView.getState().setTab(t.id)}
              >
                {t.label}
              </button>
            ))}
          </div>
          {isTableTab(tab) && data ? (
            <ConfigTable key={`${proxy}/${tab}`} tab={tab} data={data} scope={tab} />
          ) : (
            <div className="pc-body">
              {tab === 'routeTests' && <RouteTestsView />}
              {proxy === '' && tab !== 'routeTests' && (
                <p className="muted" data-testid="proxy-choose">
                  Pick a sidecar, gateway or waypoint to see the Envoy config istiod would send it ({total} in the workspace).
                </p>
              )}
              {config.error && <div className="field-error">{config.error}</div>}
              {proxy !== '' && !data && !config.error && tab !== 'routeTests' && <p className="muted">Generating…</p>}
              {data && tab === 'simulate' && <Simulator proxy={proxy} provenance={data.provenance} />}
              {data && tab === 'changes' && <Changes proxy={proxy} data={data} />}
              {data && tab === 'dump' && (
                <DumpCompare
                  proxy={proxy}
                  onPick={(id) => useProxyView.getState().setProxy(id)}
                  renderTable={(t, d) => <ConfigTable key={`dump/${t}`} tab={t} data={d} scope={`dump:${t}`} />}
                />
              )}
            </div>
          )}
          {showNotes && (
            <details className="proxy-notes">
              <summary>Notes ({data.notes.length})</summary>
              <ul>
                {data.notes.map((n, i) => (
                  <li key={i}>{n}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </div>
  );
}
