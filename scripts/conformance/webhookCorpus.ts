// The webhook parity corpus: cases transcribed from Istio's webhook test tables into our own
// YAML fixtures (tests/fixtures/validation/*.yaml). Each document is one case:
//   case: <Istio test>/<case name>      (a comment above it cites the Istio file and line)
//   kind: Gateway                        (a key of KINDS)
//   name, namespace, labels, annotations (optional; Istio's tests use foo/bar)
//   valid: true | false                  (false: at least one error)
//   errors: [...]                        (optional: the exact errors, in order)
//   errorContains: "..."                 (optional: Istio's expected substring)
//   warnings: [...] | warningContains: "..." | warning: true/false
//   spec: {...}
// Used by `npm run conformance` (webhook-corpus suite) and by the unit tests.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsyaml from 'js-yaml';
import { KINDS } from '../../src/core/document/kinds.ts';
import { validateWebhook } from '../../src/core/validation/webhook.ts';
import type { CaseResult } from './types.ts';
import { documentIds } from './manifest.ts';

export const CORPUS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'fixtures', 'validation');

export interface CorpusCase {
  file: string;
  /**
   * `webhook-corpus/<file>#<hash of the document> <case>`: from the document's own content, so
   * inserting or moving a case leaves the others' ids unchanged (case names repeat).
   */
  id: string;
  case: string;
  kind: string;
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  valid: boolean;
  errors?: string[];
  errorContains?: string | string[];
  warnings?: string[];
  warningContains?: string | string[];
  warning?: boolean;
  spec: unknown;
}

export interface CorpusResult {
  c: CorpusCase;
  passed: boolean;
  problems: string[];
  errors: string[];
  warnings: string[];
}

export function loadCorpus(dir = CORPUS_DIR): CorpusCase[] {
  const out: CorpusCase[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.yaml'))
    .sort()) {
    const docs = jsyaml.loadAll(readFileSync(join(dir, f), 'utf8')).filter((d) => d !== null && d !== undefined) as Omit<CorpusCase, 'file' | 'id'>[];
    const ids = documentIds(
      `webhook-corpus/${f}`,
      docs.map((d) => ({ content: d, name: String(d.case ?? '') })),
    );
    docs.forEach((doc, i) => out.push({ ...doc, file: f, id: ids[i] as string }));
  }
  return out;
}

const asList = (x: string | string[] | undefined): string[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

export function runCorpusCase(c: CorpusCase): CorpusResult {
  const problems: string[] = [];
  const info = (KINDS as Record<string, { id: string } | undefined>)[c.kind];
  if (!info) return { c, passed: false, problems: [`unknown kind ${c.kind}`], errors: [], warnings: [] };
  const findings = validateWebhook({
    kindId: info.id,
    name: c.name ?? 'foo',
    namespace: c.namespace ?? 'bar',
    labels: c.labels,
    annotations: c.annotations,
    spec: c.spec,
  });
  const errors = findings.filter((f) => f.level === 'error').map((f) => f.message);
  const warnings = findings.filter((f) => f.level === 'warning').map((f) => f.message);
  if (c.valid && errors.length > 0) problems.push('expected valid, got errors');
  if (!c.valid && errors.length === 0) problems.push('expected errors, got none');
  if (c.errors && JSON.stringify(c.errors) !== JSON.stringify(errors)) problems.push(`errors differ: want ${JSON.stringify(c.errors)}`);
  for (const s of asList(c.errorContains)) if (!errors.some((e) => e.includes(s))) problems.push(`no error contains ${JSON.stringify(s)}`);
  if (c.warnings && JSON.stringify(c.warnings) !== JSON.stringify(warnings)) problems.push(`warnings differ: want ${JSON.stringify(c.warnings)}`);
  for (const s of asList(c.warningContains)) if (!warnings.some((w) => w.includes(s))) problems.push(`no warning contains ${JSON.stringify(s)}`);
  if (c.warning === true && warnings.length === 0) problems.push('expected a warning, got none');
  if (c.warning === false && warnings.length > 0) problems.push('expected no warning');
  return { c, passed: problems.length === 0, problems, errors, warnings };
}

/** Runs the corpus; the report lines end with `webhook-corpus: N passed, N failed`. */
export function runWebhookCorpus(dir = CORPUS_DIR): { passed: number; failed: number; lines: string[]; results: CaseResult[] } {
  const results = loadCorpus(dir).map(runCorpusCase);
  const lines: string[] = [];
  for (const r of results.filter((x) => !x.passed)) {
    lines.push(`FAIL ${r.c.id}`);
    for (const p of r.problems) lines.push(`  ${p}`);
    lines.push(`  got errors: ${JSON.stringify(r.errors)}`, `  got warnings: ${JSON.stringify(r.warnings)}`);
  }
  const passed = results.filter((r) => r.passed).length;
  const failed = results.length - passed;
  lines.push(`webhook-corpus: ${passed} passed, ${failed} failed`);
  const caseResults: CaseResult[] = results.map((r) => ({
    suite: 'webhook-corpus',
    id: r.c.id,
    analyzer: 'webhook-corpus',
    passed: r.passed,
    missing: r.problems,
    extra: [],
  }));
  return { passed, failed, lines, results: caseResults };
}
