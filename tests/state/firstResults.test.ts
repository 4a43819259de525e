// The gate after which the page loads the editor and the side panes: it opens after the first
// result has been painted, after the first analysis has run FALLBACK_MS without one, or when
// asked; once only. Timers here are a hand-driven stand-in, so nothing depends on the clock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FALLBACK_MS, LAST_RESORT_MS, openAfterFirstResults, startFirstResultsGate, useFirstResults, type GateTimers } from '../../src/state/firstResults.ts';
import { useAnalysis } from '../../src/state/analysis.ts';
import { placeholderText } from '../../src/ui/editor/EditorPlaceholder.tsx';

class ManualTimers implements GateTimers {
  private next = 1;
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  readonly paints: Array<() => void> = [];
  setTimeout(fn: () => void, ms: number): unknown {
    const h = this.next++;
    this.pending.set(h, { fn, ms });
    return h;
  }
  clearTimeout(h: unknown): void {
    this.pending.delete(h as number);
  }
  afterPaint(fn: () => void): void {
    this.paints.push(fn);
  }
  /** Runs the pending timers of exactly `ms`. */
  fire(ms: number): void {
    for (const [h, t] of [...this.pending]) {
      if (t.ms !== ms) continue;
      this.pending.delete(h);
      t.fn();
    }
  }
  paint(): void {
    for (const fn of this.paints.splice(0)) fn();
  }
}

let timers: ManualTimers;
let stop: () => void;

beforeEach(() => {
  useFirstResults.setState({ open: false, reason: null });
  useAnalysis.setState({ requestedVersion: 0, resultVersion: 0, failure: null });
  timers = new ManualTimers();
  stop = startFirstResultsGate(timers);
});
afterEach(() => stop());

describe('the first-results gate', () => {
  it('stays shut while the first analysis runs, and opens once its result has been painted', () => {
    useAnalysis.setState({ requestedVersion: 1, running: true });
    expect(useFirstResults.getState().open).toBe(false);
    useAnalysis.setState({ resultVersion: 1, running: false });
    // Not before the frame with the rows.
    expect(useFirstResults.getState().open).toBe(false);
    timers.paint();
    expect(useFirstResults.getState()).toEqual({ open: true, reason: 'results' });
    // Its timers are gone: nothing fires later.
    expect(timers.pending.size).toBe(0);
  });

  it('opens on a failed first analysis too (the editor must not wait for a result that will not come)', () => {
    useAnalysis.setState({ requestedVersion: 1, failure: 'The analysis worker stopped' });
    timers.paint();
    expect(useFirstResults.getState().reason).toBe('results');
  });

  it('opens FALLBACK_MS after the first analysis was asked for, when it has not finished', () => {
    expect([...timers.pending.values()].map((t) => t.ms)).toEqual([LAST_RESORT_MS]);
    useAnalysis.setState({ requestedVersion: 1, running: true });
    // A second request does not restart the clock.
    useAnalysis.setState({ requestedVersion: 2 });
    expect([...timers.pending.values()].map((t) => t.ms).sort()).toEqual([FALLBACK_MS, LAST_RESORT_MS].sort());
    timers.fire(FALLBACK_MS);
    expect(useFirstResults.getState()).toEqual({ open: true, reason: 'timeout' });
    expect(timers.pending.size).toBe(0);
  });

  it('opens when the page never asks for an analysis (a start that got stuck)', () => {
    timers.fire(LAST_RESORT_MS);
    expect(useFirstResults.getState()).toEqual({ open: true, reason: 'timeout' });
  });

  it('opens when the person asks for the editor, and keeps the first reason afterwards', () => {
    openAfterFirstResults('asked');
    expect(useFirstResults.getState()).toEqual({ open: true, reason: 'asked' });
    expect(timers.pending.size).toBe(0);
    useAnalysis.setState({ requestedVersion: 1, resultVersion: 1 });
    timers.paint();
    expect(useFirstResults.getState().reason).toBe('asked');
  });
});

describe('the editor placeholder text', () => {
  it('shows a short text whole', () => {
    expect(placeholderText('a: 1\nb: 2\n', 100)).toEqual({ text: 'a: 1\nb: 2\n', cut: false });
  });

  it('cuts a long text after a whole line', () => {
    expect(placeholderText('line1\nline2\nline3\n', 14)).toEqual({ text: 'line1\nline2\n', cut: true });
    // A first line longer than the limit is cut inside it.
    expect(placeholderText('x'.repeat(30), 10)).toEqual({ text: 'x'.repeat(10), cut: true });
  });
});
