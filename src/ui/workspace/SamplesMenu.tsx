// "Samples" menu: lists public/samples/index.json and opens one as a new workspace. The
// menu takes focus, moves with the arrow keys and gives focus back to its button on Escape;
// the "Open a sample…" command opens it too. On a shared link (read-only) it is disabled: a
// sample would replace the link's files.
import { useEffect, useRef, useState } from 'react';
import { fetchSampleIndex, type SampleInfo } from '../../state/samples.ts';
import { loadSample } from '../../state/boot.ts';
import { READ_ONLY_NOTICE, useWorkspace } from '../../state/workspace.ts';
import { useUi } from '../../state/ui.ts';
import { Menu } from '../common/Menu.tsx';
import { focusEditor } from '../focus.ts';
import { confirmDialog } from '../common/Dialog.tsx';
import { useWorkspaces } from '../../state/workspaces.ts';

export function SamplesMenu() {
  const open = useUi((s) => s.samplesOpen);
  const setOpen = useUi((s) => s.setSamplesOpen);
  const readOnly = useWorkspace((s) => s.readOnly);
  const [samples, setSamples] = useState<SampleInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    fetchSampleIndex().then(
      (idx) => {
        setSamples(idx.samples);
        setError(null);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  }, [open]);

  const choose = async (s: SampleInfo) => {
    // With named workspaces a sample opens as a new one and nothing is lost. Without
    // IndexedDB there is one workspace: the sample would replace its files, so ask.
    const n = useWorkspace.getState().files.length;
    if (useWorkspaces.getState().mode === 'none' && n > 0) {
      const ok = await confirmDialog({
        title: `Replace your files with "${s.title}"?`,
        message: `This browser keeps one workspace only: the ${n === 1 ? 'file' : `${n} files`} in it will be replaced by the sample's.`,
        confirmLabel: 'Replace files',
        destructive: true,
        returnFocus: button.current,
      });
      if (!ok) return;
    }
    loadSample(s.id).then(
      () => requestAnimationFrame(() => focusEditor()),
      (e: unknown) =>
        useWorkspace.getState().notify({ id: 'sample', level: 'error', text: `Could not load sample: ${e instanceof Error ? e.message : String(e)}` }),
    );
  };

  return (
    <div className="menu">
      <button
        ref={button}
        type="button"
        className="button"
        aria-haspopup="menu"
        aria-expanded={open && !readOnly}
        data-testid="samples-button"
        disabled={readOnly}
        title={readOnly ? READ_ONLY_NOTICE : undefined}
        onClick={() => setOpen(!open)}
      >
        Samples ▾
      </button>
      {open && !readOnly && (
        <Menu
          anchor={button}
          label="Samples"
          testId="samples-menu"
          className="samples-menu"
          note={error ? `Could not list samples: ${error}` : samples ? undefined : 'Loading…'}
          items={(samples ?? []).map((s) => ({
            label: s.title,
            ...(s.description ? { description: s.description } : {}),
            testId: 'sample-item',
            onSelect: () => void choose(s),
          }))}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}
