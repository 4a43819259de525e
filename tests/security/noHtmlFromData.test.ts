// No HTML built from data: React text and Monaco only. Any of these in src/ would be a way
// for a shared link's content to become markup or script.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(tsx?|mts|js)$/.test(name)) out.push(p);
  }
  return out;
}

const FORBIDDEN: Array<[RegExp, string]> = [
  [/dangerouslySetInnerHTML/, 'dangerouslySetInnerHTML'],
  [/\.innerHTML\s*[+]?=/, 'assignment to innerHTML'],
  [/\.outerHTML\s*[+]?=/, 'assignment to outerHTML'],
  [/insertAdjacentHTML\s*\(/, 'insertAdjacentHTML'],
  [/document\.write(ln)?\s*\(/, 'document.write'],
  [/createContextualFragment\s*\(/, 'createContextualFragment'],
  [/\bnew Function\s*\(|[^.\w]eval\s*\(/, 'eval / new Function'],
  [/srcdoc/, 'iframe srcdoc'],
];

describe('no HTML from data', () => {
  const files = sources('src');
  it('scans the app sources', () => {
    expect(files.length).toBeGreaterThan(100);
  });
  it('uses none of the APIs that turn strings into markup or code', () => {
    const hits: string[] = [];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const [re, what] of FORBIDDEN) if (re.test(text)) hits.push(`${f}: ${what}`);
    }
    expect(hits).toEqual([]);
  });
  it('the built page forbids inline scripts, foreign requests, plugins and <base>', async () => {
    const { CONTENT_SECURITY_POLICY } = await import('../../vite.config.ts');
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split(';').map((d: string) => {
        const [k, ...v] = d.trim().split(/\s+/);
        return [k!, v.join(' ')] as const;
      }),
    );
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('connect-src')).toBe("'self'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('default-src')).toBe("'none'");
  });
});
