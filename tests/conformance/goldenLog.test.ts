// Our `-o log` text for every conformance case against golden files written from Istio's
// templates (see goldenLog.ts and tests/conformance/golden/expected.yaml).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseDiagnostics, readCasesFile } from '../../scripts/conformance.ts';
import { formatLog } from '../../src/core/analysis/format/log.ts';
import {
  goldenFile,
  goldenLineChoices,
  goldenLogText,
  goQuote,
  hasAlternatives,
  goSprintfForGolden,
  istioChunks,
  readExpectedMessages,
  readMessageTemplates,
} from './goldenLog.ts';
import { describeWithSharedCorpus, SHARED_ANALYZERS } from './sharedCorpus.ts';

describe('golden log generator (Istio side)', () => {
  it("formats arguments as Go's fmt does for %s %v %q %d", () => {
    expect(goSprintfForGolden('Referenced %s not found: %q', ['host', 'reviews2'])).toBe('Referenced host not found: "reviews2"');
    expect(goSprintfForGolden('ports %v, port %d, %s', [[9080, 9090], 80, 'x'])).toBe('ports [9080 9090], port 80, x');
    expect(goSprintfForGolden('clusters %q', [['c1', 'c2']])).toBe('clusters ["c1" "c2"]');
    expect(goSprintfForGolden('100%% %v', [['a b', 'c']])).toBe('100% [a b c]');
    expect(goQuote('say "hi"\\\n\u00e9')).toBe('"say \\"hi\\"\\\\\\n\u00e9"');
    expect(() => goSprintfForGolden('%s %s', ['one'])).toThrow(/too few/);
    expect(() => goSprintfForGolden('%s', ['one', 'two'])).toThrow(/extra/);
  });

  it("splits documents as Istio's reader does: a document starts at its first line that is not empty or ---, a comment included", () => {
    const chunks = istioChunks('---\na: 1\n---\n\n# note\nb: 2\n---\n\n---\nc: 3\n');
    expect(chunks.map((c) => [c.startLine, c.text])).toEqual([
      [2, '---\na: 1'],
      [5, '# note\nb: 2'],
      [10, 'c: 3'],
    ]);
  });
});

/**
 * Cases where our output differs from what Istio prints, found by these golden files and
 * not fixed yet. Each runs as a test that must fail. (The last one, field lines in a file
 * that starts with `---`, is fixed: see separatorKept in src/core/document/split.ts.)
 */
const KNOWN_DIFFERENCES: Record<string, string> = {};

const CASES = join(SHARED_ANALYZERS, 'cases.json');
const MC_CASES = join(SHARED_ANALYZERS, 'multicluster-cases.json');
const MESSAGES = join(SHARED_ANALYZERS, 'messages.yaml');

describeWithSharedCorpus('conformance cases: our -o log against the golden files', [CASES, MC_CASES, MESSAGES], () => {
  const cases = [...readCasesFile(CASES), ...readCasesFile(MC_CASES)];
  const expected = readExpectedMessages();
  const templates = readMessageTemplates(MESSAGES);
  const key = (m: { code: string; origin: string }) => `${m.code} ${m.origin}`;

  it("expected.yaml has every case and only the corpus's (code, origin) messages for each", () => {
    expect([...expected.keys()].sort()).toEqual(cases.map((c) => c.id).sort());
    const mismatched = cases.filter((c) => JSON.stringify((expected.get(c.id) ?? []).map(key).sort()) !== JSON.stringify(c.expected.map(key).sort()));
    expect(mismatched.map((c) => ({ id: c.id, corpus: c.expected.map(key).sort(), ours: (expected.get(c.id) ?? []).map(key).sort() }))).toEqual([]);
  });

  it('the golden files are what expected.yaml and messages.yaml give (regenerate with npx tsx scripts/golden-logs.ts)', () => {
    const stale = cases.filter((c) => {
      const file = goldenFile(c.id);
      return !existsSync(file) || readFileSync(file, 'utf8') !== goldenLogText(c, expected.get(c.id) ?? [], SHARED_ANALYZERS, templates);
    });
    expect(stale.map((c) => c.id)).toEqual([]);
  });

  for (const c of cases) {
    const messages = expected.get(c.id) ?? [];
    const known = KNOWN_DIFFERENCES[c.id];
    // A known difference is a test that must fail until it is fixed; then it is taken off the list.
    (known ? it.fails : it)(`${c.id}: -o log matches the golden file${known ? ` (KNOWN DIFFERENCE, expected to fail: ${known})` : ''}`, () => {
      const ours = formatLog(caseDiagnostics(c, SHARED_ANALYZERS))
        .split('\n')
        .filter((l) => l !== '');
      if (!hasAlternatives(messages)) {
        expect(ours).toEqual(
          readFileSync(goldenFile(c.id), 'utf8')
            .split('\n')
            .filter((l) => l !== ''),
        );
        return;
      }
      // Istio's own output varies here (Go map order decides a cluster or an order), so every
      // one of our lines must be one that Istio may print for a distinct expected message.
      const choices = goldenLineChoices(c, messages, SHARED_ANALYZERS, templates);
      const unmatched = [...ours];
      const unused = choices.filter((lines) => {
        const i = unmatched.findIndex((l) => lines.includes(l));
        if (i < 0) return true;
        unmatched.splice(i, 1);
        return false;
      });
      expect({ unmatched, unused }).toEqual({ unmatched: [], unused: [] });
    });
  }
});
