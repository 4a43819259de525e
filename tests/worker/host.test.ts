// The analysis worker's message handling (AnalysisHost), without a browser: syncs with whole
// texts and editor changes, supersession, resync requests, queries and failures.
import { describe, expect, it } from 'vitest';
import { AnalysisHost, RESULT_PART_SIZE } from '../../src/worker/host.ts';
import { compareProblems } from '../../src/core/document/problemsOrder.ts';
import { rebuildDiagnostics } from '../../src/worker/client.ts';
import type { Diagnostic } from '../../src/core/document/types.ts';
import { generateMesh } from '../../bench/generateMesh.ts';
import type { FromWorker, ToWorker } from '../../src/worker/protocol.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { DEPLOYMENT } from './fixtures.ts';

const settings = defaultAnalysisSettings();

// A Service is there so the destination host analyzer runs (it needs Services).
const VS = (host: string) => `apiVersion: v1
kind: Service
metadata:
  name: known
  namespace: shop
spec:
  ports: [{name: http, port: 80}]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: reviews
  namespace: shop
spec:
  hosts: [reviews]
  http:
  - route:
    - destination:
        host: ${host}
`;

class Harness {
  readonly out: FromWorker[] = [];
  readonly host: AnalysisHost;
  private lastDiagnostics: Diagnostic[] = [];
  private parts: Diagnostic[][] = [];
  private version = 0;

  constructor(yieldEveryMs = 0) {
    this.host = new AnalysisHost(
      (m) => {
        const copy = structuredClone(m);
        // As the client does: a large result's parts go before its last part, and a result
        // that refers to the previous one is rebuilt from it.
        if (copy.type === 'resultPart') this.parts.push(copy.diagnostics);
        if (copy.type === 'result' && copy.parts !== undefined) {
          if (copy.parts !== this.parts.length) throw new Error(`a result of ${copy.parts} parts came after ${this.parts.length}`);
          const before = this.parts.flat();
          this.parts = [];
          if (copy.reuse) copy.reuse.added = [...before, ...copy.reuse.added];
          else copy.diagnostics = [...before, ...copy.diagnostics];
        }
        if (copy.type === 'result') {
          const diagnostics = copy.reuse ? rebuildDiagnostics(copy.reuse, this.lastDiagnostics) : copy.diagnostics;
          if (!diagnostics) throw new Error('a result referred to diagnostics the page does not have');
          this.lastDiagnostics = diagnostics;
          this.out.push({ ...copy, diagnostics });
          return;
        }
        this.out.push(copy);
      },
      { yieldEveryMs },
    );
  }
  send(msg: ToWorker | unknown): void {
    this.host.handle(msg);
  }

  sync(changes: Partial<Extract<ToWorker, { type: 'sync' }>>): number {
    const version = ++this.version;
    this.send({ type: 'sync', version, changed: [], edits: [], removed: [], settings, ...changes });
    return version;
  }

  /** Waits until the host is idle (all runs done, and the modules it imports on demand loaded). */
  async idle(): Promise<void> {
    for (let i = 0; i < 1000 && this.host.busy; i++) await new Promise((r) => setTimeout(r, 1));
    await this.host.settled();
    await new Promise((r) => setTimeout(r, 0));
  }

  of<T extends FromWorker['type']>(type: T): Extract<FromWorker, { type: T }>[] {
    return this.out.filter((m): m is Extract<FromWorker, { type: T }> => m.type === type);
  }

  lastResult() {
    const r = this.of('result');
    return r[r.length - 1];
  }

  hostsNotFound(): string[] {
    return (this.lastResult()?.diagnostics ?? [])
      .filter((d) => d.code === 'IST0101' && d.message.startsWith('Referenced host not found'))
      .map((d) => d.message);
  }
}

