// Real manifests the generators start from: our samples and fixtures, and Istio's analyzer
// test inputs from ../shared when present (read in place, never copied).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitDocuments } from '../../src/core/model/split.ts';

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
  /** Their documents' texts. */
  documents: string[];
  /** Where they came from, for the report. */
  sources: string[];
}

let cached: Seeds | undefined;

export function loadSeeds(): Seeds {
  if (cached) return cached;
  const dirs = [resolve(ROOT, 'public/samples'), resolve(ROOT, 'tests/fixtures'), SHARED_TESTDATA];
  const files: string[] = [];
  const sources: string[] = [];
  for (const dir of dirs) {
    const found = manifestFiles(dir);
    if (found.length > 0) sources.push(`${dir} (${found.length} files)`);
    for (const f of found) files.push(readFileSync(f, 'utf8'));
  }
  const documents = files.flatMap((text, i) => splitDocuments(`seed${i}.yaml`, text).map((d) => d.text));
  cached = { files, documents, sources };
  return cached;
}
