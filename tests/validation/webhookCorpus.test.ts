import { describe, expect, it } from 'vitest';
import { loadCorpus, runCorpusCase } from '../../scripts/conformance/webhookCorpus.ts';

const corpus = loadCorpus();

describe('webhook parity corpus (transcribed from Istio webhook tests)', () => {
  it('holds at least 300 cases', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
  });
  for (const c of corpus) {
    it(`${c.file}: ${c.case}`, () => {
      const r = runCorpusCase(c);
      expect(r.problems, JSON.stringify({ errors: r.errors, warnings: r.warnings })).toEqual([]);
    });
  }
});