describe('analysis worker host', () => {
  it('analyzes whole texts, then applies editor changes to its copy', async () => {
    const h = new Harness();
    const text = VS('reviewz');
    h.sync({ changed: [{ path: 'vs.yaml', text }] });
    await h.idle();
    expect(h.hostsNotFound()).toEqual(['Referenced host not found: "reviewz"']);

    // Type "2" after "reviewz" (offset of the end of that word), as the editor reports it.
    const at = text.indexOf('reviewz') + 'reviewz'.length;
    const v2 = h.sync({ edits: [{ path: 'vs.yaml', changes: [{ offset: at, length: 0, text: '2' }], length: text.length + 1 }] });
    await h.idle();
    expect(h.lastResult()!.version).toBe(v2);
    expect(h.hostsNotFound()).toEqual(['Referenced host not found: "reviewz2"']);
    expect(h.lastResult()!.stats.reparsedDocuments).toBe(1);
  });

  it('a newer sync supersedes a running analysis; only its result is posted', async () => {
    const h = new Harness();
    const text = VS('a');
    const v1 = h.sync({ changed: [{ path: 'vs.yaml', text }] });
    const at = text.indexOf('host: a') + 'host: a'.length;
    // Sent while v1 runs: the changes wait for the run and then apply on top of v1's text.
    const v2 = h.sync({ edits: [{ path: 'vs.yaml', changes: [{ offset: at, length: 0, text: 'b' }], length: text.length + 1 }] });
    const v3 = h.sync({ edits: [{ path: 'vs.yaml', changes: [{ offset: at + 1, length: 0, text: 'c' }], length: text.length + 2 }] });
    await h.idle();
    expect(h.of('result').map((r) => r.version)).toEqual([v3]);
    expect(h.of('canceled').map((r) => r.version)).toEqual(expect.arrayContaining([v1]));
    expect(v2).toBeLessThan(v3);
    expect(h.hostsNotFound()).toEqual(['Referenced host not found: "abc"']);
  });

  it('asks for every file whole when changes do not fit its copy, and ignores syncs until then', async () => {
    const h = new Harness();
    const text = VS('a');
    h.sync({ changed: [{ path: 'vs.yaml', text }] });
    await h.idle();
    const results = h.of('result').length;
    // The page thinks the file is longer than it is in the worker.
    h.sync({ edits: [{ path: 'vs.yaml', changes: [{ offset: 0, length: 0, text: '#' }], length: text.length + 5 }] });
    expect(h.of('resync')).toHaveLength(1);
    expect(h.of('resync')[0]!.message).toMatch(/vs\.yaml/);
    // Changes for a file the worker never got, while waiting: ignored (no run, no second request).
    h.sync({ edits: [{ path: 'other.yaml', changes: [{ offset: 0, length: 0, text: 'x' }], length: 1 }] });
    await h.idle();
    expect(h.of('result')).toHaveLength(results);
    expect(h.of('resync')).toHaveLength(1);
    // The full sync replaces everything the worker had.
    const v = h.sync({ full: true, changed: [{ path: 'new.yaml', text: VS('fresh') }] });
    await h.idle();
    expect(h.lastResult()!.version).toBe(v);
    expect(h.hostsNotFound()).toEqual(['Referenced host not found: "fresh"']);
    expect(h.lastResult()!.stats.files).toBe(1);
  });

  it('asks for a resync when edits name a file it does not hold', () => {
    const h = new Harness();
    h.sync({ edits: [{ path: 'ghost.yaml', changes: [{ offset: 0, length: 0, text: 'x' }], length: 1 }] });
    expect(h.of('resync')[0]?.message).toMatch(/ghost\.yaml/);
  });

  it('keeps the text of binary and oversized files it does not parse, so edits still apply', async () => {
    const h = new Harness();
    const bin = 'a\u0000b';
    h.sync({ changed: [{ path: 'blob.bin', text: bin }] });
    await h.idle();
    expect(h.lastResult()!.diagnostics.some((d) => d.file === 'blob.bin' && /binary/.test(d.message))).toBe(true);
    // Removing the NUL makes it text again (a change against the binary text).
    h.sync({ edits: [{ path: 'blob.bin', changes: [{ offset: 1, length: 1, text: '' }], length: 2 }] });
    await h.idle();
    expect(h.of('resync')).toHaveLength(0);
    expect(h.lastResult()!.diagnostics.some((d) => d.file === 'blob.bin' && /binary/.test(d.message))).toBe(false);
  });

  it('answers typed queries from the latest analysis; a query sent first waits for it', async () => {
    const h = new Harness();
    h.send({ type: 'query', id: 1, view: 'workloads', args: {} });
    expect(h.of('queryResult')).toHaveLength(0);
    const v1 = h.sync({ changed: [{ path: 'd.yaml', text: DEPLOYMENT }] });
    await h.idle();
    const first = h.of('queryResult')[0]!;
    expect(first).toMatchObject({ id: 1, version: v1 });
    const r = first.result as { total: number; items: Array<{ identity: string; derivedFrom?: string }> };
    expect(r.total).toBe(3); // two derived pods and the assumed gateway
    expect(r.items.filter((w) => w.derivedFrom).map((w) => w.identity)).toEqual([
      'spiffe://cluster.local/ns/shop/sa/cart',
      'spiffe://cluster.local/ns/shop/sa/cart',
    ]);

    // A query during a run waits for that run and answers with its version.
    const at = DEPLOYMENT.indexOf('replicas: 2') + 'replicas: '.length;
    const v2 = h.sync({ edits: [{ path: 'd.yaml', changes: [{ offset: at, length: 1, text: '3' }], length: DEPLOYMENT.length }] });
    h.send({ type: 'query', id: 2, view: 'workloads', args: { derived: true } });
    await h.idle();
    const second = h.of('queryResult').find((m) => m.id === 2)!;
    expect(second.version).toBe(v2);
    expect((second.result as { total: number }).total).toBe(3);
  });

  it('answers "unchanged" when the page holds an equal answer, and the whole answer otherwise', async () => {
    const h = new Harness();
    h.sync({ changed: [{ path: 'd.yaml', text: DEPLOYMENT }] });
    await h.idle();
    const answer = (id: number) => h.of('queryResult').find((m) => m.id === id)!;
    h.send({ type: 'query', id: 1, view: 'workloads', args: {}, known: true });
    // Nothing remembered yet: sent whole although the page says it knows one.
    expect(answer(1).unchanged).toBeUndefined();
    expect((answer(1).result as { total: number }).total).toBe(3);
    h.send({ type: 'query', id: 2, view: 'workloads', args: {}, known: true });
    expect(answer(2)).toMatchObject({ unchanged: true, result: undefined });
    // A page that lost its copy gets it whole.
    h.send({ type: 'query', id: 3, view: 'workloads', args: {}, known: false });
    expect((answer(3).result as { total: number }).total).toBe(3);
    // Other args are another answer.
    h.send({ type: 'query', id: 4, view: 'workloads', args: { derived: true }, known: true });
    expect(answer(4).unchanged).toBeUndefined();
    // An edit that changes the answer sends it again.
    const at = DEPLOYMENT.indexOf('replicas: 2') + 'replicas: '.length;
    h.sync({ edits: [{ path: 'd.yaml', changes: [{ offset: at, length: 1, text: '3' }], length: DEPLOYMENT.length }] });
    await h.idle();
    h.send({ type: 'query', id: 5, view: 'workloads', args: {}, known: true });
    expect(answer(5).unchanged).toBeUndefined();
    expect((answer(5).result as { total: number }).total).toBe(4);
  });

  it('sends a result that is mostly the previous one as references to it', async () => {
    const h = new Harness();
    const mesh = generateMesh(100).text;
    h.sync({ changed: [{ path: 'mesh.yaml', text: mesh }] });
    await h.idle();
    const first = h.lastResult()!;
    expect(first.reuse).toBeUndefined();
    expect(first.diagnostics.length).toBeGreaterThan(64);
    const at = mesh.indexOf('host: svc-7\n') + 'host: svc-7'.length;
    h.sync({ edits: [{ path: 'mesh.yaml', changes: [{ offset: at, length: 0, text: '-gone' }], length: mesh.length + 5 }] });
    await h.idle();
    const second = h.lastResult()!;
    expect(second.reuse).toBeDefined();
    expect(second.reuse!.added.length).toBeLessThan(5);
    // The rebuilt list is what a fresh analysis of the edited text gives.
    const fresh = new Harness();
    fresh.sync({ changed: [{ path: 'mesh.yaml', text: mesh.slice(0, at) + '-gone' + mesh.slice(at) }] });
    await fresh.idle();
    const key = (d: Diagnostic) => `${d.code} ${d.line} ${d.message}`;
    expect(second.diagnostics.map(key)).toEqual(fresh.lastResult()!.diagnostics.map(key));
    expect(second.diagnostics.some((d) => d.message.includes('svc-7-gone'))).toBe(true);
  });

  it('a bad query fails alone, with a message', async () => {
    const h = new Harness();
    h.sync({ changed: [{ path: 'd.yaml', text: DEPLOYMENT }] });
    await h.idle();
    h.send({ type: 'query', id: 7, view: 'nope', args: {} });
    h.send({ type: 'query', id: 8, view: 'resource', args: {} });
    h.send({ type: 'query', id: 9, view: 'resource', args: { key: 'core/Namespace//nope' } });
    h.send({ type: 'query', id: 'x', view: 'workloads', args: {} });
    expect(h.of('queryFailed').map((m) => m.id)).toEqual([7, 8]);
    expect(h.of('queryFailed')[0]!.message).toMatch(/Unknown query view "nope"/);
    expect(h.of('queryResult')).toEqual([expect.objectContaining({ id: 9, result: null })]);
  });

  it('never throws out of handle, whatever arrives', async () => {
    const h = new Harness();
    for (const m of [
      null,
      undefined,
      42,
      'sync',
      [],
      {},
      { type: 'sync' },
      { type: 'sync', version: 1, changed: 'x', edits: {}, removed: null },
      { type: 'cancel' },
      { type: 'query' },
      { type: 'query', id: 1 },
    ]) {
      expect(() => h.send(m)).not.toThrow();
    }
    await h.idle();
    // Still works afterwards.
    h.sync({ changed: [{ path: 'vs.yaml', text: VS('after') }] });
    await h.idle();
    expect(h.hostsNotFound()).toEqual(['Referenced host not found: "after"']);
  });

  it('after a failed run it reports `failed`, fails waiting queries, and recovers from the texts it held', async () => {
    const h = new Harness();
    h.sync({ changed: [{ path: 'vs.yaml', text: VS('one') }] });
    await h.idle();
    // Make the next run throw once, inside the analyzer (as a bug in an analyzer would).
    const proto = WorkspaceAnalyzer.prototype as unknown as { runInner: (...a: unknown[]) => Promise<unknown> };
    const original = proto.runInner;
    let calls = 0;
    proto.runInner = function (this: WorkspaceAnalyzer, ...args: unknown[]) {
      if (calls++ === 0) return Promise.reject(new Error('boom'));
      return original.apply(this, args);
    };
    try {
      const text = VS('one');
      const at = text.indexOf('host: one') + 'host: one'.length;
      h.sync({ edits: [{ path: 'vs.yaml', changes: [{ offset: at, length: 0, text: 'x' }], length: text.length + 1 }] });
      await h.idle();
      expect(h.of('failed').map((f) => f.message)).toEqual(['boom']);
      h.send({ type: 'query', id: 3, view: 'workloads', args: {} });
      expect(h.of('queryFailed')[0]).toMatchObject({ id: 3 });
      expect(h.of('queryFailed')[0]!.message).toMatch(/boom/);
      // The next edit runs on a rebuilt analyzer that still has the text with both changes.
      h.sync({ edits: [{ path: 'vs.yaml', changes: [{ offset: at + 1, length: 0, text: 'y' }], length: text.length + 2 }] });
      await h.idle();
      expect(h.of('resync')).toHaveLength(0);
      expect(h.hostsNotFound()).toEqual(['Referenced host not found: "onexy"']);
    } finally {
      proto.runInner = original;
    }
  });

  it('cancel stops the run for the latest version', async () => {
    // Big enough that the run yields (every millisecond) before it is done.
    const h = new Harness(1);
    const v = h.sync({
      changed: [{ path: 'vs.yaml', text: Array.from({ length: 400 }, (_, i) => VS(`h${i}`).replace('name: reviews', `name: r${i}`)).join('---\n') }],
    });
    setTimeout(() => h.send({ type: 'cancel', version: v }), 0);
    await h.idle();
    expect(h.of('result')).toHaveLength(0);
    expect(h.of('canceled').map((c) => c.version)).toContain(v);
  });
});

