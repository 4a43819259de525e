// The regression corpus: every minimised counterexample the fuzzer found, one JSON file per
// target under tests/fuzz-corpus/, replayed by tests/fuzz/corpus.test.ts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FailureKind } from './failure.ts';

export const CORPUS_DIR = resolve(fileURLToPath(new URL('../tests/fuzz-corpus', import.meta.url)));

export interface CorpusEntry {
  input: unknown;
  kind: FailureKind;
  /** What the check said when the entry was found. */
  detail: string;
  /** Date found and the run's seed. */
  found: string;
  seed: number;
  /**
   * `known-analyzer-crash`: an analyzer crash left for the analyzers' crash-proofing; its
   * replay is expected to fail until then (delete the status once it passes).
   */
  status?: 'known-analyzer-crash';
  /** Crash signature (pipeline target): kind, message and first frame in src/. */
  signature?: string;
  /** Set when the input holds lines of ../shared: it must be rewritten before it is committed. */
  review?: string;
}

export interface CorpusFile {
  target: string;
  entries: CorpusEntry[];
}

export function corpusPath(target: string): string {
  return resolve(CORPUS_DIR, `${target}.json`);
}

export function readCorpus(target: string): CorpusFile {
  const p = corpusPath(target);
  if (!existsSync(p)) return { target, entries: [] };
  return JSON.parse(readFileSync(p, 'utf8')) as CorpusFile;
}

/** Adds an entry unless the same input is already there; true when added. */
export function addToCorpus(target: string, entry: CorpusEntry): boolean {
  const corpus = readCorpus(target);
  const key = JSON.stringify(entry.input);
  if (corpus.entries.some((e) => JSON.stringify(e.input) === key)) return false;
  corpus.entries.push(entry);
  writeFileSync(corpusPath(target), `${JSON.stringify(corpus, null, 1)}\n`);
  return true;
}

/** Signatures of the crashes recorded as known analyzer crashes. */
export function knownCrashSignatures(target: string): string[] {
  return readCorpus(target)
    .entries.filter((e) => e.status === 'known-analyzer-crash' && e.signature)
    .map((e) => e.signature as string);
}
