// Structural rules of the code base (docs/architecture.md): src/core is pure (no imports from
// the app layers or from Node); inside core, each layer imports only the layers below it; the
// page (src/ui, src/state) takes values from core only through the modules listed for it; and
// no module imports itself through a circle of imports.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Every module specifier a file imports or re-exports (type-only imports included). */
function specifiers(text: string): string[] {
  const out: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) out.push((m[1] ?? m[2] ?? m[3]) as string);
  return out;
}

const files = sourceFiles('src');
const graph = new Map<string, string[]>();
for (const f of files) {
  const deps: string[] = [];
  for (const s of specifiers(readFileSync(f, 'utf8'))) {
    if (!s.startsWith('.')) continue;
    deps.push(normalize(join(dirname(f), s.replace(/\?.*$/, ''))));
  }
  graph.set(normalize(f), deps);
}

/**
 * The layers of src/core, lowest first: a module may import its own folder and the folders of
 * lower ranks. Certificates (pki) sit below the mesh model because the mesh model reads TLS
 * credential Secrets as istiod does (config/secrets.ts); the workbench's own analyzers that
 * read generated xDS live in xds/ and join Istio's in analyzerSets.ts.
 */
const CORE_LAYERS: Record<string, number> = {
  go: 0,
  nextTask: 0,
  document: 1,
  pki: 2,
  config: 3,
  validation: 4,
  analysis: 5,
  ambient: 6,
  share: 6,
  xds: 7,
  queries: 8,
  analyzerSets: 8,
  meshLoader: 8,
  review: 9,
  workspace: 9,
};

/** The layer of a core module: its first folder under src/core, or its name for a top-level file. */
function coreLayer(file: string): string {
  const [first] = relative(join('src', 'core'), file).split(/[\\/]/);
  return (first as string).replace(/\.tsx?$/, '');
}

/**
 * The core modules the page may take values from on the main thread: presentation of what the
 * worker returned (proxy-config tables, diffs, review), what must run where the user acts
 * (share links and redaction, file decoding, applying a fix's edits) and the schema lookup
 * behind editor hovers. Anything that reads the whole workspace (analysis, xDS generation,
 * certificate checks, ambient traces) goes through the worker's queries. Types may come from
 * anywhere.
 */
const PAGE_CORE_VALUES = new Set([
  'nextTask.ts',
  'analysis/fixes/apply.ts',
  'analysis/fixes/suppression.ts',
  'analysis/messages.ts',
  'analysis/settings.ts',
  'analysis/suppress.ts',
  'go/strings.ts',
  'document/encoding.ts',
  'document/inputLimits.ts',
  'document/problemsOrder.ts',
  'document/types.ts',
  'pki/base64.ts',
  'pki/bytes.ts',
  'pki/generate.ts',
  'review/summary.ts',
  'review/xds.ts',
  'share/bundle.ts',
  'share/fragment.ts',
  'share/link.ts',
  'share/redact.ts',
  'validation/schema/lookup.ts',
  'xds/configdump/dump.ts',
  'xds/configdump/index.ts',
  'xds/diff.ts',
  'xds/dumpDiff.ts',
]);

/** Value imports (not `import type`, not `{ type X }`-only) of a file: the specifiers. */
function valueSpecifiers(text: string): string[] {
  const out: string[] = [];
  const re =
    /(?:^|\n)\s*(import|export)(\s+type)?\s*(\{[^}]*\}|\*\s+as\s+\w+|\w+(?:\s*,\s*\{[^}]*\})?)\s*from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) {
    if (m[5]) {
      out.push(m[5]);
      continue;
    }
    if (m[2]) continue;
    const clause = m[3] as string;
    if (clause.startsWith('{')) {
      const names = clause
        .slice(1, -1)
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n !== '');
      if (names.length > 0 && names.every((n) => n.startsWith('type '))) continue;
    }
    out.push(m[4] as string);
  }
  return out;
}