describe('a large file in the worker', () => {
  /** A Service and 3,000 VirtualServices, each routing to a missing host: 3,000 IST0101, more than one message holds. */
  const MANY = Array.from({ length: 3000 }, (_, i) =>
    VS(`missing-${i}`)
      .replace('name: reviews', `name: r${i}`)
      .replace(/^[\s\S]*?---\n/, i === 0 ? '$&' : ''),
  ).join('---\n');

  it('posts a large result in parts of at most RESULT_PART_SIZE, which add up to the whole', async () => {
    const h = new Harness();
    h.sync({ changed: [{ path: 'many.yaml', text: MANY }] });
    await h.idle();
    const parts = h.of('resultPart');
    expect(parts.length).toBeGreaterThan(0);
    expect(parts.every((p) => p.diagnostics.length === RESULT_PART_SIZE)).toBe(true);
    const result = h.lastResult()!;
    // The same diagnostics as an analysis of the same text outside the worker, in the same order.
    const direct = new WorkspaceAnalyzer();
    direct.update([{ path: 'many.yaml', text: MANY }], []);
    const expected = await direct.run(settings);
    if (expected === 'canceled') throw new Error('canceled');
    expect(result.diagnostics.length).toBeGreaterThan(RESULT_PART_SIZE);
    expect(result.diagnostics.map((d) => `${d.code} ${d.line} ${d.message}`)).toEqual(expected.diagnostics.map((d) => `${d.code} ${d.line} ${d.message}`));
    // With the Problems panel's order, so the page need not sort them: each index once, in order.
    const order = Array.from(result.order ?? []);
    expect([...order].sort((a, b) => a - b)).toEqual(result.diagnostics.map((_, i) => i));
    const ordered = order.map((i) => result.diagnostics[i]!);
    for (let i = 1; i < ordered.length; i++) expect(compareProblems(ordered[i - 1]!, ordered[i]!)).toBeLessThanOrEqual(0);
  });

  it('says how far it is: reading the documents, building the model, then each analyzer', async () => {
    const h = new Harness(1);
    h.sync({ changed: [{ path: 'many.yaml', text: MANY }] });
    await h.idle();
    const steps = h.of('progress');
    const order = [...new Set(steps.map((p) => p.step))];
    expect(order).toEqual(['parse', 'model', 'analyze']);
    const parse = steps.filter((p) => p.step === 'parse') as Array<{ done: number; total: number }>;
    expect(parse.every((p, i) => p.total === MANY.length && p.done <= p.total && (i === 0 || p.done >= parse[i - 1]!.done))).toBe(true);
    const analyze = steps.filter((p) => p.step === 'analyze') as Array<{ done: number; total: number }>;
    expect(analyze.every((p) => p.done < p.total)).toBe(true);
  });

  it('a cancel while it reads the documents stops it there; the next sync reads the file to the end', async () => {
    const h = new Harness(1);
    const v = h.sync({ changed: [{ path: 'many.yaml', text: MANY }] });
    // Cancel as soon as the worker says it is reading documents.
    await new Promise<void>((resolve) => {
      const poll = () => (h.of('progress').some((p) => p.step === 'parse') ? resolve() : setTimeout(poll, 0));
      poll();
    });
    h.send({ type: 'cancel', version: v });
    await h.idle();
    expect(h.of('result')).toHaveLength(0);
    expect(h.of('progress').some((p) => p.step === 'analyze')).toBe(false);
    expect(h.of('canceled').map((c) => c.version)).toContain(v);
    h.sync({ changed: [] });
    await h.idle();
    expect(h.hostsNotFound()).toHaveLength(3000);
  });
});

