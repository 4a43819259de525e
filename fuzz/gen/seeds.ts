// Real manifests the generators start from: our samples and fixtures, and Istio's analyzer
// test inputs from ../shared when present (read in place, never copied).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitDocuments } from '../../src/core/document/split.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const SHARED_TESTDATA = resolve(ROOT, '../shared/conformance/analyzers/testdata');

function manifestFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...manifestFiles(p));
    else if (/\.(ya?ml|json)$/.test(name)) out.push(p);
  }
  return out;
}

export interface Seeds {
  /** Whole files. */
  files: string[];
  /** Lines (16+ characters, trimmed) of the ../shared files that our own files lack, to keep them out of the corpus. */
  sharedLines: Set<string>;
  /** Their documents' texts. */
  documents: string[];
  /** Where they came from, for the report. */
  sources: string[];
}

let cached: Seeds | undefined;

/** How many lines of a counterexample (any string in it) are lines of the ../shared files. */
export function sharedLinesIn(input: unknown, seeds: Seeds): number {
  let n = 0;
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      for (const line of v.split('\n')) if (seeds.sharedLines.has(line.trim())) n++;
    } else if (typeof v === 'object' && v !== null) {
      for (const c of Object.values(v)) visit(c);
    }
  };
  visit(input);
  return n;
}

export function loadSeeds(): Seeds {
  if (cached) return cached;
  const dirs = [resolve(ROOT, 'public/samples'), resolve(ROOT, 'tests/fixtures'), SHARED_TESTDATA];
  const files: string[] = [];
  const sources: string[] = [];
  const sharedLines = new Set<string>();
  const ownLines = new Set<string>();
  for (const dir of dirs) {
    const found = manifestFiles(dir);
    if (found.length > 0) sources.push(`${dir} (${found.length} files)`);
    for (const f of found) {
      const text = readFileSync(f, 'utf8');
      files.push(text);
      for (const line of text.split('\n')) if (line.trim().length >= 16) (dir === SHARED_TESTDATA ? sharedLines : ownLines).add(line.trim());
    }
  }
  for (const line of ownLines) sharedLines.delete(line);
  const documents = files.flatMap((text, i) => splitDocuments(`seed${i}.yaml`, text).map((d) => d.text));
  cached = { files, documents, sources, sharedLines };
  return cached;
}
