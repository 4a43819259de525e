// The workbench's own commands: quick fixes and suppressions, files, samples, panes, the
// palette and the editor's Tab focus mode. Panels register theirs the same way (one
// registerCommands call, see src/state/commands.ts).
import type { Diagnostic, QuickFix } from '../../core/document/types.ts';
import { registerCommands, type Command } from '../../state/commands.ts';
import { useAnalysis, useEditorUi } from '../../state/analysis.ts';
import { fileText, useWorkspace } from '../../state/workspace.ts';
import { useUi } from '../../state/ui.ts';
import { cyclePane, focusEditor, focusPane } from '../focus.ts';
import { downloadText } from '../share/download.ts';
import { addFileList } from '../workspace/addFiles.ts';
import { confirmDialog } from '../common/Dialog.tsx';
import { SHARE_COMMANDS } from '../share/dialogs.ts';

export interface FixArg {
  d: Diagnostic;
  fix: QuickFix;
}

function editable(path: string | undefined): boolean {
  return !!path && useWorkspace.getState().files.some((f) => f.path === path && f.kind === 'text');
}

function activePath(): string | null {
  return useWorkspace.getState().active;
}

/** Diagnostics of the active file, nearest the cursor first. */
function diagnosticsNearCursor(limit = 200): Diagnostic[] {
  const path = activePath();
  if (!path) return [];
  const line = useEditorUi.getState().cursor?.line ?? 1;
  const list = useAnalysis.getState().diagnostics.filter((d) => d.file === path);
  const at = (d: Diagnostic) => d.range?.startLine ?? d.line ?? 0;
  const dist = (d: Diagnostic) => {
    const s = at(d);
    const e = d.range?.endLine ?? s;
    return line >= s && line <= e ? 0 : Math.min(Math.abs(line - s), Math.abs(line - e));
  };
  return list.sort((a, b) => dist(a) - dist(b)).slice(0, limit);
}

/** The diagnostic under the cursor in the active file (the nearest one on the cursor's line). */
function diagnosticAtCursor(): Diagnostic | undefined {
  const d = diagnosticsNearCursor(1)[0];
  if (!d) return undefined;
  const line = useEditorUi.getState().cursor?.line ?? 1;
  const s = d.range?.startLine ?? d.line ?? 0;
  const e = d.range?.endLine ?? s;
  return line >= s && line <= e ? d : undefined;
}

function atCursorList(): Diagnostic[] {
  const d = diagnosticAtCursor();
  return d ? [d] : [];
}

function location(d: Diagnostic): string {
  return d.file ? `${d.file}${d.line ? `:${d.line}` : ''}` : '';
}

/**
 * After an edit: focus goes to the editor, so Ctrl+Z undoes a fix to the open file at once.
 * Applying a fix is not navigation: a fix to another file leaves the open file as it is.
 */
function backToEditor(): void {
  requestAnimationFrame(() => {
    if (!focusEditor()) focusPane('problems');
  });
}

function addSuppressionRule(d: Diagnostic): void {
  if (!d.origin) return;
  const s = useAnalysis.getState();
  const rule = `${d.code}=${d.origin}`;
  if (!s.settings.suppressions.includes(rule)) s.setSettings({ suppressions: [...s.settings.suppressions, rule] });
}

function pickUpload(): void {
  const input = document.createElement('input');
  input.type = 'file';
  input.multiple = true;
  input.accept = '.yaml,.yml,.json,.txt,text/*,application/json,application/x-yaml';
  input.addEventListener('change', () => {
    const list = Array.from(input.files ?? []);
    if (list.length > 0) void addFileList(list);
  });
  input.click();
}

function downloadFile(path: string): void {
  const text = fileText(path);
  if (text !== undefined) downloadText(path.slice(path.lastIndexOf('/') + 1), text);
}

async function deleteFile(path: string): Promise<void> {
  const ok = await confirmDialog({
    title: `Delete ${path}?`,
    message: 'This cannot be undone.',
    confirmLabel: 'Delete file',
    destructive: true,
    testId: 'delete-file-dialog',
  });
  if (ok) {
    useWorkspace.getState().remove(path);
    requestAnimationFrame(() => focusPane('workspace'));
  } else if (document.activeElement === document.body) {
    // Asked from the palette, which has closed: back to the editor rather than nowhere.
    focusEditor();
  }
}

