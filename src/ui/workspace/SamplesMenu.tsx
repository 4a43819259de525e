// "Samples" menu: lists public/samples/index.json and replaces the workspace with one.
import { useEffect, useRef, useState } from 'react';
import { fetchSampleIndex, type SampleInfo } from '../../state/samples.ts';
import { loadSample } from '../../state/boot.ts';
import { useWorkspace } from '../../state/workspace.ts';

export function SamplesMenu() {
  const [open, setOpen] = useState(false);
  const [samples, setSamples] = useState<SampleInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    fetchSampleIndex().then(
      (idx) => {
        setSamples(idx.samples);
        setError(null);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
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

  const choose = (s: SampleInfo) => {
    setOpen(false);
    const n = useWorkspace.getState().files.length;
    if (n > 0 && !window.confirm(`Replace the ${n} file${n === 1 ? '' : 's'} in your workspace with the "${s.title}" sample?`)) return;
    loadSample(s.id).catch((e: unknown) =>
      useWorkspace.getState().notify({ id: 'sample', level: 'error', text: `Could not load sample: ${e instanceof Error ? e.message : String(e)}` }),
    );
  };

  return (
    <div className="menu" ref={root}>
      <button type="button" className="button" aria-haspopup="menu" aria-expanded={open} data-testid="samples-button" onClick={() => setOpen((o) => !o)}>
        Samples ▾
      </button>
      {open && (
        <div className="menu-popup" role="menu" data-testid="samples-menu">
          {error && <div className="menu-note">Could not list samples: {error}</div>}
          {!error && !samples && <div className="menu-note">Loading…</div>}
          {samples?.map((s) => (
            <button key={s.id} type="button" role="menuitem" className="menu-item" data-testid="sample-item" onClick={() => choose(s)}>
              <span className="menu-item-title">{s.title}</span>
              {s.description && <span className="menu-item-desc">{s.description}</span>}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
