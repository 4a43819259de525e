// The picked proxy's generated config, asked once for every part that shows it (the
// inspector's summary and the main-area view are mounted together): one worker query per
// proxy and analysis result, however many components read it.
import { useEffect } from 'react';
import { create } from 'zustand';
import { query } from '../../state/queries.ts';
import { useAnalysis } from '../../state/analysis.ts';
import type { ProxyConfigResult } from '../../core/queries/views.ts';

interface Shared {
  /** `<proxy>@<result version>` of the last answer. */
  key: string;
  proxy: string;
  data: ProxyConfigResult | undefined;
  error: string | null;
}

const useShared = create<Shared>()(() => ({ key: '', proxy: '', data: undefined, error: null }));
let asking = '';

export function useProxyConfigData(proxy: string): { data: ProxyConfigResult | undefined; error: string | null } {
  const version = useAnalysis((s) => s.resultVersion);
  const key = proxy === '' ? '' : `${proxy}@${version}`;
  useEffect(() => {
    if (key === '' || useShared.getState().key === key || asking === key) return;
    asking = key;
    query('proxyConfig', { proxy })
      .then(
        (data) => {
          if (asking === key) useShared.setState({ key, proxy, data, error: null });
        },
        (e: unknown) => {
          if (asking === key) useShared.setState({ key, proxy, data: undefined, error: e instanceof Error ? e.message : 'The query failed.' });
        },
      )
      .finally(() => {
        if (asking === key) asking = '';
      });
  }, [key, proxy]);
  const s = useShared();
  // While a newer answer is on its way the last one of the same proxy stays on screen.
  const data = s.data && s.data.proxy.id === proxy ? s.data : undefined;
  return { data, error: s.proxy === proxy ? s.error : null };
}