describe('the Kiali pack in the worker', () => {
  const DR = `---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: dr
  namespace: shop
spec:
  host: nowhere
`;
  const kiali = { ...settings, kiali: true };
  const codes = (r: Extract<FromWorker, { type: 'result' }> | undefined) => (r?.diagnostics ?? []).map((d) => d.code);

  it("posts istioctl's findings first and Kiali's after them; an edit keeps the last Kiali findings until its own arrive", async () => {
    const h = new Harness();
    const text = VS('reviewz') + DR;
    const v1 = h.sync({ changed: [{ path: 'mesh.yaml', text }], settings: kiali });
    await h.idle();
    // KIA0202: the DestinationRule's host is in no registry (a warning under ALLOW_ANY).
    expect(codes(h.lastResult())).toContain('KIA0202');
    expect(h.lastResult()!.version).toBe(v1);

    const at = text.indexOf('reviewz') + 'reviewz'.length;
    const before = h.out.length;
    const v2 = h.sync({ edits: [{ path: 'mesh.yaml', changes: [{ offset: at, length: 0, text: '2' }], length: text.length + 1 }], settings: kiali });
    await h.idle();
    const results = h.out.slice(before).filter((m): m is Extract<FromWorker, { type: 'result' }> => m.type === 'result');
    expect(results.map((r) => r.version)).toEqual([v2, v2]);
    // The first carries the new istioctl finding and the Kiali finding kept from before; the second the pack's own.
    expect(results[0]!.diagnostics.some((d) => d.message === 'Referenced host not found: "reviewz2"')).toBe(true);
    expect(codes(results[0])).toContain('KIA0202');
    expect(codes(results[1])).toContain('KIA0202');
    expect(results[1]!.diagnostics.filter((d) => d.code === 'KIA0202')).toHaveLength(1);
  });

  it('with the toggle off, no KIA finding and one result per edit', async () => {
    const h = new Harness();
    h.sync({ changed: [{ path: 'mesh.yaml', text: VS('reviewz') + DR }] });
    await h.idle();
    expect(h.of('result')).toHaveLength(1);
    expect(codes(h.lastResult()).some((c) => c.startsWith('KIA'))).toBe(false);
  });
});

