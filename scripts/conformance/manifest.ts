// What the conformance run expects to find, checked into conformance/ (issue #28):
// - conformance/manifest/<suite>.txt: the files of the suite's corpus part and its case ids
//   (`file <path>` and `case <id>` lines; never a copy of the corpus itself);
// - conformance/baseline.txt: every passing case id;
// - conformance/known-failures.txt: the cases known to fail, `<id> | <reason>` one per line.
// All three are written (the known failures only read) by `npm run conformance -- --write-baseline`.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface Manifest {
  files: string[];
  cases: string[];
  /**
   * The cases among `cases` that needed something not written yet when the manifest was written
   * (`pending <id>` lines): neither baselined nor known failures, and failing nothing.
   */
  pending?: string[];
}

/** A deterministic JSON rendering (object keys sorted), for content ids. */
export function canonicalJson(v: unknown): string {
  if (v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v instanceof Date) return JSON.stringify(v.toISOString());
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  if (typeof v === 'bigint') return v.toString();
  return JSON.stringify(v) ?? 'null';
}

/** A short hash of a value's content (10 hex digits of the SHA-256 of its canonical JSON). */
export function contentHash(v: unknown): string {
  return createHash('sha256').update(canonicalJson(v)).digest('hex').slice(0, 10);
}

/**
 * Ids for documents of one file: `<prefix>#<content hash>[ <name>]`. Identical documents of
 * the same file get `~2`, `~3`, … after the hash, in order (only an identical copy shifts them).
 */
export function documentIds(prefix: string, docs: readonly { content: unknown; name?: string }[]): string[] {
  const seen = new Map<string, number>();
  return docs.map((d) => {
    const h = contentHash(d.content);
    const n = (seen.get(h) ?? 0) + 1;
    seen.set(h, n);
    // The name only for reading: on one line, without surrounding blanks.
    const name = (d.name ?? '').replace(/\s+/g, ' ').trim();
    return `${prefix}#${h}${n > 1 ? `~${n}` : ''}${name ? ` ${name}` : ''}`;
  });
}

/** Every file under `dir`, as `<prefix>/<relative path>`, sorted. */
export function listFiles(dir: string, prefix: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const r = `${rel}/${name}`;
      if (statSync(p).isDirectory()) walk(p, r);
      else out.push(r);
    }
  };
  if (existsSync(dir) && statSync(dir).isDirectory()) walk(dir, prefix);
  return out.sort();
}

export function readManifest(file: string): Manifest {
  const m: Manifest = { files: [], cases: [] };
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '' || line.startsWith('#')) continue;
    if (line.startsWith('file ')) m.files.push(line.slice(5));
    else if (line.startsWith('case ')) m.cases.push(line.slice(5));
    else if (line.startsWith('pending ')) {
      m.cases.push(line.slice(8));
      (m.pending ??= []).push(line.slice(8));
    } else throw new Error(`${file}: expected 'file <path>', 'case <id>' or 'pending <id>', got ${JSON.stringify(line)}`);
  }
  return m;
}

export function formatManifest(suite: string, where: string, m: Manifest): string {
  const pending = new Set(m.pending ?? []);
  return [
    `# Manifest of the conformance suite ${suite} (${where}): the corpus files it reads and its case ids.`,
    '# A strict run (--baseline) fails when any of them is missing. Written by',
    '# `npm run conformance -- --write-baseline`; review the diff, do not edit by hand.',
    ...(pending.size > 0 ? ['# `pending <id>`: a case whose checker was not implemented yet (listed, not a failure).'] : []),
    ...[...m.files].sort().map((f) => `file ${f}`),
    ...[...m.cases].sort().map((c) => (pending.has(c) ? `pending ${c}` : `case ${c}`)),
    '',
  ].join('\n');
}

/** Known failures: `<id> | <reason>` lines. Lines without a reason are reported as errors. */
export function readKnownFailures(file: string): { known: Map<string, string>; errors: string[] } {
  const known = new Map<string, string>();
  const errors: string[] = [];
  if (!existsSync(file)) return { known, errors };
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((raw, i) => {
      const line = raw.replace(/\r$/, '');
      if (line.trim() === '' || line.startsWith('#')) return;
      const at = line.indexOf(' | ');
      const id = at < 0 ? line.trim() : line.slice(0, at).trim();
      const reason = at < 0 ? '' : line.slice(at + 3).trim();
      if (!reason) errors.push(`${file}:${i + 1}: known failure ${id} has no reason ('<id> | <reason>')`);
      known.set(id, reason);
    });
  return { known, errors };
}

/** The suite an id belongs to (`xds/authz/http/x` → `xds`). */
export function suiteOf(id: string): string {
  const at = id.indexOf('/');
  return at < 0 ? id : id.slice(0, at);
}
