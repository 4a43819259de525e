// The proxy picker, in the inspector's summary and atop the view (one picked proxy for both):
// at most PICKER_LIMIT options, asked of the worker a page at a time, and a filter box when the
// mesh has more proxies.
import { memo, useState } from 'react';
import type { ProxySummary } from '../../core/queries/views.ts';
import { useProxyView } from '../../state/proxyView.ts';
import { useWorkerQuery } from '../common/useWorkerQuery.ts';
import { TYPE_LABEL } from './shared.ts';

/**
 * How many proxies the picker lists at once. A mesh of Deployments derives thousands of
 * pods, and a native list of 10,000 options took the page most of a second to build (on
 * every load of the file); past this many, a filter box narrows the list instead.
 */
const PICKER_LIMIT = 200;

/** The picker's options, rendered again only when the page of proxies or the pick changes (every analysis re-renders the panel). */
const ProxyOptions = memo(function ProxyOptions({ items, hidden }: { items: readonly ProxySummary[]; hidden: number }) {
  return (
    <>
      {items.map((p) => (
        <option key={p.id} value={p.id}>
          {p.id} ({TYPE_LABEL[p.type]})
        </option>
      ))}
      {hidden > 0 && (
        <option value="" disabled data-testid="proxy-picker-more">
          … {hidden.toLocaleString('en')} more: type in the filter box
        </option>
      )}
    </>
  );
});

/** `proxy` is the picked proxy when the workspace has it, else ''. */
export function ProxyPicker({ total, proxy }: { total: number; proxy: string }) {
  const [filter, setFilter] = useState('');
  // The worker filters and pages the list: a whole cluster has 100,000 proxies.
  const page = useWorkerQuery('proxies', { search: filter, limit: PICKER_LIMIT, include: proxy });
  const items = page.data?.items ?? [];
  const hidden = page.data ? page.data.matching - Math.min(page.data.matching, PICKER_LIMIT) : 0;
  return (
    <div className="proxy-picker-row">
      <label className="proxy-picker">
        <span>Proxy</span>
        <select
          className="text-input"
          value={proxy}
          data-testid="proxy-picker"
          aria-label="Proxy"
          onChange={(e) => useProxyView.getState().setProxy(e.target.value)}
        >
          {proxy === '' && <option value="">Choose a proxy…</option>}
          <ProxyOptions items={items} hidden={hidden} />
        </select>
      </label>
      {total > PICKER_LIMIT && (
        <input
          type="search"
          className="text-input proxy-picker-filter"
          placeholder={`Filter ${total.toLocaleString('en')} proxies`}
          aria-label="Filter proxies"
          data-testid="proxy-picker-filter"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      )}
    </div>
  );
}
