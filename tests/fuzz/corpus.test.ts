// Replays every minimised counterexample the fuzzer recorded (tests/fuzz-corpus/*.json,
// written by `npm run fuzz`): each must now pass its target's check. Entries marked
// `known-analyzer-crash` are analyzer crashes left for the analyzers' crash-proofing: they
// are expected to fail, and the test says so when one starts passing (then delete its status).
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { CORPUS_DIR, readCorpus } from '../../fuzz/corpus.ts';
import { targetByName } from '../../fuzz/targets/index.ts';
import { HANG_MS } from '../../fuzz/failure.ts';

// Generous under a loaded test run; the fuzzer itself holds inputs to HANG_MS.
const options = { timeLimitMs: HANG_MS * 5 };
const files = readdirSync(CORPUS_DIR).filter((f) => f.endsWith('.json'));

describe('fuzz regression corpus', () => {
  it('has a corpus file for every target it names', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(targetByName(f.replace(/\.json$/, '')), f).toBeDefined();
  });

  it('holds only inputs of our own (no entry still waits to have ../shared text replaced)', () => {
    for (const f of files) for (const e of readCorpus(f.replace(/\.json$/, '')).entries) expect(e.review, `${f}: ${e.detail}`).toBeUndefined();
  });

  for (const f of files) {
    const name = f.replace(/\.json$/, '');
    const target = targetByName(name);
    const corpus = readCorpus(name);
    // A target that cannot run here (no openssl for pki-verify) is skipped, and says why.
    const notRun = target?.unavailable?.();
    (notRun ? describe.skip : describe)(notRun ? `${name} (skipped: ${notRun})` : name, () => {
      corpus.entries.forEach((entry, i) => {
        const title = `#${i} ${entry.kind}: ${entry.detail.slice(0, 100)}`;
        const replay = async () => {
          const outcome = await target!.check(entry.input as never, options);
          expect(outcome).not.toBe('known-crash');
        };
        if (entry.status === 'known-analyzer-crash') it.fails(`${title} (known analyzer crash)`, replay);
        else it(title, replay);
      });
    });
  }
});
