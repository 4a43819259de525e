// The summary line's numbers, from a dump: listeners, routes (istioctl's route rows), clusters,
// endpoints, and the table rows that fail requests. Sections a dump lacks count as none.
import { configDumpFromValue, routeTable, clusterTable, edsTable, listenerTable, tableFindings, type ConfigDump } from '../../core/xds/configdump/index.ts';

export { configDumpFromValue };

function count(f: () => { rows: unknown[] }): number {
  try {
    return f().rows.length;
  } catch {
    return 0;
  }
}

export interface SummaryCounts {
  listeners: number;
  routes: number;
  clusters: number;
  endpoints: number;
  /** Rows with a finding (a route with two missing clusters counts once). */
  findings: number;
}

export function summaryCounts(dump: ConfigDump): SummaryCounts {
  const listeners = count(() => listenerTable(dump, { verbose: false }));
  const findings = new Set(tableFindings(dump).map((f) => `${f.table}/${f.key}`)).size;
  return { listeners, routes: count(() => routeTable(dump)), clusters: count(() => clusterTable(dump)), endpoints: count(() => edsTable(dump)), findings };
}
