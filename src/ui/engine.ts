// The one analysis worker + sync engine of the page, and the transport for worker queries.
import { AnalysisClient } from '../worker/client.ts';
import { startSync, type SyncEngine } from '../state/sync.ts';
import { useAnalysis } from '../state/analysis.ts';
import { setQueryTransport } from '../state/queries.ts';
import { afterFirstResults } from '../state/firstResults.ts';
import { pageFileLimit } from '../state/fileKind.ts';

let engine: SyncEngine | null = null;

export function startEngine(): SyncEngine {
  if (engine) return engine;
  let eng: SyncEngine | null = null;
  const client = new AnalysisClient({
    onMessage: (m) => eng?.onMessage(m),
    onCrash: (message) => {
      useAnalysis.setState({ running: false, failure: `The analysis worker stopped (${message}); restarted it.` });
      eng?.resendAll();
    },
  });
  eng = startSync(client, pageFileLimit());
  setQueryTransport((view, args) => client.query(view, args));
  // The worker's preloads (queries, certificates, CEL) wait until the first results are painted.
  afterFirstResults(() => client.warm());
  engine = eng;
  return eng;
}

export function getEngine(): SyncEngine | null {
  return engine;
}
