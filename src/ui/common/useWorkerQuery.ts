// A worker query as React state: asked again whenever a new analysis result lands or the
// arguments change, only while `enabled`; answers to superseded asks are dropped.
import { useEffect, useRef, useState } from 'react';
import type { QueryArgs, QueryResult, QueryView } from '../../core/queries/views.ts';
import { query } from '../../state/queries.ts';
import { useAnalysis } from '../../state/analysis.ts';

export interface WorkerQueryState<V extends QueryView> {
  data: QueryResult<V> | undefined;
  error: string | null;
  loading: boolean;
}

export function useWorkerQuery<V extends QueryView>(view: V, args: QueryArgs<V>, enabled = true): WorkerQueryState<V> {
  const resultVersion = useAnalysis((s) => s.resultVersion);
  const [state, setState] = useState<WorkerQueryState<V>>({ data: undefined, error: null, loading: enabled });
  const seq = useRef(0);
  const argsKey = JSON.stringify(args);
  useEffect(() => {
    if (!enabled) return;
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    query(view, JSON.parse(argsKey) as QueryArgs<V>).then(
      (data) => {
        if (seq.current === mine) setState({ data, error: null, loading: false });
      },
      (e: unknown) => {
        if (seq.current === mine) setState((s) => ({ data: s.data, error: e instanceof Error ? e.message : 'The query failed.', loading: false }));
      },
    );
  }, [view, argsKey, enabled, resultVersion]);
  return state;
}
