// Typed queries to the analysis worker for the panels (`query('workloads', {...})`). The
// engine that owns the worker provides the transport; until it does, queries fail clearly.
import type { QueryArgs, QueryResult, QueryView } from '../core/queries/views.ts';

export type QueryTransport = <V extends QueryView>(view: V, args: QueryArgs<V>) => Promise<QueryResult<V>>;

let transport: QueryTransport | null = null;

export function setQueryTransport(t: QueryTransport | null): void {
  transport = t;
}

/** Asks the worker; resolves with the view's result from the latest analysis. */
export function query<V extends QueryView>(view: V, args: QueryArgs<V>): Promise<QueryResult<V>> {
  if (!transport) return Promise.reject(new Error(`No analysis worker to answer the "${view}" query.`));
  return transport(view, args);
}
