// Left pane: the workspace's files, with new / upload / rename / delete (not on a shared
// link, which is read-only: its files can be opened and downloaded).
import { Suspense, useMemo, useRef, useState, type ChangeEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { fileText, normalizePath, refuseWhenReadOnly, useWorkspace, type WsFile } from '../../state/workspace.ts';
import { useViews } from '../../state/views.ts';
import { diagnosticSummary } from '../../state/diagnosticSummary.ts';
import { useAnalysis } from '../../state/analysis.ts';
import { formatBytes } from '../../state/fileKind.ts';
import { addFileList } from './addFiles.ts';
import { downloadText } from '../share/download.ts';
import { useUi } from '../../state/ui.ts';
import { menuItems, runCommand } from '../../state/commands.ts';
import { commandMenuItems } from '../common/menuItems.ts';
import { useRoving } from '../common/roving.ts';
import { deferredComponent } from '../deferred.ts';

// The popup menu's code comes with the rest of the page after the first results (ui/deferred.ts).
const Menu = deferredComponent('Menu');

/** Focus a file's row (after a rename or an Escape from it), once it is rendered. */
function focusFileRow(path: string): void {
  requestAnimationFrame(() => {
    const row = [...document.querySelectorAll<HTMLElement>('[data-testid="file-item"]')].find((r) => r.dataset.path === path);
    row?.focus();
  });
}

interface Counts {
  e: number;
  w: number;
  i: number;
}

export function WorkspacePanel() {
  const files = useWorkspace((s) => s.files);
  const active = useWorkspace((s) => s.active);
  const ready = useWorkspace((s) => s.ready);
  const readOnly = useWorkspace((s) => s.readOnly);
  const diagnostics = useAnalysis((s) => s.diagnostics);
  const input = useRef<HTMLInputElement>(null);
  const renaming = useUi((s) => s.renaming);
  const setRenaming = useUi((s) => s.setRenaming);
  const list = useRoving({ items: '[data-testid="file-item"]', inner: true });

  const byFile = diagnosticSummary(diagnostics).byFile;
  const counts = useMemo(() => {
    const m = new Map<string, Counts>();
    for (const [file, c] of byFile) m.set(file, { e: c.Error, w: c.Warning, i: c.Info });
    return m;
  }, [byFile]);

  const onUpload = async (e: ChangeEvent<HTMLInputElement>) => {
    const list = Array.from(e.target.files ?? []);
    e.target.value = '';
    if (list.length > 0) await addFileList(list);
  };

  return (
    <div className="panel">
      <div className="panel-header">
        <h2 className="panel-title">Workspace</h2>
        {!readOnly && (
          <div className="panel-actions">
            <button
              type="button"
              className="icon-button"
              title="New file (paste YAML into it)"
              aria-label="New file"
              data-testid="new-file"
              onClick={() => useWorkspace.getState().createUntitled()}
            >
              <svg viewBox="0 0 16 16" aria-hidden="true">
                <path d="M9.5 1.5H4a1 1 0 0 0-1 1v11a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V5z" fill="none" stroke="currentColor" strokeWidth="1.2" />
                <path d="M9.5 1.5V5H13M8 7.5v5M5.5 10h5" fill="none" stroke="currentColor" strokeWidth="1.2" />
              </svg>
            </button>
            <label className="icon-button" title="Upload files" aria-label="Upload files" data-testid="upload-button">
              <svg viewBox="0 0 16 16" aria-hidden="true">
                <path
                  d="M8 11V2.5M4.5 6 8 2.5 11.5 6M2.5 10.5v3h11v-3"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.3"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </svg>
              <input
                ref={input}
                type="file"
                multiple
                accept=".yaml,.yml,.json,.txt,text/*,application/json,application/x-yaml"
                className="visually-hidden"
                data-testid="upload-input"
                onChange={onUpload}
              />
            </label>
          </div>
        )}
      </div>
      <ul className="file-list" data-testid="file-list" aria-label="Files" ref={list} data-pane-focus="">
        {files.map((f) =>
          renaming === f.path ? (
            <RenameRow
              key={f.path}
              file={f}
              onDone={(path) => {
                setRenaming(null);
                focusFileRow(path);
              }}
            />
          ) : (
            <FileRow
              key={f.path}
              file={f}
              active={f.path === active}
              counts={counts.get(f.path)}
              readOnly={readOnly}
              onRename={() => {
                if (!refuseWhenReadOnly()) setRenaming(f.path);
              }}
            />
          ),
        )}
      </ul>
      {ready && files.length === 0 && !readOnly && (
        <div className="empty-state small">
          No files yet. Create a{' '}
          <button type="button" className="link-button" onClick={() => useWorkspace.getState().createUntitled()}>
            new file
          </button>{' '}
          and paste YAML, upload files, drop them here, or open a sample.
        </div>
      )}
      <div className="panel-footer">
        {readOnly
          ? 'A shared link is read-only. Right-click a file (or Shift+F10) for more.'
          : 'Drop files anywhere to add them. Right-click a file (or Shift+F10) for more.'}
      </div>
    </div>
  );
}

function FileRow({
  file,
  active,
  counts,
  readOnly,
  onRename,
}: {
  file: WsFile;
  active: boolean;
  counts?: Counts | undefined;
  readOnly: boolean;
  onRename: () => void;
}) {
  const row = useRef<HTMLLIElement>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  // Opening a file shows it, even when it is already the active one under a full-size view.
  const open = () => {
    useWorkspace.getState().openFile(file.path);
    useViews.getState().showFile();
  };
  const del = () => void runCommand('file.delete', file.path);
  const onKey = (e: KeyboardEvent<HTMLLIElement>) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter') open();
    else if (e.key === 'F2') onRename();
    else if (e.key === 'Delete') del();
    else if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
      const r = e.currentTarget.getBoundingClientRect();
      setMenuAt({ x: r.left + 24, y: r.bottom });
    } else return;
    e.preventDefault();
  };
  const onContextMenu = (e: MouseEvent<HTMLLIElement>) => {
    e.preventDefault();
    setMenuAt({ x: e.clientX, y: e.clientY });
  };
  const slash = file.path.lastIndexOf('/');
  return (
    <li
      className={`file-item${active ? ' active' : ''}`}
      data-testid="file-item"
      data-path={file.path}
      aria-current={active ? 'true' : undefined}
      title={`${file.path} · ${formatBytes(file.bytes)}`}
      onClick={open}
      onDoubleClick={onRename}
      onKeyDown={onKey}
      onContextMenu={onContextMenu}
      ref={row}
      aria-haspopup="menu"
    >
      <span className={`file-icon kind-${file.kind}`} aria-hidden="true">
        {file.kind === 'text' ? 'Y' : file.kind === 'binary' ? 'B' : '!'}
      </span>
      <span className="file-name">
        {slash >= 0 && <span className="file-dir">{file.path.slice(0, slash + 1)}</span>}
        {file.path.slice(slash + 1)}
      </span>
      {counts && (counts.e > 0 || counts.w > 0) && (
        <span className="file-counts" role="img" aria-label={`${counts.e} errors, ${counts.w} warnings`}>
          {counts.e > 0 && <span className="badge badge-Error">{counts.e}</span>}
          {counts.w > 0 && <span className="badge badge-Warning">{counts.w}</span>}
        </span>
      )}
      <span className="file-actions">
        <FileActionButton
          title="Download"
          label={`Download ${file.path}`}
          testId="download-file"
          onClick={() => downloadText(file.path, fileText(file.path) ?? '')}
          path="M8 2.5V10M4.5 6.5 8 10l3.5-3.5M2.5 13.5h11"
        />
        {!readOnly && (
          <FileActionButton title="Rename (F2)" label={`Rename ${file.path}`} testId="rename-file" onClick={onRename} path="M10.5 2.5l3 3L6 13H3v-3z" />
        )}
        {!readOnly && (
          <FileActionButton
            title="Delete"
            label={`Delete ${file.path}`}
            testId="delete-file"
            onClick={del}
            path="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 9h5.6l.7-9"
          />
        )}
      </span>
      {menuAt && (
        <Suspense fallback={null}>
          <Menu
            anchor={row}
            at={menuAt}
            label={`Actions for ${file.path}`}
            testId="file-menu"
            items={commandMenuItems(menuItems('file', file.path), (i) => `file-menu-${i.command.id.replace(/^file\./, '')}`)}
            onClose={() => setMenuAt(null)}
          />
        </Suspense>
      )}
    </li>
  );
}

