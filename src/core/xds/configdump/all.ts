// `istioctl proxy-config all` (configdump.go PrintFullSummary): bootstrap versions, clusters,
// listeners, routes, secrets and EDS endpoints, names prefixed with their type, each table
// followed by a blank line, optionally under `------ X INFO ------` banners. Like istioctl, an
// error stops the output where it happens: what was printed before it stays.
import { clusterTable, type ClusterFilter } from './clusters.ts';
import { type ConfigDump, ConfigDumpError } from './dump.ts';
import { versionSummary, versionSummaryText } from './ecds.ts';
import { edsTable, type EndpointFilter } from './endpoints.ts';
import { listenerTable, type ListenerFilter } from './listeners.ts';
import { routeTable, type RouteFilter } from './routes.ts';
import { secretSummary, secretSummaryText } from './secrets.ts';
import { tableText } from './table.ts';

export interface AllOptions {
  withHeaders?: boolean;
  /** Clock for the secrets' VALID CERT column. */
  now: Date;
  cluster?: ClusterFilter;
  listener?: ListenerFilter;
  route?: RouteFilter;
  endpoint?: EndpointFilter;
}

export interface RenderResult {
  /** What istioctl writes to stdout (up to the error, if any). */
  text: string;
  /** istioctl's error, printed as `Error: <error>` with exit code 1. */
  error?: string;
}

/** Runs a renderer the way the CLI does: an istioctl error becomes `error`, the text so far stays. */
export function renderSafely(parts: (() => string)[]): RenderResult {
  let text = '';
  for (const part of parts) {
    try {
      text += part();
    } catch (e) {
      if (e instanceof ConfigDumpError) return { text, error: e.message };
      throw e;
    }
  }
  return { text };
}

export function renderAll(dump: ConfigDump, opts: AllOptions): RenderResult {
  const header = (s: string) => (opts.withHeaders ? `------ ${s} ------\n\n` : '');
  const include = { includeConfigType: true };
  return renderSafely([
    () => header('BOOTSTRAP INFO'),
    () => versionSummaryText(versionSummary(dump)),
    () => '\n' + header('CLUSTER INFO'),
    () => tableText(clusterTable(dump, opts.cluster, include)),
    () => '\n' + header('LISTENER INFO'),
    () => tableText(listenerTable(dump, { verbose: true, ...opts.listener }, include)),
    () => '\n' + header('ROUTE INFO'),
    () => tableText(routeTable(dump, { verbose: true, ...opts.route }, include)),
    () => '\n' + header('SECRET INFO'),
    () => secretSummaryText(secretSummary(dump, { now: opts.now, ...include })),
    () => '\n' + header('ENDPOINTS INFO'),
    () => tableText(edsTable(dump, opts.endpoint, include)),
  ]);
}
