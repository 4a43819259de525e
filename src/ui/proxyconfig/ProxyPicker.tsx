// The proxy picker, in the inspector's summary and atop the view (one picked proxy for both):
// at most PICKER_LIMIT options, and a filter box when the mesh has more proxies.
import { memo, useState } from 'react';
import type { ProxySummary } from '../../core/queries/views.ts';
import { useProxyView } from '../../state/proxyView.ts';
import { TYPE_LABEL } from './shared.ts';

/**
 * How many proxies the picker lists at once. A mesh of Deployments derives thousands of
 * pods, and a native list of 10,000 options took the page most of a second to build (on
 * every load of the file); past this many, a filter box narrows the list instead.
 */
const PICKER_LIMIT = 200;

/** The proxies the picker lists: the picked one, then those matching the filter, at most PICKER_LIMIT. */
function pickerItems<T extends { id: string }>(items: readonly T[], picked: string, filter: string): { shown: T[]; hidden: number } {
  const needle = filter.trim().toLowerCase();
  const matching = needle === '' ? items : items.filter((p) => p.id.toLowerCase().includes(needle));
  const shown = matching.slice(0, PICKER_LIMIT);
  const current = items.find((p) => p.id === picked);
  if (current && !shown.includes(current)) shown.unshift(current);
  return { shown, hidden: matching.length - Math.min(matching.length, PICKER_LIMIT) };
}

/** The picker's options, rendered again only when the list, the pick or the filter changes (every analysis re-renders the panel). */
const ProxyOptions = memo(function ProxyOptions({ items, picked, filter }: { items: readonly ProxySummary[]; picked: string; filter: string }) {
  const { shown, hidden } = pickerItems(items, picked, filter);
  return (
    <>
      {shown.map((p) => (
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
export function ProxyPicker({ items, proxy }: { items: readonly ProxySummary[]; proxy: string }) {
  const [filter, setFilter] = useState('');
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
          <ProxyOptions items={items} picked={proxy} filter={filter} />
        </select>
      </label>
      {items.length > PICKER_LIMIT && (
        <input
          type="search"
          className="text-input proxy-picker-filter"
          placeholder={`Filter ${items.length.toLocaleString('en')} proxies`}
          aria-label="Filter proxies"
          data-testid="proxy-picker-filter"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      )}
    </div>
  );
}
