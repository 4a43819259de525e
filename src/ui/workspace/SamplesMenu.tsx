// "Samples" menu: lists public/samples/index.json and replaces the workspace with one. The
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

  const choose = (s: SampleInfo) => {
    const n = useWorkspace.getState().files.length;
    if (n > 0 && !window.confirm(`Replace the ${n} file${n === 1 ? '' : 's'} in your workspace with the "${s.title}" sample?`)) return;
    loadSample(s.id).then(
      () => requestAnimationFrame(() => focusEditor()),
      (e: unknown) => useWorkspace.getState().notify({ id: 'sample', level: 'error', text: `Could not load sample: ${e instanceof Error ? e.message : String(e)}` }),
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
          items={(samples ?? []).map((s) => ({ label: s.title, ...(s.description ? { description: s.description } : {}), testId: 'sample-item', onSelect: () => choose(s) }))}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}
