// Quick fixes and suppression edits live on diagnostics for the editor only: no output
// format prints them.
import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS, formatDiagnostics } from '../../../src/core/analysis/format/index.ts';
import { analyzeFiles, sampleFiles } from './helpers.ts';

describe('formatters ignore fixes', () => {
  it('prints the same bytes with and without fixes in every format', async () => {
    const withFixes = await analyzeFiles(sampleFiles());
    expect(withFixes.some((d) => d.fixes && d.fixes.length > 0)).toBe(true);
    const without = withFixes.map(({ fixes: _f, ...rest }) => rest);
    for (const format of OUTPUT_FORMATS) {
      const a = formatDiagnostics(format, withFixes);
      expect(a, format).toBe(formatDiagnostics(format, without));
      expect(a, format).not.toMatch(/Change host to|Change gateway to/);
    }
  });
});
