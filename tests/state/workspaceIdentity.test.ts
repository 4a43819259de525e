// Workspace identity (#31): the title is the open workspace's name (one fact, in the
// workspaces store), a sample opens as a new workspace beside the open one, and the app's own
// confirm/prompt questions are answered one at a time through a promise.
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it, vi } from 'vitest';

// The page's events the workspaces module listens to (this runs in Node).
const noop = () => undefined;
vi.stubGlobal('window', { addEventListener: noop, removeEventListener: noop });
vi.stubGlobal('document', { addEventListener: noop, removeEventListener: noop, visibilityState: 'visible' });

const SAMPLES: Record<string, string> = {
  'samples/index.json': JSON.stringify({ default: 'certificates', samples: [{ id: 'certificates', title: 'Certificates', files: ['gateway.yaml'] }] }),
  'samples/certificates/gateway.yaml': 'kind: Gateway\n',
};
vi.stubGlobal('fetch', async (url: string) => (url in SAMPLES ? new Response(SAMPLES[url]) : new Response('', { status: 404 })));

const { createWorkspace, renameWorkspace, startLocalWorkspaces, switchWorkspace, useWorkspaces } = await import('../../src/state/workspaces.ts');
const { currentTitle, titleName } = await import('../../src/state/title.ts');
const { loadSample } = await import('../../src/state/boot.ts');
const { getWorkspace } = await import('../../src/state/idb.ts');
const { useWorkspace } = await import('../../src/state/workspace.ts');
const { askConfirm, askPrompt, useDialogQueue } = await import('../../src/state/dialogs.ts');

const names = () => useWorkspaces.getState().list.map((w) => w.name);
const paths = () => useWorkspace.getState().files.map((f) => f.path);

describe('the title follows the open workspace', () => {
  beforeAll(async () => {
    expect(await startLocalWorkspaces(async () => ({ files: [{ path: 'mesh.yaml', text: 'kind: A\n' }], name: 'Bookinfo with mistakes' }))).toBe(true);
  });

  it('names the first visit workspace after its sample', () => {
    expect(currentTitle()).toBe('Bookinfo with mistakes');
    expect(names()).toEqual(['Bookinfo with mistakes']);
  });

  it('follows create, rename and switch', async () => {
    const first = useWorkspaces.getState().currentId!;
    const staging = await createWorkspace('Staging', [{ path: 'staging.yaml', text: 'kind: B\n' }]);
    expect(currentTitle()).toBe('Staging');
    expect(await renameWorkspace(staging!, 'Staging mesh')).toBeNull();
    expect(currentTitle()).toBe('Staging mesh');
    await switchWorkspace(first);
    expect(currentTitle()).toBe('Bookinfo with mistakes');
    await switchWorkspace(staging!);
    expect(currentTitle()).toBe('Staging mesh');
  });

  it('opens a sample as a new workspace, leaving the open one as it was', async () => {
    const before = useWorkspaces.getState().currentId!;
    await loadSample('certificates');
    expect(currentTitle()).toBe('Certificates');
    expect(paths()).toEqual(['gateway.yaml']);
    expect(names()).toEqual(['Bookinfo with mistakes', 'Certificates', 'Staging mesh']);
    expect((await getWorkspace(before))?.files.map((f) => f.path)).toEqual(['staging.yaml']);
    // The same sample again: a name of its own.
    await loadSample('certificates');
    expect(currentTitle()).toBe('Certificates (2)');
  });

  it('names a shared link by its title, and says when it is loading', () => {
    expect(
      titleName(
        { mode: 'review', currentName: 'Staging' },
        {
          review: {
            title: 'Prod ingress',
            redacted: [],
            files: [],
            settings: { includePlaceholders: false, suppressions: [], istioctlMode: false, kialiPack: true },
          },
        },
      ),
    ).toBe('Prod ingress');
    expect(titleName({ mode: 'review', currentName: 'Staging' }, { review: null })).toBe('Shared workspace');
    expect(titleName({ mode: 'loading', currentName: '' }, { review: null })).toBe('Loading…');
  });
});

describe('in-app questions', () => {
  it('answers one question at a time, in the order asked', async () => {
    const a = askConfirm({ title: 'Delete?', confirmLabel: 'Delete', destructive: true });
    const b = askPrompt({ title: 'Name', label: 'Name', confirmLabel: 'OK' });
    expect(useDialogQueue.getState().queue.map((q) => q.title)).toEqual(['Delete?', 'Name']);
    useDialogQueue.getState().queue[0]!.settle(true);
    expect(await a).toBe(true);
    expect(useDialogQueue.getState().queue.map((q) => q.title)).toEqual(['Name']);
    const q = useDialogQueue.getState().queue[0]!;
    q.settle(null);
    q.settle('late');
    expect(await b).toBeNull();
    expect(useDialogQueue.getState().queue).toEqual([]);
  });
});
