// The query registry: typed requests over the analyzed mesh, answered by the analysis worker
// (and usable anywhere the core runs). Each view is one file; `answerQuery` dispatches by
// name and checks nothing about the caller's types it cannot check at run time.
import { QueryError, type QueryState } from './common.ts';
import { answerWorkloads } from './workloads.ts';
import { answerServices } from './services.ts';
import { answerResource } from './resource.ts';
import { answerProxies, answerProxyConfig, answerSimulate } from './xds.ts';
import { answerCertificates } from './certificates.ts';
import { answerProxyDumpDiff } from './dumpDiff.ts';
import { answerRouteTestFiles, answerRouteTests } from './routeTests.ts';
import { answerDataPlane, answerDataPlaneTrace, answerZtunnelConfig } from './dataplane.ts';
import { answerDescribe } from './describeQuery.ts';
import { answerDescribeTargets } from './describeTargets.ts';
import { QUERY_VIEWS, type QueryArgs, type QueryResult, type QueryView } from './views.ts';

export type { QueryState } from './common.ts';
export { QueryError } from './common.ts';
export * from './views.ts';

type AsyncView = 'certificates' | 'proxyDumpDiff';
type SyncView = Exclude<QueryView, AsyncView>;
type Handlers = { [V in SyncView]: (args: unknown, state: QueryState) => QueryResult<V> };
type AsyncHandlers = { [V in AsyncView]: (args: unknown, state: QueryState) => Promise<QueryResult<V>> };

const HANDLERS: Handlers = {
  workloads: answerWorkloads,
  services: answerServices,
  resource: answerResource,
  proxies: answerProxies,
  proxyConfig: answerProxyConfig,
  simulate: answerSimulate,
  dataplane: answerDataPlane,
  ztunnelConfig: answerZtunnelConfig,
  dataplaneTrace: answerDataPlaneTrace,
  routeTestFiles: answerRouteTestFiles,
  routeTests: answerRouteTests,
  describe: answerDescribe,
  describeTargets: answerDescribeTargets,
};

const ASYNC_HANDLERS: AsyncHandlers = {
  certificates: answerCertificates,
  proxyDumpDiff: answerProxyDumpDiff,
};

/** Whether a view is answered asynchronously (answerQueryAsync). */
export function isAsyncQueryView(name: unknown): name is AsyncView {
  return typeof name === 'string' && Object.hasOwn(ASYNC_HANDLERS, name);
}

/** Answers any view, the asynchronous ones included. */
export function answerQueryAsync<V extends QueryView>(view: V, args: QueryArgs<V>, state: QueryState): Promise<QueryResult<V>>;
export function answerQueryAsync(view: string, args: unknown, state: QueryState): Promise<unknown>;
export async function answerQueryAsync(view: string, args: unknown, state: QueryState): Promise<unknown> {
  if (isAsyncQueryView(view)) return ASYNC_HANDLERS[view](args, state);
  return answerQuery(view, args, state);
}

export function isQueryView(name: unknown): name is QueryView {
  return typeof name === 'string' && (QUERY_VIEWS as readonly string[]).includes(name);
}

/**
 * Answers one query over an analyzed state. Arguments of the wrong shape read as absent;
 * an unknown view or a missing required argument throws QueryError.
 */
export function answerQuery<V extends SyncView>(view: V, args: QueryArgs<V>, state: QueryState): QueryResult<V>;
export function answerQuery(view: string, args: unknown, state: QueryState): unknown;
export function answerQuery(view: string, args: unknown, state: QueryState): unknown {
  if (!isQueryView(view))
    throw new QueryError(`Unknown query view ${typeof view === 'string' ? `"${view}"` : `of type ${typeof view}`} (known: ${QUERY_VIEWS.join(', ')}).`);
  if (isAsyncQueryView(view)) throw new QueryError(`The "${view}" view is answered asynchronously (answerQueryAsync).`);
  return HANDLERS[view](args, state);
}
