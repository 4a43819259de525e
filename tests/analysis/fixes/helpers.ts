// Runs the whole pipeline (WorkspaceAnalyzer) over inline files, applies a quick fix's
// edits to the texts, and re-analyzes: the fixed message must be gone and no Error new.
import { expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { WorkspaceAnalyzer } from '../../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../../src/core/analysis/settings.ts';
import { applyTextEdits } from '../../../src/core/analysis/fixes/apply.ts';
import type { Diagnostic, QuickFix } from '../../../src/core/document/types.ts';

export type Files = Record<string, string>;

export async function analyzeFiles(files: Files): Promise<Diagnostic[]> {
  const w = new WorkspaceAnalyzer();
  w.update(
    Object.entries(files).map(([path, text]) => ({ path, text })),
    [],
  );
  const res = await w.run(defaultAnalysisSettings(), { fixes: true });
  if (res === 'canceled') throw new Error('unexpected cancel');
  return res.diagnostics;
}

export function applyFix(files: Files, fix: QuickFix): Files {
  const out = { ...files };
  const byFile = new Map<string, QuickFix['edits']>();
  for (const e of fix.edits) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
  for (const [file, edits] of byFile) {
    expect(out[file], `edited file ${file} exists`).toBeDefined();
    out[file] = applyTextEdits(out[file] as string, edits);
  }
  return out;
}

const key = (d: Diagnostic) => `${d.code}|${d.origin ?? ''}|${d.message}`;

export interface FixCase {
  files: Files;
  /** Picks the diagnostic to fix. */
  find: (d: Diagnostic) => boolean;
  /** Picks the fix (default: the preferred one). */
  title?: string | RegExp;
}

/** Applies the chosen fix and checks the outcome; returns the fixed files and the fix. */
export async function expectFixResolves(c: FixCase): Promise<{ files: Files; fix: QuickFix; before: Diagnostic[]; after: Diagnostic[] }> {
  const before = await analyzeFiles(c.files);
  const target = before.find(c.find);
  expect(target, `diagnostic to fix in:\n${before.map(key).join('\n')}`).toBeDefined();
  const fixes = target!.fixes ?? [];
  expect(fixes.length, `fixes of ${key(target!)}`).toBeGreaterThan(0);
  const fix =
    c.title === undefined ? fixes.find((f) => f.isPreferred) : fixes.find((f) => (typeof c.title === 'string' ? f.title === c.title : c.title!.test(f.title)));
  expect(fix, `fix ${String(c.title ?? 'preferred')} among ${fixes.map((f) => f.title).join(' | ')}`).toBeDefined();
  const files = applyFix(c.files, fix!);
  const after = await analyzeFiles(files);
  // Gone means no message of that code on the same resource and field (whatever its text).
  const spot = (d: Diagnostic) => `${d.code}|${d.origin ?? ''}|${d.fieldPath ?? ''}`;
  expect(after.filter((d) => spot(d) === spot(target!)).map(key), 'the fixed message is gone').toEqual([]);
  const beforeKeys = new Set(before.map(key));
  const newErrors = after.filter((d) => d.level === 'Error' && !beforeKeys.has(key(d)));
  expect(newErrors.map(key), 'no new errors').toEqual([]);
  return { files, fix: fix!, before, after };
}

export function sampleFiles(id = 'bookinfo-mistakes'): Files {
  const out: Files = {};
  for (const f of ['platform.yaml', 'bookinfo.yaml', 'networking.yaml', 'destination-rules.yaml']) {
    out[f] = readFileSync(new URL(`../../../public/samples/${id}/${f}`, import.meta.url), 'utf8');
  }
  return out;
}

export const yaml = (...lines: string[]) => lines.join('\n') + '\n';
