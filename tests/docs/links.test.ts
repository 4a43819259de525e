// The README and docs/: every relative link and #anchor resolves to a file of the repository
// and a heading of it (GitHub's anchors, as dist/readme.html makes them), the README stays a
// short user guide (under 300 lines, the two commands first) and lists every file of docs/.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { slug } from '../../scripts/readmePage.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The text outside fenced code blocks and code spans, line by line (line numbers kept). */
function proseLines(md: string): string[] {
  let fence: string | undefined;
  return md.split(/\r?\n/).map((line) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f) {
      const mark = f[1]![0]!;
      if (fence === undefined) fence = mark;
      else if (fence === mark) fence = undefined;
      return '';
    }
    if (fence !== undefined) return '';
    return line.replace(/`+[^`]*`+/g, (m) => ' '.repeat(m.length));
  });
}

/** GitHub's anchors of a Markdown file's headings (duplicates get -1, -2 …), and explicit `<a id>`s. */
function anchorsOf(md: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of md.split(/\r?\n/)) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f) {
      const mark = f[1]![0]!;
      if (fence === undefined) fence = mark;
      else if (fence === mark) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    // A heading's text as GitHub renders it: link targets and emphasis marks dropped.
    const text = h[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = slug(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

interface LinkProblem {
  file: string;
  line: number;
  target: string;
  problem: string;
}

/** Every relative link (inline, image or reference-style) of `file` that does not resolve. */
function brokenLinks(
  file: string,
  read: (abs: string) => string = (p) => readFileSync(p, 'utf8'),
  exists: (abs: string) => boolean = existsSync,
): LinkProblem[] {
  const problems: LinkProblem[] = [];
  const lines = proseLines(read(file));
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (abs: string) => {
    let a = anchorCache.get(abs);
    if (!a) anchorCache.set(abs, (a = anchorsOf(read(abs))));
    return a;
  };
  lines.forEach((line, i) => {
    const targets = [...line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
    const ref = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (ref) targets.push(ref[1]!);
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const hash = target.indexOf('#');
      const path = decodeURI(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? '' : decodeURIComponent(target.slice(hash + 1));
      const where = { file: relative(ROOT, file), line: i + 1, target };
      if (target === '') {
        problems.push({ ...where, problem: 'empty link' });
        continue;
      }
      const abs = path === '' ? file : resolve(dirname(file), path);
      if (!exists(abs)) {
        problems.push({ ...where, problem: `no such file: ${relative(ROOT, abs)}` });
        continue;
      }
      if (anchor !== '' && abs.endsWith('.md') && !anchors(abs).has(anchor)) {
        problems.push({ ...where, problem: `no heading #${anchor} in ${relative(ROOT, abs)}` });
      }
    }
  });
  return problems;
}

const README = join(ROOT, 'README.md');
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => join(ROOT, 'docs', f));

describe('README and docs links', () => {
  it('finds the README and the docs', () => {
    expect(existsSync(README)).toBe(true);
    expect(DOCS.map((f) => relative(ROOT, f))).toEqual(
      expect.arrayContaining(['docs/architecture.md', 'docs/cli.md', 'docs/contributing.md', 'docs/fidelity.md', 'docs/performance.md']),
    );
  });

  it('every relative link and #anchor of the README resolves', () => {
    expect(brokenLinks(README)).toEqual([]);
  });

  it.each(DOCS.map((f) => [relative(ROOT, f), f]))('every relative link and #anchor of %s resolves', (_name, file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it('the README links every file of docs/', () => {
    const linked = new Set([...readFileSync(README, 'utf8').matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1]));
    expect(DOCS.map((f) => relative(ROOT, f)).filter((f) => !linked.has(f))).toEqual([]);
  });

  it('the README is a short guide that starts with the two commands', () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme.split('\n').length).toBeLessThan(300);
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(firstBlock).toContain('npm install && npm start');
    expect(firstBlock).toContain('npm install && npm test');
  });
});

describe('the link checker', () => {
  const files: Record<string, string> = {
    [join(ROOT, 'x/a.md')]: [
      '# Title',
      '## Known differences from Istio',
      '## Known differences from Istio',
      '### `proxy-config` diff',
      '<a id="explicit"></a>',
      'Good: [b](b.md), [b#sec](b.md#a-section), [self](#title), [dup](#known-differences-from-istio-1),',
      '[code](#proxy-config-diff), [explicit](#explicit), ![img](pic.png), [web](https://example.com/x#y).',
      '`[not a link](missing.md)` and a fence:',
      '```',
      '[also not](missing.md)',
      '```',
      'Bad: [gone](gone.md), [anchor](b.md#nope), [self](#nope), [empty]().',
      '[ref]: ../x/gone2.md',
    ].join('\n'),
    [join(ROOT, 'x/b.md')]: '# B\n\n## A section\n',
    [join(ROOT, 'x/pic.png')]: '',
  };
  const read = (p: string) => {
    const t = files[p];
    if (t === undefined) throw new Error(`read ${p}`);
    return t;
  };

  it('fails on a missing file, a missing heading, an empty link, and nothing else', () => {
    const found = brokenLinks(join(ROOT, 'x/a.md'), read, (p) => p in files).map((p) => `${p.line} ${p.target}: ${p.problem}`);
    expect(found).toEqual([
      '12 gone.md: no such file: x/gone.md',
      '12 b.md#nope: no heading #nope in x/b.md',
      '12 #nope: no heading #nope in x/a.md',
      '12 : empty link',
      '13 ../x/gone2.md: no such file: x/gone2.md',
    ]);
  });

  it("makes GitHub's anchors", () => {
    expect([...anchorsOf(files[join(ROOT, 'x/a.md')]!)]).toEqual([
      'title',
      'known-differences-from-istio',
      'known-differences-from-istio-1',
      'proxy-config-diff',
      'explicit',
    ]);
    expect(anchorsOf("## Oracle (istioctl and istiod)\n## The layers of src/core\n## Line numbers of istioctl's file reader\n")).toEqual(
      new Set(['oracle-istioctl-and-istiod', 'the-layers-of-srccore', 'line-numbers-of-istioctls-file-reader']),
    );
  });
});
