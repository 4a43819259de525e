// The page side of the worker protocol: typed queries resolve with their answers, fail with
// the worker's message, and are rejected (not left hanging) when the worker crashes.
import { describe, expect, it } from 'vitest';
import { AnalysisClient, QueryFailedError, rebuildDiagnostics, TEXT_IN_PIECES_CHARS, TEXT_PIECE_CHARS, type WorkerLike } from '../../src/worker/client.ts';
import type { Diagnostic } from '../../src/core/document/types.ts';
import type { FromWorker, ToWorker } from '../../src/worker/protocol.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';

class FakeWorker implements WorkerLike {
  sent: ToWorker[] = [];
  terminated = false;
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  onmessageerror: ((ev: MessageEvent) => void) | null = null;
  postMessage(msg: ToWorker): void {
    this.sent.push(msg);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(msg: FromWorker): void {
    this.onmessage?.({ data: msg } as MessageEvent<FromWorker>);
  }
  crash(message: string): void {
    this.onerror?.({ message, preventDefault() {} } as ErrorEvent);
  }
}

function setup() {
  const workers: FakeWorker[] = [];
  const messages: FromWorker[] = [];
  const crashes: string[] = [];
  const client = new AnalysisClient({ onMessage: (m) => messages.push(m), onCrash: (m) => crashes.push(m) }, () => {
    const w = new FakeWorker();
    workers.push(w);
    return w;
  });
  return { client, workers, messages, crashes };
}

const diag = (n: number): Diagnostic => ({ level: 'Error', code: 'IST0101', message: `m${n}`, file: 'a.yaml', line: n, source: 'analyzer' });
const resultOf = (version: number, diagnostics: Diagnostic[], parts?: number): FromWorker => ({
  type: 'result',
  version,
  diagnostics,
  resourceCount: 0,
  assumptions: [],
  skipped: [],
  stats: { files: 1, documents: 1, resources: 0, parseMs: 0, analyzeMs: 0, reparsedDocuments: 0 },
  ...(parts !== undefined ? { parts } : {}),
});

describe('a large result in parts', () => {
  it('puts the parts before the last message and hands the page one result', () => {
    const { workers, messages } = setup();
    const w = workers[0]!;
    w.reply({ type: 'resultPart', version: 3, diagnostics: [diag(1), diag(2)] });
    w.reply({ type: 'resultPart', version: 3, diagnostics: [diag(3)] });
    expect(messages).toHaveLength(0);
    w.reply(resultOf(3, [diag(4)], 2));
    expect(messages).toHaveLength(1);
    const r = messages[0] as Extract<FromWorker, { type: 'result' }>;
    expect(r.diagnostics.map((d) => d.line)).toEqual([1, 2, 3, 4]);
    expect('parts' in r).toBe(false);
  });

  it('asks for everything again when a part is missing or of another version', () => {
    const { workers, messages } = setup();
    const w = workers[0]!;
    w.reply({ type: 'resultPart', version: 3, diagnostics: [diag(1)] });
    w.reply(resultOf(4, [diag(2)], 1));
    expect(messages.map((m) => m.type)).toEqual(['resync']);
    w.reply(resultOf(5, [diag(2)], 1));
    expect(messages.map((m) => m.type)).toEqual(['resync', 'resync']);
  });

  it('a restarted worker starts with no parts and no earlier result', () => {
    const { client, workers, messages } = setup();
    workers[0]!.reply({ type: 'resultPart', version: 1, diagnostics: [diag(1)] });
    client.restart();
    expect(workers[0]!.terminated).toBe(true);
    const w = workers[1]!;
    w.reply(resultOf(1, [diag(2)]));
    expect((messages[0] as Extract<FromWorker, { type: 'result' }>).diagnostics.map((d) => d.line)).toEqual([2]);
  });
});

describe('analysis client', () => {
  it('sends typed queries and resolves each with its own answer', async () => {
    const { client, workers, messages } = setup();
    const w = workers[0]!;
    const a = client.query('workloads', { namespace: 'shop' });
    const b = client.query('resource', { key: 'core/Pod/shop/x' });
    const [qa, qb] = w.sent as Array<Extract<ToWorker, { type: 'query' }>>;
    expect(qa).toMatchObject({ type: 'query', view: 'workloads', args: { namespace: 'shop' } });
    expect(qb).toMatchObject({ type: 'query', view: 'resource' });
    expect(qa!.id).not.toBe(qb!.id);
    // Answers may come in any order.
    w.reply({ type: 'queryResult', id: qb!.id, version: 3, result: null });
    w.reply({ type: 'queryResult', id: qa!.id, version: 3, result: { total: 1 } });
    await expect(b).resolves.toBeNull();
    await expect(a).resolves.toEqual({ total: 1 });
    expect(client.pendingQueries).toBe(0);
    // Query answers are the client's business, not the sync engine's.
    expect(messages).toEqual([]);
  });

  it('resolves an "unchanged" answer with the answer it holds, and asks again when it holds none', async () => {
    const { client, workers } = setup();
    const w = workers[0]!;
    const queries = () => w.sent.filter((m): m is Extract<ToWorker, { type: 'query' }> => m.type === 'query');
    const first = client.query('workloads', { namespace: 'shop' });
    expect(queries()[0]!.known).toBe(false);
    const held = { total: 2 };
    w.reply({ type: 'queryResult', id: queries()[0]!.id, version: 1, result: held });
    await expect(first).resolves.toBe(held);
    const second = client.query('workloads', { namespace: 'shop' });
    expect(queries()[1]!.known).toBe(true);
    w.reply({ type: 'queryResult', id: queries()[1]!.id, version: 2, result: undefined, unchanged: true });
    // The same object: React sees nothing new to render.
    await expect(second).resolves.toBe(held);
    // Other args are not known yet.
    const other = client.query('workloads', { namespace: 'web' });
    expect(queries()[2]!.known).toBe(false);
    // A confused worker saying "unchanged" for an answer never received: asked again, whole.
    w.reply({ type: 'queryResult', id: queries()[2]!.id, version: 2, result: undefined, unchanged: true });
    expect(queries()).toHaveLength(4);
    expect(queries()[3]).toMatchObject({ view: 'workloads', args: { namespace: 'web' }, known: false });
    w.reply({ type: 'queryResult', id: queries()[3]!.id, version: 2, result: { total: 5 } });
    await expect(other).resolves.toEqual({ total: 5 });
    // After a crash the new worker remembers nothing, and neither does the client.
    w.crash('gone');
    void client.query('workloads', { namespace: 'shop' });
    expect(workers[1]!.sent.find((m) => m.type === 'query')).toMatchObject({ known: false });
  });

  it('rebuilds a result sent as references to the previous one, and asks for everything when out of step', () => {
    const { workers, messages } = setup();
    const w = workers[0]!;
    const d = (n: number) => ({ level: 'Error', code: `IST${n}`, message: `m${n}`, source: 'analyzer' }) as unknown as Diagnostic;
    const base = {
      resourceCount: 1,
      assumptions: [],
      skipped: [],
      stats: { files: 1, documents: 1, resources: 1, parseMs: 0, analyzeMs: 0, reparsedDocuments: 0 },
    };
    const first = [d(1), d(2), d(3)];
    w.reply({ type: 'result', version: 1, diagnostics: first, ...base });
    w.reply({ type: 'result', version: 2, diagnostics: [], reuse: { refs: Int32Array.from([2, -1, 0]), added: [d(9)] }, ...base });
    const second = messages[1] as Extract<FromWorker, { type: 'result' }>;
    expect(second.diagnostics.map((x) => x.code)).toEqual(['IST3', 'IST9', 'IST1']);
    expect(second.diagnostics[0]).toBe(first[2]);
    expect('reuse' in second).toBe(false);
    // A reference past the end: not applied; the page is told to send everything again.
    w.reply({ type: 'result', version: 3, diagnostics: [], reuse: { refs: Int32Array.from([7]), added: [] }, ...base });
    expect(messages[2]).toMatchObject({ type: 'resync' });
    expect(rebuildDiagnostics({ refs: Int32Array.from([-1]), added: [] }, [])).toBeUndefined();
    expect(rebuildDiagnostics({ refs: Int32Array.from([0]), added: [d(5)] }, [d(4)])).toBeUndefined();
  });

  it('a failed query rejects with the worker message', async () => {
    const { client, workers } = setup();
    const q = client.query('services', {});
    const id = (workers[0]!.sent[0] as { id: number }).id;
    workers[0]!.reply({ type: 'queryFailed', id, message: 'The analysis failed (boom)' });
    await expect(q).rejects.toThrow(QueryFailedError);
    await expect(q).rejects.toThrow('The analysis failed (boom)');
  });

  it('a crash rejects pending queries clearly, restarts the worker and reports the crash', async () => {
    const { client, workers, crashes } = setup();
    const q1 = client.query('workloads', {});
    const q2 = client.query('services', {});
    workers[0]!.crash('out of memory');
    await expect(q1).rejects.toThrow(/stopped \(out of memory\) before answering the "workloads" query/);
    await expect(q2).rejects.toThrow(/"services" query/);
    expect(workers[0]!.terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(crashes).toEqual(['out of memory']);
    // A late answer from the dead worker is ignored; the new worker takes new queries.
    workers[0]!.reply({ type: 'queryResult', id: 1, version: 1, result: {} });
    const q3 = client.query('workloads', {});
    const id = (workers[1]!.sent[0] as { id: number }).id;
    workers[1]!.reply({ type: 'queryResult', id, version: 2, result: { total: 0 } });
    await expect(q3).resolves.toEqual({ total: 0 });
  });

  it('forwards analysis messages, sends syncs and cancels, and rejects queries after dispose', async () => {
    const { client, workers, messages } = setup();
    client.sync(
      4,
      { changed: [{ path: 'a', text: 'x' }], edits: [{ path: 'b', changes: [{ offset: 0, length: 0, text: 'y' }], length: 2 }], removed: ['c'], full: true },
      defaultAnalysisSettings(),
    );
    client.cancel(4);
    expect(workers[0]!.sent.map((m) => m.type)).toEqual(['sync', 'cancel']);
    expect(workers[0]!.sent[0]).toMatchObject({ version: 4, full: true, removed: ['c'] });
    workers[0]!.reply({ type: 'started', version: 4 });
    workers[0]!.reply({ type: 'resync', message: 'out of step' });
    expect(messages.map((m) => m.type)).toEqual(['started', 'resync']);
    const pending = client.query('workloads', {});
    client.dispose();
    await expect(pending).rejects.toThrow(/shut down/);
    await expect(client.query('workloads', {})).rejects.toThrow(QueryFailedError);
  });
});

describe('a large text sent to the worker', () => {
  const settings = defaultAnalysisSettings();
  /** Waits until the fake worker holds a sync (the pieces go a task apart). */
  async function untilSynced(w: FakeWorker): Promise<void> {
    for (let i = 0; i < 10_000 && !w.sent.some((m) => m.type === 'sync'); i++) await new Promise((r) => setTimeout(r, 0));
  }

  it('goes in pieces before its sync, which names how many; what is sent meanwhile follows in order', async () => {
    const { client, workers } = setup();
    const w = workers[0]!;
    // A surrogate pair straddles a piece boundary: the pieces must join back to the same text.
    const text = `${'a'.repeat(TEXT_PIECE_CHARS - 1)}\u{1F600}${'b'.repeat(TEXT_IN_PIECES_CHARS + 10)}`;
    client.sync(
      1,
      {
        changed: [
          { path: 'big.yaml', text },
          { path: 'small.yaml', text: 'x: 1' },
        ],
        edits: [],
        removed: [],
      },
      settings,
    );
    client.cancel(1);
    void client.query('workloads', {});
    await untilSynced(w);
    await new Promise((r) => setTimeout(r, 0));
    const pieces = w.sent.filter((m): m is Extract<ToWorker, { type: 'textPiece' }> => m.type === 'textPiece');
    expect(pieces.length).toBe(Math.ceil(text.length / TEXT_PIECE_CHARS));
    expect(pieces.map((p) => p.first)).toEqual(pieces.map((_, i) => i === 0));
    expect(pieces.map((p) => p.piece).join('')).toBe(text);
    expect(w.sent.slice(pieces.length).map((m) => m.type)).toEqual(['sync', 'cancel', 'query']);
    const sync = w.sent[pieces.length] as Extract<ToWorker, { type: 'sync' }>;
    expect(sync.changed).toEqual([
      { path: 'big.yaml', pieces: pieces.length },
      { path: 'small.yaml', text: 'x: 1' },
    ]);
  });

  it('a text under the threshold goes whole, at once', () => {
    const { client, workers } = setup();
    const text = 'a'.repeat(TEXT_IN_PIECES_CHARS - 1);
    client.sync(1, { changed: [{ path: 'a.yaml', text }], edits: [], removed: [] }, settings);
    expect(workers[0]!.sent.map((m) => m.type)).toEqual(['sync']);
    expect((workers[0]!.sent[0] as Extract<ToWorker, { type: 'sync' }>).changed).toEqual([{ path: 'a.yaml', text }]);
  });

  it('a worker replaced while the pieces go gets none of them, and the new worker nothing queued for the old', async () => {
    const { client, workers } = setup();
    client.sync(1, { changed: [{ path: 'big.yaml', text: 'c'.repeat(TEXT_IN_PIECES_CHARS * 2) }], edits: [], removed: [] }, settings);
    client.cancel(1);
    const old = workers[0]!;
    expect(old.sent.length).toBe(1);
    client.restart();
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
    expect(old.sent.map((m) => m.type)).toEqual(['textPiece']);
    expect(workers[1]!.sent).toEqual([]);
    // The new worker is sent to at once again.
    client.cancel(2);
    expect(workers[1]!.sent.map((m) => m.type)).toEqual(['cancel']);
  });
});
