// The progress of a large file on its way in (state/fileLoad.ts): reading it, then the
// analysis worker reading its documents, building the mesh model and running the analyzers.
// It sits above the editor and holds nothing else up: the page stays usable throughout.
import { useFileLoad } from '../../state/fileLoad.ts';
import { useAnalysis } from '../../state/analysis.ts';
import { formatBytes } from '../../state/fileKind.ts';
import type { Progress } from '../../worker/protocol.ts';

/** Each step's share of the bar, by how long it takes on a whole-cluster dump (bench/scale.ts). */
const SHARES = { reading: 0.05, parse: 0.3, model: 0.2, analyze: 0.45 } as const;

/** How far a load is (0–1) and what it is doing, in words. */
export function loadStatus(step: 'reading' | 'analyzing', read: number, bytes: number, progress: Progress | null): { fraction: number; text: string } {
  if (step === 'reading') return { fraction: SHARES.reading * (bytes > 0 ? read / bytes : 0), text: `Reading ${formatBytes(read)} of ${formatBytes(bytes)}` };
  const afterReading = SHARES.reading;
  if (!progress) return { fraction: afterReading, text: 'Starting the analysis' };
  if (progress.step === 'parse') {
    const part = progress.total > 0 ? progress.done / progress.total : 0;
    return { fraction: afterReading + SHARES.parse * part, text: `Reading documents: ${Math.floor(part * 100)}%` };
  }
  if (progress.step === 'model') return { fraction: afterReading + SHARES.parse, text: 'Building the mesh model (services, workloads, hosts)' };
  const part = progress.total > 0 ? progress.done / progress.total : 0;
  return { fraction: afterReading + SHARES.parse + SHARES.model + SHARES.analyze * part, text: `Running analyzers: ${progress.done} of ${progress.total}` };
}

export function LoadProgress() {
  const load = useFileLoad((s) => s.load);
  const progress = useAnalysis((s) => s.progress);
  if (!load) return null;
  const { fraction, text } = loadStatus(load.step, load.read, load.bytes, progress);
  const percent = Math.min(100, Math.round(fraction * 100));
  const what = load.names.length === 1 ? load.names[0] : `${load.names.length} files`;
  return (
    <div className="load-progress" role="status" data-testid="load-progress" data-step={load.step}>
      <div className="load-progress-head">
        <span className="load-progress-title">
          Loading <strong>{what}</strong> ({formatBytes(load.bytes)})
        </span>
        <button type="button" className="button" data-testid="load-cancel" onClick={() => load.cancel()}>
          Cancel
        </button>
      </div>
      <div
        className="load-progress-bar"
        role="progressbar"
        aria-label={`Loading ${what}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        data-testid="load-progress-bar"
      >
        <div className="load-progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="load-progress-text" data-testid="load-progress-text">
        {text}
      </span>
    </div>
  );
}
