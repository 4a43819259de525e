// The query registry: typed requests over the analyzed mesh, answered by the analysis worker
// (and usable anywhere the core runs). Each view is one file; `answerQuery` dispatches by
// name and checks nothing about the caller's types it cannot check at run time.
import { QueryError, type QueryState } from './common.ts';
import { answerWorkloads } from './workloads.ts';
import { answerServices } from './services.ts';
import { answerResource } from './resource.ts';
import { answerDataPlane, answerDataPlaneTrace, answerZtunnelConfig } from './dataplane.ts';
import { QUERY_VIEWS, type QueryArgs, type QueryResult, type QueryView } from './views.ts';

export type { QueryState } from './common.ts';
export { QueryError } from './common.ts';
export * from './views.ts';

type Handlers = { [V in QueryView]: (args: unknown, state: QueryState) => QueryResult<V> };

const HANDLERS: Handlers = {
  workloads: answerWorkloads,
  services: answerServices,
  resource: answerResource,
  dataplane: answerDataPlane,
  ztunnelConfig: answerZtunnelConfig,
  dataplaneTrace: answerDataPlaneTrace,
};

export function isQueryView(name: unknown): name is QueryView {
  return typeof name === 'string' && (QUERY_VIEWS as readonly string[]).includes(name);
}

/**
 * Answers one query over an analyzed state. Arguments of the wrong shape read as absent;
 * an unknown view or a missing required argument throws QueryError.
 */
export function answerQuery<V extends QueryView>(view: V, args: QueryArgs<V>, state: QueryState): QueryResult<V>;
export function answerQuery(view: string, args: unknown, state: QueryState): unknown;
export function answerQuery(view: string, args: unknown, state: QueryState): unknown {
  if (!isQueryView(view)) throw new QueryError(`Unknown query view ${typeof view === 'string' ? `"${view}"` : `of type ${typeof view}`} (known: ${QUERY_VIEWS.join(', ')}).`);
  return HANDLERS[view](args, state);
}
