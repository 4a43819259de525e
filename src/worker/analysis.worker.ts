/// <reference lib="webworker" />
// Web Worker entry: one AnalysisHost (see host.ts) answers every message from the page.
import { AnalysisHost } from './host.ts';
import type { FromWorker } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

// Preloads wait for the page's `warm` (sent once its first results are painted).
const host = new AnalysisHost((msg: FromWorker) => self.postMessage(msg), { preloadOnWarm: true });

self.onmessage = (ev: MessageEvent<unknown>) => host.handle(ev.data);
