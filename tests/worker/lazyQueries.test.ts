// The query module (src/core/queries) is not in the worker's first chunk: the host imports it
// on the first query, or once the first result is posted. These tests hold the import back
// to check that queries sent before or while it loads are answered once it arrives, against
// the analyzed state, and that a failed import is reported and tried again.
import { describe, expect, it } from 'vitest';
import { AnalysisHost, type LazyLib, type QueriesModule } from '../../src/worker/host.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import type { FromWorker } from '../../src/worker/protocol.ts';
import { DEPLOYMENT } from './fixtures.ts';

/** CEL and certificate parsing: nothing here needs them. */
const unusedLib: LazyLib = { loaded: () => false, load: () => Promise.resolve() };

/** An import the test lets through (or fails) when it chooses. */
class HeldImport {
  calls = 0;
  private pending: Array<{ resolve: (m: QueriesModule) => void; reject: (e: unknown) => void }> = [];
  readonly load = (): Promise<QueriesModule> => {
    this.calls++;
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  };
  async release(): Promise<void> {
    const m = await import('../../src/core/queries/index.ts');
    for (const p of this.pending.splice(0)) p.resolve(m);
  }
  fail(message: string): void {
    for (const p of this.pending.splice(0)) p.reject(new Error(message));
  }
}

type Answer = { id: number; version?: number; total?: number; failed?: string };

class Harness {
  readonly out: FromWorker[] = [];
  readonly host: AnalysisHost;
  private version = 0;
  /** loadQueries calls made by the time each result was posted. */
  readonly importsAtResult: number[] = [];

  constructor(
    readonly held: HeldImport,
    preload = true,
    preloadOnWarm = false,
  ) {
    this.host = new AnalysisHost(
      (m) => {
        if (m.type === 'result') this.importsAtResult.push(held.calls);
        this.out.push(structuredClone(m));
      },
      { yieldEveryMs: 0, loadQueries: held.load, preload, preloadOnWarm, cel: unusedLib, pki: unusedLib },
    );
  }

  warm(): void {
    this.host.handle({ type: 'warm' });
  }

  sync(text: string, full = false): number {
    const version = ++this.version;
    this.host.handle({ type: 'sync', version, full, changed: [{ path: 'd.yaml', text }], edits: [], removed: [], settings: defaultAnalysisSettings() });
    return version;
  }

  query(id: number): void {
    this.host.handle({ type: 'query', id, view: 'workloads', args: {} });
  }

  /** Until no run is in flight (the held import may still be pending). */
  async runsDone(): Promise<void> {
    for (let i = 0; i < 1000 && this.host.busy; i++) await new Promise((r) => setTimeout(r, 1));
  }

  answers(): Answer[] {
    return this.out.flatMap((m): Answer[] => {
      if (m.type === 'queryResult') return [{ id: m.id, version: m.version, total: (m.result as { total: number }).total }];
      if (m.type === 'queryFailed') return [{ id: m.id, failed: m.message }];
      return [];
    });
  }
}

describe('the query module, imported on demand', () => {
  it('is imported after the first result is posted, not before', async () => {
    const h = new Harness(new HeldImport());
    h.sync(DEPLOYMENT);
    await h.runsDone();
    expect(h.importsAtResult).toEqual([0]);
    // The preload started once the diagnostics were out.
    expect(h.held.calls).toBe(1);
    await h.held.release();
    await h.host.settled();
  });

  it("with preloadOnWarm (the app's worker), the preload waits for the page's warm after the first result", async () => {
    const h = new Harness(new HeldImport(), true, true);
    h.sync(DEPLOYMENT);
    await h.runsDone();
    expect(h.held.calls).toBe(0);
    h.warm();
    expect(h.held.calls).toBe(1);
    await h.held.release();
    await h.host.settled();
  });

  it('a warm before any result (the page stopped waiting) preloads only once the first result is out', async () => {
    const h = new Harness(new HeldImport(), true, true);
    h.warm();
    expect(h.held.calls).toBe(0);
    h.sync(DEPLOYMENT);
    await h.runsDone();
    expect(h.importsAtResult).toEqual([0]);
    expect(h.held.calls).toBe(1);
    await h.held.release();
    await h.host.settled();
  });

  it('a query before the warm is still answered (it imports the module itself)', async () => {
    const h = new Harness(new HeldImport(), true, true);
    const v1 = h.sync(DEPLOYMENT);
    await h.runsDone();
    h.query(1);
    expect(h.held.calls).toBe(1);
    await h.held.release();
    await h.host.settled();
    expect(h.answers()).toEqual([{ id: 1, version: v1, total: 3 }]);
  });

  it('answers a query sent before the first analysis once both the analysis and the import are done', async () => {
    const h = new Harness(new HeldImport(), false);
    h.query(1);
    const v1 = h.sync(DEPLOYMENT);
    await h.runsDone();
    expect(h.answers()).toEqual([]);
    await h.held.release();
    await h.host.settled();
    expect(h.answers()).toEqual([{ id: 1, version: v1, total: 3 }]);
  });

  it('answers queries sent while the module loads, in order, from the state analyzed when it arrives', async () => {
    const h = new Harness(new HeldImport());
    h.sync(DEPLOYMENT);
    await h.runsDone();
    h.query(1);
    h.query(2);
    // An edit analyzed while the import is still under way: the answers are of its state.
    const v2 = h.sync(DEPLOYMENT.replace('replicas: 2', 'replicas: 3'));
    await h.runsDone();
    expect(h.answers()).toEqual([]);
    expect(h.held.calls).toBe(1);
    await h.held.release();
    await h.host.settled();
    expect(h.answers()).toEqual([
      { id: 1, version: v2, total: 4 },
      { id: 2, version: v2, total: 4 },
    ]);
    // Loaded now: a query is answered at once.
    h.query(3);
    expect(h.answers().at(-1)).toEqual({ id: 3, version: v2, total: 4 });
    expect(h.held.calls).toBe(1);
  });

  it('reports a failed import to the waiting queries, and imports again for the next query', async () => {
    const h = new Harness(new HeldImport(), false);
    h.sync(DEPLOYMENT);
    await h.runsDone();
    h.query(1);
    h.held.fail('chunk did not load');
    await h.host.settled();
    expect(h.answers()).toEqual([{ id: 1, failed: 'The query module did not load (chunk did not load).' }]);
    h.query(2);
    expect(h.held.calls).toBe(2);
    await h.held.release();
    await h.host.settled();
    expect(h.answers().at(-1)).toMatchObject({ id: 2, total: 3 });
  });
});
