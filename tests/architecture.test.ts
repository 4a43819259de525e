// Structural rules of the code base: src/core is pure (no imports from the app layers or
// from Node), and no module imports itself through a circle of imports.
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
