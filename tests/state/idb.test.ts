// Named workspaces in IndexedDB (fake-indexeddb stands in for the browser's): revisions make
// a save from a stale tab fail instead of overwriting.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { deleteWorkspace, getMeta, getWorkspace, listWorkspaces, patchWorkspace, saveWorkspace, setMeta } from '../../src/state/idb.ts';

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
});
