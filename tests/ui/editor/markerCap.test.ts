// The editor shows at most 1,000 of a file's diagnostics as markers, as VS Code does for an
// extension's: errors first, then warnings, then information, each in file order.
import { describe, expect, it } from 'vitest';
import { cappedMarkers, MAX_MARKERS_PER_FILE, omittedMarkersMessage } from '../../../src/ui/editor/markerCap.ts';
import type { Diagnostic, Level } from '../../../src/core/document/types.ts';

const d = (level: Level, line: number): Diagnostic => ({ level, code: 'IST0101', message: `at ${line}`, file: 'a.yaml', line, source: 'analyzer' });

describe('cappedMarkers', () => {
  it('keeps every diagnostic up to the cap', () => {
    const list = Array.from({ length: MAX_MARKERS_PER_FILE }, (_, i) => d('Info', i + 1));
    expect(cappedMarkers(list)).toEqual({ shown: list, omitted: 0 });
  });

  it('past the cap keeps errors, then warnings, then info, each in file order', () => {
    // Lines 1..6: info, warning, error, info, error, warning; a cap of 3 keeps both errors and the first warning.
    const list = [d('Info', 1), d('Warning', 2), d('Error', 3), d('Info', 4), d('Error', 5), d('Warning', 6)];
    const { shown, omitted } = cappedMarkers(list, 3);
    expect(shown.map((x) => x.line)).toEqual([3, 5, 2]);
    expect(omitted).toBe(3);
  });

  it('counts what it leaves out of 60,000 findings', () => {
    const list = Array.from({ length: 60_000 }, (_, i) => d(i % 2 === 0 ? 'Warning' : 'Error', i + 1));
    const { shown, omitted } = cappedMarkers(list);
    expect(shown).toHaveLength(1000);
    expect(shown.every((x) => x.level === 'Error')).toBe(true);
    expect(omitted).toBe(59_000);
    expect(omittedMarkersMessage(omitted)).toBe('Not showing 59,000 further problems in this file; the Problems panel lists them all.');
  });
});