describe('a large text in pieces', () => {
  it('joins the pieces the sync names and analyzes the text they make', async () => {
    const text = VS('nowhere');
    const whole = new Harness();
    whole.sync({ changed: [{ path: 'vs.yaml', text }] });
    await whole.idle();
    const h = new Harness();
    // Cut anywhere, a line in two included.
    const cuts = [0, 7, 60, text.length];
    for (let i = 0; i + 1 < cuts.length; i++) h.send({ type: 'textPiece', path: 'vs.yaml', piece: text.slice(cuts[i], cuts[i + 1]), first: i === 0 });
    h.sync({ changed: [{ path: 'vs.yaml', pieces: cuts.length - 1 }] });
    await h.idle();
    expect(whole.hostsNotFound()).toHaveLength(1);
    expect(h.hostsNotFound()).toEqual(whole.hostsNotFound());
  });

  it('a new first piece starts the text over', async () => {
    const h = new Harness();
    h.send({ type: 'textPiece', path: 'vs.yaml', piece: 'stale: text\n', first: true });
    h.send({ type: 'textPiece', path: 'vs.yaml', piece: VS('nowhere'), first: true });
    h.sync({ changed: [{ path: 'vs.yaml', pieces: 1 }] });
    await h.idle();
    expect(h.hostsNotFound()).toHaveLength(1);
  });

  it('asks for everything again when fewer pieces came than the sync names, and analyzes nothing meanwhile', async () => {
    const h = new Harness();
    h.send({ type: 'textPiece', path: 'vs.yaml', piece: VS('nowhere'), first: true });
    h.sync({ changed: [{ path: 'vs.yaml', pieces: 2 }] });
    await h.idle();
    expect(h.of('resync').map((m) => m.message)).toEqual(['vs.yaml arrived in 1 of its 2 pieces']);
    expect(h.of('result')).toHaveLength(0);
    h.sync({ full: true, changed: [{ path: 'vs.yaml', text: VS('nowhere') }] });
    await h.idle();
    expect(h.hostsNotFound()).toHaveLength(1);
  });
});