const fixCommand: Command<FixArg> = {
  id: 'problems.applyFix',
  category: 'Quick fix',
  mutates: true,
  title: ({ fix }) => fix.title,
  detail: ({ d }) => `${d.code} ${location(d)}: ${d.message}`,
  menus: ['problem.fix'],
  order: 10,
  forDiagnostic: (d) => (editable(d.file) ? (d.fixes ?? []).map((fix) => ({ d, fix })) : []),
  paletteArgs: () => diagnosticsNearCursor().flatMap((d) => (editable(d.file) ? (d.fixes ?? []).map((fix) => ({ d, fix })) : [])),
  preferred: ({ fix }) => fix.isPreferred === true,
  // The fix code (and the suppression writer) loads at the first fix.
  async perform({ fix }) {
    const { applyQuickFix } = await import('../../state/fixes.ts');
    const ok = applyQuickFix(fix);
    backToEditor();
    return ok;
  },
};

const suppressAnnotation: Command<Diagnostic> = {
  id: 'problems.suppressWithAnnotation',
  category: 'Problems',
  mutates: true,
  title: (d) =>
    `Suppress ${d.code} on ${d.origin} with an annotation (${/^KIA\d{4}$/.test(d.code) ? 'kiali.io/ignore-validations' : 'galley.istio.io/analyze-suppress'})`,
  detail: (d) => `${location(d)}: ${d.message}`,
  menus: ['problem.suppress'],
  order: 20,
  when: (d) => !!d && d.source === 'analyzer' && !!d.origin && editable(d.file),
  paletteArgs: () => atCursorList(),
  async perform(d) {
    const { suppressWithAnnotation } = await import('../../state/fixes.ts');
    const ok = await suppressWithAnnotation(d);
    backToEditor();
    return ok;
  },
};

const suppressRule: Command<Diagnostic> = {
  id: 'problems.suppressWithRule',
  category: 'Problems',
  mutates: true,
  title: (d) => `Suppress ${d.code} on ${d.origin} with a settings rule (istioctl -S)`,
  detail: (d) => `${location(d)}: ${d.message}`,
  menus: ['problem.suppress'],
  order: 10,
  when: (d) => !!d && !!d.origin,
  paletteArgs: () => atCursorList(),
  perform(d) {
    addSuppressionRule(d);
    // The row goes away: stay in the Problems list.
    requestAnimationFrame(() => focusPane('problems'));
  },
};

const fileOpen: Command<string> = {
  id: 'file.open',
  category: 'File',
  title: (p) => p,
  hidden: true,
  paletteArgs: () => useWorkspace.getState().files.map((f) => f.path),
  perform(path) {
    useWorkspace.getState().openFile(path);
    requestAnimationFrame(() => {
      if (!focusEditor()) focusPane('editor');
    });
  },
};

const fileRename: Command<string> = {
  id: 'file.rename',
  category: 'File',
  mutates: true,
  title: (p) => `Rename ${p}…`,
  menus: ['file'],
  order: 20,
  when: (p) => !!p,
  paletteArgs: () => (activePath() ? [activePath()!] : []),
  perform(path) {
    useUi.getState().setDrawer('workspace');
    useUi.getState().setRenaming(path);
  },
};

const fileDelete: Command<string> = {
  id: 'file.delete',
  category: 'File',
  mutates: true,
  title: (p) => `Delete ${p}`,
  menus: ['file'],
  order: 30,
  when: (p) => !!p,
  paletteArgs: () => (activePath() ? [activePath()!] : []),
  perform: deleteFile,
};

const fileDownload: Command<string> = {
  id: 'file.download',
  category: 'File',
  title: (p) => `Download ${p}`,
  menus: ['file', 'editor'],
  order: 40,
  when: (p) => !!p && fileText(p) !== undefined,
  forFile: (p) => [p],
  paletteArgs: () => (activePath() ? [activePath()!] : []),
  perform: downloadFile,
};

const fileOpenFromMenu: Command<string> = { ...fileOpen, id: 'file.openFromMenu', title: (p) => `Open ${p}`, menus: ['file'], order: 10 };