describe('architecture', () => {
  it('finds the source files and their imports', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get(normalize('src/core/workspace.ts'))?.length).toBeGreaterThan(3);
  });

  it('src/core imports nothing from ui, state, worker or cli, and no Node module', () => {
    const bad: string[] = [];
    for (const f of files.filter((x) => x.startsWith(join('src', 'core')))) {
      for (const s of specifiers(readFileSync(f, 'utf8'))) {
        if (s.startsWith('node:') || ['fs', 'path', 'os', 'child_process', 'process'].includes(s)) bad.push(`${f} → ${s}`);
        if (!s.startsWith('.')) continue;
        const target = relative('src', normalize(join(dirname(f), s)));
        if (!target.startsWith('core')) bad.push(`${f} → ${s}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('orders the layers inside core: each imports only its own folder and lower layers', () => {
    const bad: string[] = [];
    for (const f of files.filter((x) => x.startsWith(join('src', 'core')))) {
      const from = coreLayer(f);
      const rank = CORE_LAYERS[from];
      if (rank === undefined) {
        bad.push(`${f}: no layer (add ${from} to CORE_LAYERS)`);
        continue;
      }
      for (const dep of graph.get(normalize(f)) ?? []) {
        const to = coreLayer(dep);
        if (to === from) continue;
        const depRank = CORE_LAYERS[to];
        if (depRank === undefined || depRank >= rank) bad.push(`${f} (${from}) → ${dep} (${to})`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the page takes values from core only through the modules listed for it', () => {
    const bad: string[] = [];
    const pageFiles = files.filter((f) => !f.startsWith(join('src', 'core')) && !f.startsWith(join('src', 'worker')) && !f.startsWith(join('src', 'cli')));
    expect(pageFiles.length).toBeGreaterThan(50);
    for (const f of pageFiles) {
      for (const s of valueSpecifiers(readFileSync(f, 'utf8'))) {
        if (!s.startsWith('.')) continue;
        const target = relative(join('src', 'core'), normalize(join(dirname(f), s.replace(/\?.*$/, ''))));
        if (target.startsWith('..')) continue;
        if (!PAGE_CORE_VALUES.has(target.split('\\').join('/'))) bad.push(`${f} → ${s}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('has no import circles', () => {
    // Tarjan's strongly connected components over the import graph.
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const onStack = new Set<string>();
    const stack: string[] = [];
    const circles: string[][] = [];
    let next = 0;
    const visit = (v: string) => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      onStack.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!graph.has(w)) continue;
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          scc.push(w);
        } while (w !== v);
        if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(scc.sort());
      }
    };
    for (const v of graph.keys()) if (!index.has(v)) visit(v);
    expect(circles).toEqual([]);
  });
});

describe('file size', () => {
  // The guide's rule: files stay under 1,000 lines, split along their seams. Generated files
  // (protobuf descriptors, transcribed tables) are exempt; everything written by hand is not.
  const ROOTS = ['src', 'tests', 'e2e', 'scripts', 'bench', 'fuzz', 'tools', 'oracle'];
  const HAND_WRITTEN = /\.(tsx?|mjs|cjs|js|css|go)$/;
  const GENERATED = /(^|[\\/])(generated|node_modules)[\\/]|\.gen\.|\.d\.ts$/;

  function walk(dir: string): string[] {
    const out: string[] = [];
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        if (!GENERATED.test(`${p}/`)) out.push(...walk(p));
      } else if (HAND_WRITTEN.test(name) && !GENERATED.test(p)) out.push(p);
    }
    return out;
  }

  it('no hand-written file is over 1,000 lines', () => {
    const all = ROOTS.flatMap((r) => walk(r));
    expect(all.length).toBeGreaterThan(500);
    const long = all
      .map((f) => ({ f, lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((x) => x.lines > 1000)
      .map((x) => `${x.f}: ${x.lines} lines`);
    expect(long).toEqual([]);
  });
});
