// The page's sync engine: whole texts for new and replaced files, editor content changes for
// files held by a model, a full resend after a crash or a resync request, and text stamps
// for quick fixes, all without building a model's whole text per keystroke.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RENDER_IN_OWN_TASK, startSync, SYNC_DEBOUNCE_MS, type SyncChanges, type SyncEngine } from '../../src/state/sync.ts';
import { nextTask } from '../../src/core/nextTask.ts';
import { fileText, textStamp, useWorkspace } from '../../src/state/workspace.ts';
import { emitTextEdited, registerTextModel, unregisterTextModel, type TextModelLike } from '../../src/state/texts.ts';
import { useAnalysis } from '../../src/state/analysis.ts';
import { applyTextChanges, type TextChange } from '../../src/worker/textChanges.ts';

/** A stand-in for a Monaco model: counts how often its whole text is built. */
class FakeModel implements TextModelLike {
  getValueCalls = 0;
  constructor(
    public value: string,
    readonly path: string,
  ) {}
  getValue(): string {
    this.getValueCalls++;
    return this.value;
  }
  getValueLength(): number {
    return this.value.length;
  }
  /** An edit as the editor makes it: change the text, report the change. */
  edit(changes: TextChange[]): void {
    this.value = applyTextChanges(this.value, changes)!;
    emitTextEdited({ path: this.path, changes, length: this.value.length });
  }
}

interface Sent {
  version: number;
  changes: SyncChanges;
}

let engine: SyncEngine;
let sent: Sent[];
const models: FakeModel[] = [];

/** What the editor does when it opens a file: a model takes the text, the store lets go of it. */
function openInEditor(path: string): FakeModel {
  const m = new FakeModel(useWorkspace.getState().files.find((f) => f.path === path)!.text!, path);
  registerTextModel(path, m);
  models.push(m);
  useWorkspace.getState().releaseTexts([path]);
  return m;
}

function flushDebounce(): void {
  vi.advanceTimersByTime(SYNC_DEBOUNCE_MS + 1);
}

beforeEach(() => {
  vi.useFakeTimers();
  useWorkspace.setState({ files: [], openTabs: [], active: null, notices: [], ready: false });
  useAnalysis.setState({ requestedVersion: 0, resultVersion: 0, analyzedStamps: null });
  sent = [];
  engine = startSync({ sync: (version, changes) => sent.push({ version, changes: structuredClone(changes) }), cancel: () => {} });
  useWorkspace.getState().replaceAll([
    { path: 'a.yaml', text: 'kind: A\n' },
    { path: 'b.yaml', text: 'kind: B\n' },
  ]);
  flushDebounce();
});

afterEach(() => {
  engine.dispose();
  for (const m of models.splice(0)) unregisterTextModel(m.path, m);
  vi.useRealTimers();
});

