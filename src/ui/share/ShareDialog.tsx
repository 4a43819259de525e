// Share…: choose files, see what redaction replaces (on by default), the link's size, and copy
// it. Longer than chat tools take: a warning. Longer than browsers take: no link, a download.
import { useMemo, useState } from 'react';
import { fileText, useWorkspace } from '../../state/workspace.ts';
import { useAnalysis, useEditorUi } from '../../state/analysis.ts';
import { useSelections } from '../../state/selections.ts';
import { useWorkspaces } from '../../state/workspaces.ts';
import {
  encodeShareFragment,
  linkSizeVerdict,
  MAX_LINK_CHARS,
  ShareLinkError,
  WARN_LINK_CHARS,
  type ShareState,
  type ShareView,
} from '../../core/share/link.ts';
import { redact } from '../../core/share/redact.ts';
import { exportYamlBundle } from '../../core/share/bundle.ts';
import { Modal } from './Modal.tsx';
import { downloadText } from './download.ts';
import { useDialogs } from './dialogs.ts';
import { confirmDialog } from '../common/Dialog.tsx';

function appUrl(): string {
  return location.origin + location.pathname + location.search;
}

export function ShareDialog() {
  const files = useWorkspace((s) => s.files);
  const active = useWorkspace((s) => s.active);
  const name = useWorkspaces((s) => s.currentName);
  const baseline = useWorkspaces((s) => s.baseline);
  const close = () => useDialogs.getState().show(null);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(files.filter((f) => f.kind === 'text').map((f) => f.path)));
  const [keepSecrets, setKeepSecrets] = useState(false);
  const [withView, setWithView] = useState(true);
  const [withBefore, setWithBefore] = useState(!!baseline);
  const [copied, setCopied] = useState<string | null>(null);

  const texts = useMemo(() => files.filter((f) => chosen.has(f.path)).map((f) => ({ path: f.path, text: fileText(f.path) ?? '' })), [files, chosen]);
  const redaction = useMemo(() => redact(texts), [texts]);
  // The "before" side: the baseline's files that are chosen, plus those no longer in the
  // workspace (deleted since it was pinned: part of the change). The same files whether or not
  // secrets are kept; redacted unless they are.
  const beforeFiles = useMemo(
    () => (withBefore && baseline ? baseline.filter((f) => chosen.has(f.path) || !files.some((x) => x.path === f.path)) : null),
    [withBefore, baseline, chosen, files],
  );
  const beforeRedaction = useMemo(() => (beforeFiles ? redact(beforeFiles) : null), [beforeFiles]);
  // What redaction replaces on both sides: the dialog lists it and the link carries the list.
  const items = useMemo(
    () => [...redaction.items, ...(beforeRedaction?.items ?? []).map((it) => ({ ...it, what: `before: ${it.what}` }))],
    [redaction, beforeRedaction],
  );

  const { link, refused } = useMemo((): { link: string; refused?: string } => {
    const cursor = useEditorUi.getState().cursor;
    const view: ShareView = {};
    if (withView && active && chosen.has(active)) {
      view.file = active;
      if (cursor) view.line = cursor.line;
      const sel = useSelections.getState().selections;
      if (Object.keys(sel).length) view.selections = sel;
    }
    const state: ShareState = {
      files: keepSecrets ? texts : redaction.files,
      openTabs: useWorkspace.getState().openTabs.filter((p) => chosen.has(p)),
      settings: useAnalysis.getState().settings,
      ...(name ? { title: name } : {}),
      ...(Object.keys(view).length ? { view } : {}),
      ...(!keepSecrets && items.length ? { redacted: items } : {}),
      ...(beforeFiles ? { before: beforeRedaction && !keepSecrets ? beforeRedaction.files : beforeFiles } : {}),
    };
    try {
      return { link: `${appUrl()}#${encodeShareFragment(state)}` };
    } catch (e) {
      // Over one of the link's caps (e.g. the number of redacted values): no link, a download.
      if (e instanceof ShareLinkError) return { link: '', refused: e.message };
      throw e;
    }
  }, [texts, redaction, items, keepSecrets, withView, active, chosen, name, beforeFiles, beforeRedaction]);

  const verdict = refused ? 'too-long' : linkSizeVerdict(link.length);
  const toggle = (p: string) =>
    setChosen((s) => {
      const n = new Set(s);
      if (n.has(p)) n.delete(p);
      else n.add(p);
      return n;
    });

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied('Link copied. Only the person you send it to sees the content: it travels in the link itself.');
    } catch {
      setCopied('Copying was not allowed here: select the link above and copy it.');
    }
  };

  return (
    <Modal title="Share this workspace" onClose={close} testId="share-dialog">
      <p className="modal-note">
        The link holds the files themselves (compressed), after the <code>#</code>: browsers never send that part to a server. Nothing is uploaded.
      </p>
      <fieldset className="share-files">
        <legend>Files</legend>
        {files.map((f) => (
          <label key={f.path} className="check-row">
            <input
              type="checkbox"
              data-testid="share-file"
              data-path={f.path}
              checked={chosen.has(f.path)}
              disabled={f.kind !== 'text'}
              onChange={() => toggle(f.path)}
            />
            <span>{f.path}</span>
          </label>
        ))}
      </fieldset>
      <label className="check-row">
        <input type="checkbox" checked={withView} onChange={(e) => setWithView(e.target.checked)} data-testid="share-view" />
        <span>Open at the current file and line</span>
      </label>
      {baseline && (
        <label className="check-row">
          <input type="checkbox" checked={withBefore} onChange={(e) => setWithBefore(e.target.checked)} data-testid="share-before" />
          <span>Include the pinned baseline as "before" (the reader can review the change)</span>
        </label>
      )}
      <section className="share-redaction" data-testid="share-redaction">
        <h3>Secrets</h3>
        {items.length === 0 ? (
          <p className="modal-note">No private keys or Secret values in the chosen files.</p>
        ) : (
          <>
            <p className="modal-note">
              {keepSecrets ? 'These will be shared as they are:' : 'Replaced by a marker in the link (certificates, which are public, stay):'}
            </p>
            <ul className="redacted-list" data-testid="redacted-list">
              {items.map((it, i) => (
                <li key={i} data-testid="redacted-item">
                  {it.file}:{it.line} — {it.what}
                </li>
              ))}
            </ul>
            <label className="check-row warning-text">
              <input
                type="checkbox"
                data-testid="share-keep-secrets"
                checked={keepSecrets}
                onChange={(e) => {
                  if (!e.target.checked) return setKeepSecrets(false);
                  void confirmDialog({
                    title: 'Share private keys and Secret values?',
                    message: 'Anyone who gets the link can read them, and chat tools keep links for years.',
                    confirmLabel: 'Share secrets',
                    cancelLabel: 'Keep them out',
                    destructive: true,
                    testId: 'share-secrets-dialog',
                  }).then((ok) => ok && setKeepSecrets(true));
                }}
              />
              <span>Share them anyway (not recommended)</span>
            </label>
          </>
        )}
      </section>
      <div className="share-size" data-testid="share-size" data-verdict={verdict}>
        {refused ? (
          <span className="error-text" data-testid="share-refused">
            No link: {refused}
          </span>
        ) : (
          <>
            Link: {link.length.toLocaleString('en-US')} characters
            {verdict === 'long' && (
              <span className="warning-text" data-testid="share-warning">
                {' '}
                — longer than {WARN_LINK_CHARS.toLocaleString('en-US')}: chat tools often cut such links. Share fewer files, or send the file instead.
              </span>
            )}
            {verdict === 'too-long' && (
              <span className="error-text" data-testid="share-refused">
                {' '}
                — longer than the {MAX_LINK_CHARS.toLocaleString('en-US')} characters browsers accept. Download the workspace and send the file instead.
              </span>
            )}
          </>
        )}
      </div>
      {verdict !== 'too-long' ? (
        <>
          <textarea className="share-link" readOnly value={link} data-testid="share-link" aria-label="Share link" rows={3} onFocus={(e) => e.target.select()} />
          <div className="modal-actions">
            <button type="button" className="button primary" data-testid="share-copy" onClick={() => void copy()}>
              Copy link
            </button>
            <button
              type="button"
              className="button"
              onClick={() => downloadText(`${name || 'workspace'}.yaml`, exportYamlBundle(keepSecrets ? texts : redaction.files, name))}
            >
              Download as YAML instead
            </button>
          </div>
        </>
      ) : (
        <div className="modal-actions">
          <button
            type="button"
            className="button primary"
            data-testid="share-download"
            onClick={() => downloadText(`${name || 'workspace'}.yaml`, exportYamlBundle(keepSecrets ? texts : redaction.files, name))}
          >
            Download as YAML
          </button>
        </div>
      )}
      {copied && (
        <p className="modal-note" role="status">
          {copied}
        </p>
      )}
    </Modal>
  );
}
