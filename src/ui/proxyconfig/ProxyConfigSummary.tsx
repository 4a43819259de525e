// The inspector's Proxy config tab: the proxy picker, what the picked proxy gets in one line
// (listeners, routes, clusters, endpoints, and how many rows fail requests), and the button
// that opens the full view in the main area. The picked proxy is the view's.
import { useEffect, useState } from 'react';
import { useWorkerQuery } from '../common/useWorkerQuery.ts';
import { useProxyView } from '../../state/proxyView.ts';
import { useViews } from '../../state/views.ts';
import type { SummaryCounts } from './summaryCounts.ts';
import { ProxyPicker } from './ProxyPicker.tsx';
import { useProxyConfigData } from './useProxyData.ts';
import './proxyConfig.css';

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

/**
 * The summary's numbers. Counting reads the dump with the config-dump tables, which load
 * here on first use (not with the page). The last numbers of the same proxy stay on screen
 * while a newer dump is counted.
 */
function useSummaryCounts(proxy: string, dump: unknown): SummaryCounts | undefined {
  const [shown, setShown] = useState<{ proxy: string; counts: SummaryCounts | undefined } | null>(null);
  useEffect(() => {
    if (dump === undefined) return;
    let live = true;
    void import('./summaryCounts.ts').then(({ configDumpFromValue, summaryCounts }) => {
      if (!live) return;
      const read = configDumpFromValue(dump);
      setShown({ proxy, counts: read.ok ? summaryCounts(read.dump) : undefined });
    });
    return () => {
      live = false;
    };
  }, [proxy, dump]);
  return dump !== undefined && shown?.proxy === proxy ? shown.counts : undefined;
}

export function ProxyConfigSummary() {
  const picked = useProxyView((s) => s.proxy);
  // How many proxies there are, and whether the picked one is among them (the picker pages the list).
  const proxies = useWorkerQuery('proxies', { limit: 0, include: picked });
  const total = proxies.data?.total ?? 0;
  const proxy = proxies.data?.items.some((p) => p.id === picked) ? picked : '';
  const { data, error } = useProxyConfigData(proxy);
  const counts = useSummaryCounts(proxy, data?.dump);
  return (
    <div className="proxy-summary" data-testid="proxy-summary">
      {proxies.error && <div className="field-error">{proxies.error}</div>}
      {proxies.data && total === 0 ? (
        <p className="empty-line" data-testid="proxy-none">
          No proxies: add pods (or Deployments) in a namespace with sidecar injection, or a gateway.
        </p>
      ) : (
        <ProxyPicker total={total} proxy={proxy} />
      )}
      {proxy === '' && total > 0 && (
        <p className="muted" data-testid="proxy-choose">
          Pick a sidecar, gateway or waypoint to see the Envoy config istiod would send it ({total} in the workspace).
        </p>
      )}
      {error && <div className="field-error">{error}</div>}
      {proxy !== '' && !data && !error && <p className="muted">Generating…</p>}
      {counts && (
        <p className="proxy-summary-counts" data-testid="proxy-summary-counts">
          {plural(counts.listeners, 'listener')}, {plural(counts.routes, 'route')}, {plural(counts.clusters, 'cluster')}, {plural(counts.endpoints, 'endpoint')}
          {counts.findings > 0 ? (
            <>
              ,{' '}
              <strong className="proxy-summary-findings" data-testid="proxy-summary-findings">
                {plural(counts.findings, 'row')} failing requests
              </strong>
            </>
          ) : (
            ', no row failing requests'
          )}
        </p>
      )}
      <button type="button" className="button primary" data-testid="open-view-proxy" onClick={() => useViews.getState().openView('proxy')}>
        Open Proxy config
      </button>
    </div>
  );
}
