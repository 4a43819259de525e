// Named workspaces in IndexedDB (fake-indexeddb stands in for the browser's): revisions make
// a save from a stale tab fail instead of overwriting.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { deleteWorkspace, getMeta, openDb, getWorkspace, listWorkspaces, patchWorkspace, saveWorkspace, setMeta } from '../../src/state/idb.ts';

const base = { name: 'W', files: [{ path: 'a.yaml', text: 'kind: A\n' }], openTabs: ['a.yaml'], active: 'a.yaml' };

describe('IndexedDB workspaces', () => {
  it('creates, lists, renames and deletes', async () => {
    expect(await saveWorkspace({ id: 'w1', ...base }, 0)).toEqual({ ok: true, rev: 1 });
    expect(await saveWorkspace({ id: 'w2', ...base, name: 'Another' }, 0)).toEqual({ ok: true, rev: 1 });
    expect((await listWorkspaces()).map((w) => w.name)).toEqual(['Another', 'W']);
    expect(await patchWorkspace('w1', { name: 'Renamed' })).toBe(2);
    expect((await getWorkspace('w1'))?.name).toBe('Renamed');
    await deleteWorkspace('w2');
    expect((await listWorkspaces()).map((w) => w.id)).toEqual(['w1']);
    await setMeta('current', 'w1');
    expect(await getMeta('current')).toBe('w1');
  });

  it('a save from an older revision is a conflict, unless forced', async () => {
    const tabA = await saveWorkspace({ id: 'c', ...base }, 0);
    expect(tabA).toEqual({ ok: true, rev: 1 });
    // Tab B saves on top of revision 1.
    expect(await saveWorkspace({ id: 'c', ...base, files: [{ path: 'a.yaml', text: 'kind: B\n' }] }, 1)).toEqual({ ok: true, rev: 2 });
    // Tab A, still at revision 1, must not overwrite it.
    expect(await saveWorkspace({ id: 'c', ...base, files: [{ path: 'a.yaml', text: 'kind: A2\n' }] }, 1)).toEqual({ ok: false, reason: 'conflict', rev: 2 });
    expect((await getWorkspace('c'))?.files[0]?.text).toBe('kind: B\n');
    // "Keep mine": forced.
    expect(await saveWorkspace({ id: 'c', ...base, files: [{ path: 'a.yaml', text: 'kind: A2\n' }] }, 1, true)).toEqual({ ok: true, rev: 3 });
    expect((await getWorkspace('c'))?.files[0]?.text).toBe('kind: A2\n');
    // Creating over an existing id is a conflict too.
    expect((await saveWorkspace({ id: 'c', ...base }, 0)).ok).toBe(false);
  });

  it('keeps revisions across renames, deletes and records saved before revisions had their own record', async () => {
    expect(await saveWorkspace({ id: 'r', ...base }, 0)).toEqual({ ok: true, rev: 1 });
    expect(await patchWorkspace('r', { name: 'Renamed' })).toBe(2);
    // The rename moved the revision on: a save from revision 1 is now stale.
    expect((await saveWorkspace({ id: 'r', ...base }, 1)).ok).toBe(false);
    expect(await saveWorkspace({ id: 'r', ...base }, 2)).toEqual({ ok: true, rev: 3 });
    // After a delete the id can be created again from revision 0.
    await deleteWorkspace('r');
    expect(await saveWorkspace({ id: 'r', ...base }, 0)).toEqual({ ok: true, rev: 1 });

    // A record written by an older version of the app (no revision record beside it).
    const db = await openDb();
    await new Promise<void>((resolve, reject) => {
      const tx = db!.transaction(['workspaces', 'meta'], 'readwrite');
      tx.objectStore('workspaces').put({ id: 'old', ...base, rev: 7, updatedAt: 1 });
      tx.objectStore('meta').delete('rev:old');
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    expect((await saveWorkspace({ id: 'old', ...base }, 6)).ok).toBe(false);
    expect(await saveWorkspace({ id: 'old', ...base }, 7)).toEqual({ ok: true, rev: 8 });
    expect((await getWorkspace('old'))?.rev).toBe(8);
  });

  it('a large file comes back exactly, also with characters outside the BMP and as a baseline', async () => {
    const big = `kind: ConfigMap # 😀 é\n${'data: x\n'.repeat(60_000)}`;
    const lone = `a: "\ud800"\n${'b: y\n'.repeat(70_000)}`; // an unpaired surrogate
    const files = [
      { path: 'big.yaml', text: big },
      { path: 'lone.yaml', text: lone },
    ];
    expect((await saveWorkspace({ id: 'big', ...base, files, baseline: { files, pinnedAt: 1 } }, 0)).ok).toBe(true);
    const back = await getWorkspace('big');
    expect(back?.files).toEqual(files);
    expect(back?.baseline?.files).toEqual(files);
    // A rename keeps the stored files as they are.
    await patchWorkspace('big', { name: 'Big' });
    expect((await getWorkspace('big'))?.files).toEqual(files);
    expect((await listWorkspaces()).find((w) => w.id === 'big')?.files).toBe(2);
  });
});
