// What the page loads after the first diagnostics. The first diagnostics need only the
// workspace texts, the worker and the Problems list; the editor (Monaco, megabytes of script)
// and the side panes would compete with them for the network and the main thread. So those
// wait for this gate, which opens once the first result (or a failure) is on screen, when the
// analysis has run FALLBACK_MS without one (a huge workspace still gets its editor), or when
// the person asks for the editor (clicks or types into its placeholder).
import { create } from 'zustand';
import { useAnalysis } from './analysis.ts';

/** Why the gate opened (the debug hook and tests read it). */
export type GateReason = 'results' | 'timeout' | 'asked';

export interface FirstResultsState {
  open: boolean;
  reason: GateReason | null;
}

export const useFirstResults = create<FirstResultsState>()(() => ({ open: false, reason: null }));

/** How long the first analysis may run before the editor loads anyway. */
export const FALLBACK_MS = 1500;
/** From the page's start: opens the gate even if no analysis was ever asked for (boot stuck). */
export const LAST_RESORT_MS = 5000;

/** Runs `fn` once the gate is open: now if it is, else when it opens. */
export function afterFirstResults(fn: () => void): void {
  if (useFirstResults.getState().open) return fn();
  const unsub = useFirstResults.subscribe((s) => {
    if (!s.open) return;
    unsub();
    fn();
  });
}

export function openAfterFirstResults(reason: GateReason): void {
  if (useFirstResults.getState().open) return;
  useFirstResults.setState({ open: true, reason });
}

export interface GateTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Runs `fn` after the next paint (the first rows must be painted before heavy scripts start). */
  afterPaint(fn: () => void): void;
}

function afterNextPaint(fn: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    fn();
  };
  // A frame, then a task: the frame with the rows has been painted. A hidden tab runs no
  // frames, so a plain timer stands in.
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}

const realTimers: GateTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  afterPaint: afterNextPaint,
};

/** Watches the analysis store and opens the gate (once); returns a stop function. */
export function startFirstResultsGate(timers: GateTimers = realTimers): () => void {
  const handles: unknown[] = [];
  let unsub: () => void = () => {};
  const stop = () => {
    unsub();
    for (const h of handles) timers.clearTimeout(h);
    handles.length = 0;
  };
  const open = (reason: GateReason) => {
    stop();
    openAfterFirstResults(reason);
  };
  let fallbackArmed = false;
  const check = () => {
    const s = useAnalysis.getState();
    if (useFirstResults.getState().open) return stop();
    if (s.resultVersion > 0 || s.failure !== null) {
      unsub();
      timers.afterPaint(() => open('results'));
      return;
    }
    // The clock starts when the first analysis is asked for: page load itself does not count.
    if (!fallbackArmed && s.requestedVersion > 0) {
      fallbackArmed = true;
      handles.push(timers.setTimeout(() => open('timeout'), FALLBACK_MS));
    }
  };
  unsub = useAnalysis.subscribe(check);
  const unsubGate = useFirstResults.subscribe((g) => {
    if (g.open) {
      unsubGate();
      stop();
    }
  });
  handles.push(timers.setTimeout(() => open('timeout'), LAST_RESORT_MS));
  check();
  return () => {
    unsubGate();
    stop();
  };
}