export function registerBuiltinCommands(): () => void {
  // The share panel's actions (#12), in the palette like every other command.
  const share = registerCommands(...SHARE_COMMANDS.map((c) => ({ id: c.id, category: 'Share', title: c.title, perform: () => c.run() })));
  const own = registerCommands(
    fixCommand,
    suppressRule,
    suppressAnnotation,
    {
      id: 'problems.fixAtCursor',
      category: 'Quick fix',
      mutates: true,
      title: 'Apply the preferred fix for the problem at the cursor',
      menus: ['editor'],
      order: 10,
      when: () => !!diagnosticAtCursor()?.fixes?.length,
      perform() {
        const d = diagnosticAtCursor();
        const fix = d?.fixes?.find((f) => f.isPreferred) ?? d?.fixes?.[0];
        if (d && fix) return fixCommand.perform({ d, fix });
        return undefined;
      },
    },
    {
      id: 'problems.suppressAtCursor',
      category: 'Problems',
      mutates: true,
      title: 'Suppress the problem at the cursor with an annotation',
      menus: ['editor'],
      order: 20,
      when: () => {
        const d = diagnosticAtCursor();
        return !!d && suppressAnnotation.when!(d);
      },
      perform() {
        const d = diagnosticAtCursor();
        return d ? suppressAnnotation.perform(d) : undefined;
      },
    },
    {
      id: 'file.new',
      category: 'File',
      mutates: true,
      title: 'New file',
      keybinding: 'Alt+N',
      perform() {
        useWorkspace.getState().createUntitled();
        requestAnimationFrame(() => focusEditor());
      },
    },
    { id: 'file.upload', category: 'File', title: 'Upload files…', mutates: true, perform: pickUpload },
    fileOpen,
    fileOpenFromMenu,
    fileRename,
    fileDelete,
    fileDownload,
    {
      id: 'workspace.save',
      category: 'File',
      title: 'Save (the workspace is kept in this browser)',
      keybinding: 'Ctrl+S',
      perform() {
        const ws = useWorkspace.getState();
        const path = ws.active;
        ws.notify({
          id: 'save',
          level: 'info',
          text:
            (ws.readOnly
              ? 'This is a shared link: nothing of it is saved in this browser. Use "Copy to my workspaces" to keep it.'
              : 'Your workspace is saved in this browser automatically, as you type; nothing is uploaded.') +
            (path ? ' To keep a copy on disk, download the file.' : ''),
          ...(path ? { action: { label: `Download ${path.slice(path.lastIndexOf('/') + 1)}`, testId: 'save-download', run: () => downloadFile(path) } } : {}),
        });
      },
    },
    {
      id: 'samples.open',
      category: 'Samples',
      // Loading a sample replaces the files: not into a shared link's workspace.
      mutates: true,
      title: 'Open a sample…',
      perform() {
        useUi.getState().setSamplesOpen(true);
      },
    },
    { id: 'view.nextPane', category: 'View', title: 'Focus the next pane', keybinding: 'F6', perform: () => cyclePane(1) },
    { id: 'view.previousPane', category: 'View', title: 'Focus the previous pane', keybinding: 'Shift+F6', perform: () => cyclePane(-1) },
    { id: 'view.focusWorkspace', category: 'View', title: 'Focus the Workspace (files)', perform: () => focusPane('workspace') },
    { id: 'view.focusEditor', category: 'View', title: 'Focus the editor', perform: () => focusEditor() || focusPane('editor') },
    { id: 'view.focusProblems', category: 'View', title: 'Focus Problems', perform: () => focusPane('problems') },
    { id: 'view.focusInspector', category: 'View', title: 'Focus the Inspector', perform: () => focusPane('inspector') },
    {
      id: 'view.commandPalette',
      category: 'View',
      title: 'Command palette…',
      keybinding: 'F1 / Ctrl+Shift+P',
      menus: ['editor'],
      order: 90,
      perform: () => useUi.getState().openPalette('commands'),
    },
    { id: 'view.quickOpen', category: 'View', title: 'Go to file…', keybinding: 'Ctrl+P', perform: () => useUi.getState().openPalette('files') },
    {
      id: 'editor.toggleTabFocusMode',
      category: 'Editor',
      title: 'Toggle Tab key moves focus',
      keybinding: 'Ctrl+M',
      perform: () => useUi.getState().setTabFocusMode(!useUi.getState().tabFocusMode),
    },
  );
  return () => {
    share();
    own();
  };
}
