// Titlebar: the named workspaces (switch, new, rename, delete), export and import, and
// whether the open one is saved. New, rename and delete ask in the app's own dialogs.
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { createWorkspace, removeWorkspace, renameWorkspace, switchWorkspace, useWorkspaces } from '../../state/workspaces.ts';
import { fileText, useWorkspace } from '../../state/workspace.ts';
import { downloadBlob, downloadText } from '../share/download.ts';
import { SHARE_COMMANDS } from '../share/dialogs.ts';
import { confirmDialog, promptDialog } from '../common/Dialog.tsx';

/** The bundle reader and writers (zip, YAML), loaded at the first export or import. */
const loadBundle = () => import('../../core/share/bundle.ts');

function currentFiles() {
  return useWorkspace.getState().files.map((f) => ({ path: f.path, text: fileText(f.path) ?? '' }));
}

const STATUS: Record<string, string> = { saved: 'Saved', pending: 'Saving…', saving: 'Saving…', error: 'Not saved', off: '' };

export function WorkspaceSwitcher() {
  const { mode, list, currentId, currentName, status } = useWorkspaces();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const importInput = useRef<HTMLInputElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const esc = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', esc);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', esc);
    };
  }, [open]);

  if (mode !== 'local') return null;
  // The menu item that opened a dialog is gone once the menu closes: focus goes back to ⋯.
  const back = { returnFocus: menuButton.current };
  const nameTaken = (except: string | null) => (v: string) => {
    const n = v.trim();
    if (!n) return 'A workspace needs a name.';
    return list.some((w) => w.id !== except && w.name === n) ? `A workspace named ${n} already exists.` : null;
  };
  const newWorkspace = async () => {
    const name = await promptDialog({
      title: 'New workspace',
      label: 'Name',
      value: 'New workspace',
      confirmLabel: 'Create workspace',
      validate: nameTaken(null),
      testId: 'new-workspace-dialog',
      ...back,
    });
    if (name !== null) await createWorkspace(name);
  };
  const rename = async () => {
    if (!currentId) return;
    const name = await promptDialog({
      title: 'Rename workspace',
      label: 'Name',
      value: currentName,
      confirmLabel: 'Rename',
      validate: nameTaken(currentId),
      testId: 'rename-workspace-dialog',
      ...back,
    });
    if (name === null) return;
    const err = await renameWorkspace(currentId, name);
    if (err) useWorkspace.getState().notify({ id: 'rename-ws', level: 'error', text: err });
  };
  const remove = async () => {
    if (!currentId) return;
    const n = useWorkspace.getState().files.length;
    const ok = await confirmDialog({
      title: `Delete workspace "${currentName}"?`,
      message: `${n === 0 ? 'It has no files.' : `Its ${n === 1 ? 'file' : `${n} files`} will be deleted from this browser.`} This cannot be undone.`,
      confirmLabel: 'Delete workspace',
      destructive: true,
      testId: 'delete-workspace-dialog',
      ...back,
    });
    if (ok) await removeWorkspace(currentId);
  };
  const act = (fn: () => unknown) => () => {
    setOpen(false);
    void fn();
  };
  // The files as they are at the click; the writer loads after.
  const exportAs = async (format: 'yaml' | 'zip') => {
    const files = currentFiles();
    const name = currentName || 'workspace';
    const bundle = await loadBundle();
    if (format === 'yaml') downloadText(`${name}.yaml`, bundle.exportYamlBundle(files, currentName));
    else downloadBlob(`${name}.zip`, new Blob([bundle.exportZip(files) as Uint8Array<ArrayBuffer>], { type: 'application/zip' }));
  };
  const onImport = async (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    e.target.value = '';
    if (!f) return;
    let bundle;
    try {
      bundle = await loadBundle();
      const files = bundle.importBundle(f.name, new Uint8Array(await f.arrayBuffer()));
      await createWorkspace(f.name.replace(/\.(zip|ya?ml|json)$/i, ''), files);
    } catch (err) {
      useWorkspace.getState().notify({
        id: 'import',
        level: 'error',
        text: bundle && err instanceof bundle.ImportError ? err.message : `Could not import ${f.name}: ${String(err)}`,
      });
    }
  };

  return (
    <div className="menu workspace-switcher" ref={root}>
      <select
        className="select"
        aria-label="Workspace"
        data-testid="workspace-select"
        value={currentId ?? ''}
        onChange={(e) => void switchWorkspace(e.target.value)}
      >
        {list.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
      <button
        ref={menuButton}
        type="button"
        className="button"
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="workspace-menu-button"
        onClick={() => setOpen((o) => !o)}
      >
        ⋯
      </button>
      <span className="save-status" data-testid="save-status" data-status={status} aria-live="polite">
        {STATUS[status]}
      </span>
      {open && (
        <div className="menu-popup" role="menu" data-testid="workspace-menu">
          <button type="button" role="menuitem" className="menu-item" data-testid="ws-new" onClick={act(newWorkspace)}>
            New workspace…
          </button>
          <button type="button" role="menuitem" className="menu-item" data-testid="ws-rename" onClick={act(rename)}>
            Rename workspace…
          </button>
          <button type="button" role="menuitem" className="menu-item" data-testid="ws-delete" onClick={act(remove)}>
            Delete workspace…
          </button>
          <button type="button" role="menuitem" className="menu-item" data-testid="ws-export-yaml" onClick={act(() => exportAs('yaml'))}>
            Export as one YAML file
          </button>
          <button type="button" role="menuitem" className="menu-item" data-testid="ws-export-zip" onClick={act(() => exportAs('zip'))}>
            Export as zip
          </button>
          <button type="button" role="menuitem" className="menu-item" data-testid="ws-import" onClick={() => importInput.current?.click()}>
            Import a workspace (YAML or zip)…
          </button>
          {SHARE_COMMANDS.map((c) => (
            <button key={c.id} type="button" role="menuitem" className="menu-item" data-testid={`cmd-${c.id}`} onClick={act(c.run)}>
              {c.title}
            </button>
          ))}
        </div>
      )}
      <input
        ref={importInput}
        type="file"
        aria-label="Import a workspace (.zip or YAML)"
        accept=".zip,.yaml,.yml,.json"
        className="visually-hidden"
        data-testid="ws-import-input"
        onChange={(e) => void onImport(e)}
      />
    </div>
  );
}
