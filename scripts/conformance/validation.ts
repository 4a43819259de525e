// The `validation` suite of the conformance corpus: every document of
// validation/crds/*-valid.yaml must be accepted (no error from either validation layer), and
// every document of *-invalid.yaml rejected for the reason its `_err` names: an error whose
// message contains the `_err` text, or, when `_err` is `<path>: <reason>`, an error on that
// path for the same reason.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeResource } from '../../src/core/document/resources.ts';
import { splitDocuments } from '../../src/core/document/split.ts';
import { parseSourceDocument } from '../../src/core/document/parse.ts';
import { validateResource, type ValidationFinding } from '../../src/core/validation/index.ts';
import jsyaml from 'js-yaml';
import { documentIds } from './manifest.ts';

export interface ValidationCase {
  id: string;
  file: string;
  doc: Record<string, unknown>;
  /** The expected error (`_err`), absent for documents that must be accepted. */
  err?: string;
}

export interface ValidationCaseResult {
  id: string;
  passed: boolean;
  expected?: string;
  got: ValidationFinding[];
}

export interface ValidationSuiteReport {
  results: ValidationCaseResult[];
  passed: number;
  failed: number;
  lines: string[];
}

/** What a document's id is derived from: its data (js-yaml, core schema), or its text if that does not parse. */
function documentContent(text: string): unknown {
  try {
    return jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA });
  } catch {
    return text.replace(/\r\n/g, '\n').trim();
  }
}

export function loadValidationCases(dir: string): ValidationCase[] {
  const crds = join(dir, 'crds');
  if (!existsSync(crds)) return [];
  const cases: ValidationCase[] = [];
  for (const file of readdirSync(crds)
    .filter((n) => /\.ya?ml$/.test(n))
    .sort()) {
    // Read as the workbench reads files (our YAML reader), document by document.
    const docs: Array<Omit<ValidationCase, 'id'> & { content: unknown; name: string }> = [];
    for (const source of splitDocuments(file, readFileSync(join(crds, file), 'utf8'))) {
      const d = parseSourceDocument(source).value;
      if (!d || typeof d !== 'object' || Array.isArray(d)) continue;
      const doc = { ...(d as Record<string, unknown>) };
      const err = doc._err;
      delete doc._err;
      const name = (doc.metadata as { name?: string } | undefined)?.name ?? '';
      docs.push({ file, doc, ...(typeof err === 'string' ? { err } : {}), content: documentContent(source.text), name });
    }
    // Ids come from each document's own content, not its position: inserting a document
    // leaves the other ids as they are.
    const ids = documentIds(`validation/${file}`, docs);
    docs.forEach((d, i) => cases.push({ id: ids[i] as string, file: d.file, doc: d.doc, ...(d.err !== undefined ? { err: d.err } : {}) }));
  }
  return cases;
}

const REASONS = ['Invalid value', 'Required value', 'Unsupported value', 'Duplicate value', 'Too long', 'Too many', 'Forbidden', 'unknown field'];

/** Whether a finding rejects the document for the reason `err` names. */
export function matchesExpected(err: string, f: ValidationFinding): boolean {
  if (f.level !== 'error') return false;
  if (f.message.includes(err)) return true;
  const m = /^([\w.[\]-]+): ([A-Za-z ]+?)(?::|$)/.exec(err);
  if (!m) return false;
  const [, path, reason] = m as unknown as [string, string, string];
  return REASONS.includes(reason) && f.message.startsWith(`${path}: ${reason}`);
}

export function runValidationCase(c: ValidationCase): ValidationCaseResult {
  const got = validateResource(makeResource(c.doc, undefined));
  const errors = got.filter((f) => f.level === 'error');
  const passed = c.err === undefined ? errors.length === 0 : errors.some((f) => matchesExpected(c.err as string, f));
  return { id: c.id, passed, ...(c.err !== undefined ? { expected: c.err } : {}), got };
}

/** Runs the suite in `dir` (…/conformance/validation); undefined when it is absent. */
export function runValidationSuite(dir: string): ValidationSuiteReport | undefined {
  if (!existsSync(join(dir, 'crds'))) return undefined;
  const results = loadValidationCases(dir).map(runValidationCase);
  const lines: string[] = [];
  for (const r of results.filter((x) => !x.passed)) {
    lines.push(`FAIL ${r.id} (validation)`);
    lines.push(`  expected: ${r.expected ?? 'accepted'}`);
    for (const f of r.got) lines.push(`  got:      [${f.layer} ${f.level}] ${f.message}`);
    if (r.got.length === 0) lines.push('  got:      nothing');
  }
  const passed = results.filter((r) => r.passed).length;
  return { results, passed, failed: results.length - passed, lines };
}