describe('sync engine', () => {
  it('sends new files whole, once', () => {
    expect(sent).toHaveLength(1);
    expect(sent[0]!.changes.changed.map((f) => f.path)).toEqual(['a.yaml', 'b.yaml']);
    expect(sent[0]!.changes.edits).toEqual([]);
    engine.flush();
    expect(sent).toHaveLength(1);
  });

  it('sends editor changes, not the whole text, and never builds the model text for them', () => {
    const m = openInEditor('a.yaml');
    expect(useWorkspace.getState().files.find((f) => f.path === 'a.yaml')!.text).toBeUndefined();
    expect(fileText('a.yaml')).toBe('kind: A\n');
    m.getValueCalls = 0;
    engine.flush();
    expect(sent).toHaveLength(1); // releasing the text changed nothing the worker has
    m.edit([{ offset: 7, length: 0, text: 'x' }]);
    m.edit([{ offset: 8, length: 0, text: 'y' }]);
    flushDebounce();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.changes.changed).toEqual([]);
    expect(sent[1]!.changes.edits).toEqual([
      {
        path: 'a.yaml',
        changes: [
          { offset: 7, length: 0, text: 'x' },
          { offset: 8, length: 0, text: 'y' },
        ],
        length: 10,
      },
    ]);
    expect(m.getValueCalls).toBe(0);
    // Applied to what the worker had, the changes give the model's text.
    expect(applyTextChanges('kind: A\n', sent[1]!.changes.edits[0]!.changes)).toBe(m.value);
  });

  it('a file replaced from outside the editor goes whole, and changes made before the flush are part of it', () => {
    const m = openInEditor('a.yaml');
    useWorkspace.getState().replaceText('a.yaml', 'kind: Replaced\n');
    // The editor pushes the text into the model and lets go of the store's copy.
    m.value = 'kind: Replaced\n';
    useWorkspace.getState().releaseTexts(['a.yaml']);
    m.edit([{ offset: 0, length: 0, text: '#' }]);
    flushDebounce();
    expect(sent[1]!.changes.changed).toEqual([{ path: 'a.yaml', text: '#kind: Replaced\n' }]);
    expect(sent[1]!.changes.edits).toEqual([]);
  });

  it('renames and removals', () => {
    const m = openInEditor('a.yaml');
    m.edit([{ offset: 0, length: 0, text: '# ' }]);
    useWorkspace.getState().rename('a.yaml', 'c.yaml');
    useWorkspace.getState().remove('b.yaml');
    flushDebounce();
    expect(sent[1]!.changes.removed.sort()).toEqual(['a.yaml', 'b.yaml']);
    expect(sent[1]!.changes.changed).toEqual([{ path: 'c.yaml', text: '# kind: A\n' }]);
    expect(sent[1]!.changes.edits).toEqual([]);
  });

  it('resends everything whole after a crash or when the worker asks', () => {
    const m = openInEditor('a.yaml');
    m.edit([{ offset: 0, length: 0, text: '# ' }]);
    engine.resendAll();
    expect(sent[1]!.changes.full).toBe(true);
    expect(sent[1]!.changes.changed).toEqual([
      { path: 'a.yaml', text: '# kind: A\n' },
      { path: 'b.yaml', text: 'kind: B\n' },
    ]);
    expect(sent[1]!.changes.edits).toEqual([]);
    m.edit([{ offset: 0, length: 0, text: '!' }]);
    engine.onMessage({ type: 'resync', message: 'out of step' });
    expect(sent[2]!.changes.full).toBe(true);
    expect(sent[2]!.changes.changed[0]).toEqual({ path: 'a.yaml', text: '!# kind: A\n' });
    // Afterwards, changes again.
    m.edit([{ offset: 0, length: 1, text: '' }]);
    flushDebounce();
    expect(sent[3]!.changes.full).toBeUndefined();
    expect(sent[3]!.changes.edits).toEqual([{ path: 'a.yaml', changes: [{ offset: 0, length: 1, text: '' }], length: 10 }]);
  });

  it('records a stamp of each text per version; a result makes them the analyzed stamps, and an edit changes the stamp', () => {
    const m = openInEditor('a.yaml');
    m.edit([{ offset: 0, length: 0, text: '#' }]);
    flushDebounce();
    const v = sent[sent.length - 1]!.version;
    const stampAtSync = textStamp('a.yaml');
    engine.onMessage({
      type: 'result',
      version: v,
      diagnostics: [],
      resourceCount: 0,
      assumptions: [],
      skipped: [],
      stats: { files: 2, documents: 2, resources: 0, parseMs: 0, analyzeMs: 0, reparsedDocuments: 0 },
    });
    expect(useAnalysis.getState().resultVersion).toBe(v);
    expect(useAnalysis.getState().analyzedStamps?.get('a.yaml')).toBe(stampAtSync);
    m.edit([{ offset: 0, length: 0, text: '#' }]);
    expect(textStamp('a.yaml')).not.toBe(stampAtSync);
    // A replaced text changes it too.
    const before = textStamp('b.yaml');
    useWorkspace.getState().replaceText('b.yaml', 'kind: C\n');
    expect(textStamp('b.yaml')).not.toBe(before);
  });

  it('ignores results for versions older than the last sync', () => {
    const m = openInEditor('a.yaml');
    m.edit([{ offset: 0, length: 0, text: '#' }]);
    flushDebounce();
    const older = sent[sent.length - 2]!.version;
    engine.onMessage({
      type: 'result',
      version: older,
      diagnostics: [{ level: 'Error', code: 'X', message: 'stale', source: 'parser' }],
      resourceCount: 0,
      assumptions: [],
      skipped: [],
      stats: { files: 0, documents: 0, resources: 0, parseMs: 0, analyzeMs: 0, reparsedDocuments: 0 },
    });
    expect(useAnalysis.getState().diagnostics.some((d) => d.message === 'stale')).toBe(false);
  });
});

describe('a large result', () => {
  it('is shown in a task after the one that received it, and what came after it waits its turn', async () => {
    const v = sent[sent.length - 1]!.version;
    const diagnostics = Array.from({ length: RENDER_IN_OWN_TASK }, (_, i) => ({
      level: 'Error' as const,
      code: 'IST0101',
      message: `m${i}`,
      file: 'a.yaml',
      line: i + 1,
      source: 'analyzer' as const,
    }));
    engine.onMessage({
      type: 'result',
      version: v,
      diagnostics,
      resourceCount: 0,
      assumptions: [],
      skipped: [],
      stats: { files: 2, documents: 2, resources: 0, parseMs: 0, analyzeMs: 0, reparsedDocuments: 0 },
    });
    // Quick fixes for that result arrive before it is shown: they must not be dropped.
    engine.onMessage({ type: 'fixes', version: v, fixes: [[3, [{ title: 'a fix', edits: [] } as never]]] });
    expect(useAnalysis.getState().resultVersion).not.toBe(v);
    await nextTask();
    await nextTask();
    const state = useAnalysis.getState();
    expect(state.resultVersion).toBe(v);
    expect(state.diagnostics).toHaveLength(RENDER_IN_OWN_TASK);
    expect(state.diagnostics[3]?.fixes).toEqual([{ title: 'a fix', edits: [] }]);
  });
});