function RenameRow({ file, onDone }: { file: WsFile; onDone: (path: string) => void }) {
  const [value, setValue] = useState(file.path);
  const [error, setError] = useState<string | null>(null);
  const done = useRef(false);
  const finish = (path: string) => {
    if (done.current) return;
    done.current = true;
    onDone(path);
  };
  const commit = () => {
    const err = useWorkspace.getState().rename(file.path, value);
    if (err) setError(err);
    else finish(normalizePath(value) || file.path);
  };
  return (
    <li className="file-item renaming">
      <input
        className="text-input"
        aria-label={`New name for ${file.path}`}
        data-testid="rename-input"
        value={value}
        autoFocus
        onFocus={(e) => {
          const dot = e.target.value.lastIndexOf('.');
          e.target.setSelectionRange(0, dot > 0 ? dot : e.target.value.length);
        }}
        onChange={(e) => {
          setValue(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            finish(file.path);
          }
        }}
        onBlur={() => {
          if (done.current) return;
          if (error) finish(file.path);
          else commit();
        }}
      />
      {error && <div className="field-error">{error}</div>}
    </li>
  );
}

/** A small icon button on a file row; the click does not also select the row. */
function FileActionButton(props: { title: string; label: string; testId: string; path: string; onClick: () => void }) {
  return (
    <button
      type="button"
      className="icon-button small"
      title={props.title}
      aria-label={props.label}
      data-testid={props.testId}
      onClick={(e) => {
        e.stopPropagation();
        props.onClick();
      }}
    >
      <svg viewBox="0 0 16 16" aria-hidden="true">
        <path d={props.path} fill="none" stroke="currentColor" strokeWidth="1.2" strokeLinejoin="round" />
      </svg>
    </button>
  );
}
