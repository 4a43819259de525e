// Review mode (a shared link is open): the workspace is read-only in one place — the store
// refuses every change to the files and says why, the command registry offers no command that
// would change them (and refuses to run one), quick fixes and suppressions do nothing — and
// "Copy to my workspaces" saves the files exactly as the link carried them.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { READ_ONLY_NOTICE, fileText, useWorkspace } from '../../src/state/workspace.ts';
import { commandForKey, menuItems, paletteItems, registerCommands, runCommand } from '../../src/state/commands.ts';
import { applyQuickFix, suppressWithAnnotation } from '../../src/state/fixes.ts';
import { useAnalysis } from '../../src/state/analysis.ts';
import { useShareView } from '../../src/state/shareOpen.ts';
import { copySharedToMyWorkspaces, openShareLink } from '../../src/state/shareLink.ts';
import { getMeta, getWorkspace } from '../../src/state/idb.ts';
import { encodeShareFragment } from '../../src/core/share/link.ts';
import type { Diagnostic, QuickFix } from '../../src/core/document/types.ts';

const SHARED = 'apiVersion: v1\r\nkind: Namespace\r\nmetadata:\r\n  name: shop\r\n';
const OTHER = 'kind: ConfigMap\n';

const diag: Diagnostic = {
  level: 'Error',
  code: 'IST0101',
  message: 'Referenced host not found',
  source: 'analyzer',
  file: 'ns.yaml',
  line: 4,
  origin: 'Namespace shop',
} as Diagnostic;
const fix: QuickFix = {
  title: 'Rename',
  edits: [{ file: 'ns.yaml', range: { startLine: 4, startCol: 9, endLine: 4, endCol: 13 }, text: 'shop2' }],
} as QuickFix;

const readOnlyNotice = () => useWorkspace.getState().notices.find((n) => n.id === 'read-only');

function openLink(): void {
  const hash = encodeShareFragment({
    files: [
      { path: 'ns.yaml', text: SHARED },
      { path: 'other.yaml', text: OTHER },
    ],
    title: 'review',
    settings: { includePlaceholders: false, suppressions: ['IST0102=Namespace default'] },
  });
  expect(openShareLink(hash)).toBe(true);
}

let cleanup: Array<() => void> = [];
beforeEach(() => {
  useWorkspace.setState({ files: [], openTabs: [], active: null, notices: [], readOnly: false });
  useShareView.setState({ readOnly: false, linkError: null, review: null, linked: null });
});
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
  useWorkspace.setState({ readOnly: false });
});

describe('review mode', () => {
  it('puts the link on screen read-only; every change to the files is refused with the notice', () => {
    openLink();
    const ws = useWorkspace.getState();
    expect(ws.readOnly).toBe(true);
    expect(fileText('ns.yaml')).toBe(SHARED);
    ws.replaceText('ns.yaml', 'changed');
    expect(readOnlyNotice()?.text).toBe(READ_ONLY_NOTICE);
    ws.addFiles([{ path: 'new.yaml', text: 'x' }]);
    expect(useWorkspace.getState().createUntitled()).toBeNull();
    expect(ws.rename('ns.yaml', 'renamed.yaml')).toBe(READ_ONLY_NOTICE);
    ws.remove('other.yaml');
    ws.replaceAll([{ path: 'sample.yaml', text: 'kind: Sample\n' }]);
    const after = useWorkspace.getState();
    expect(after.files.map((f) => f.path)).toEqual(['ns.yaml', 'other.yaml']);
    expect(fileText('ns.yaml')).toBe(SHARED);
    // Opening and switching files still works.
    after.openFile('other.yaml');
    expect(useWorkspace.getState().active).toBe('other.yaml');
    // The link's settings stay as it carried them.
    useAnalysis.getState().setSettings({ suppressions: [] });
    expect(useAnalysis.getState().settings).toEqual({
      includePlaceholders: false,
      suppressions: ['IST0102=Namespace default'],
      istioctlMode: false,
      kialiPack: true,
    });
  });

  it('quick fixes and suppression annotations do nothing', async () => {
    openLink();
    expect(applyQuickFix(fix)).toBe(false);
    expect(await suppressWithAnnotation(diag)).toBe(false);
    expect(fileText('ns.yaml')).toBe(SHARED);
  });

  it('the registry offers no mutating command (menus, palette), refuses to run one, and still takes its key', async () => {
    let ran = 0;
    cleanup.push(
      registerCommands(
        { id: 't.fix', title: 'Fix it', mutates: true, menus: ['problem.fix'], keybinding: 'Alt+N', perform: () => ran++ },
        { id: 't.look', title: 'Look', menus: ['problem.fix'], perform: () => ran++ },
      ),
    );
    expect(menuItems('problem.fix', diag).map((i) => i.command.id)).toEqual(['t.fix', 't.look']);
    openLink();
    expect(menuItems('problem.fix', diag).map((i) => i.command.id)).toEqual(['t.look']);
    expect(paletteItems().map((i) => i.command.id)).not.toContain('t.fix');
    await runCommand('t.fix');
    expect(ran).toBe(0);
    expect(readOnlyNotice()?.text).toBe(READ_ONLY_NOTICE);
    const alt = { key: 'n', code: 'KeyN', altKey: true, ctrlKey: false, metaKey: false, shiftKey: false } as KeyboardEvent;
    expect(commandForKey(alt)?.id).toBe('t.fix');
    await runCommand('t.look');
    expect(ran).toBe(1);
    // Back in the person's own workspace, the command is offered and runs.
    useWorkspace.getState().setReadOnly(false);
    await runCommand('t.fix');
    expect(ran).toBe(2);
  });

  it('"Copy to my workspaces" saves the files as the link carried them, not what is on screen', async () => {
    openLink();
    // Whatever happened on screen (here: the store forced out of read-only and edited)…
    useWorkspace.getState().setReadOnly(false);
    useWorkspace.getState().replaceText('ns.yaml', 'edited on screen\n');
    useWorkspace.getState().addFiles([{ path: 'extra.yaml', text: 'kind: Extra\n' }]);
    useAnalysis.getState().setSettings({ suppressions: [] });
    expect(await copySharedToMyWorkspaces()).toBe(true);
    const id = await getMeta<string>('current');
    const saved = await getWorkspace(id!);
    expect(saved?.name).toBe('Shared: review');
    expect(saved?.files).toEqual([
      { path: 'ns.yaml', text: SHARED },
      { path: 'other.yaml', text: OTHER },
    ]);
    expect(saved?.openTabs).not.toContain('extra.yaml');
    expect(saved?.settings).toEqual({ includePlaceholders: false, suppressions: ['IST0102=Namespace default'], istioctlMode: false, kialiPack: true });
  });
});
