// Typed wrapper around the analysis worker, used by the UI state layer.
import type { WorkspaceFile } from '../core/model/types.ts';
import type { AnalysisSettings } from '../core/analysis/settings.ts';
import type { FromWorker, ToWorker } from './protocol.ts';

export interface AnalysisClientOptions {
  onMessage: (msg: FromWorker) => void;
  /** The worker died (script error, out of memory); the client has already restarted it. */
  onCrash?: (message: string) => void;
}

export class AnalysisClient {
  private worker: Worker;
  private readonly opts: AnalysisClientOptions;

  constructor(opts: AnalysisClientOptions) {
    this.opts = opts;
    this.worker = this.spawn();
  }

  private spawn(): Worker {
    const w = new Worker(new URL('./analysis.worker.ts', import.meta.url), { type: 'module', name: 'mesh-analysis' });
    w.onmessage = (ev: MessageEvent<FromWorker>) => this.opts.onMessage(ev.data);
    w.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      w.terminate();
      this.worker = this.spawn();
      this.opts.onCrash?.(ev.message || 'The analysis worker stopped unexpectedly.');
    };
    w.onmessageerror = () => this.opts.onCrash?.('A message from the analysis worker could not be read.');
    return w;
  }

  private send(msg: ToWorker): void {
    this.worker.postMessage(msg);
  }

  sync(version: number, changed: WorkspaceFile[], removed: string[], settings: AnalysisSettings): void {
    this.send({ type: 'sync', version, changed, removed, settings });
  }

  cancel(version: number): void {
    this.send({ type: 'cancel', version });
  }

  dispose(): void {
    this.worker.terminate();
  }
}
