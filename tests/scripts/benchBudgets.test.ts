import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  BLOCK_END,
  BLOCK_FILES,
  BLOCK_START,
  BUDGET_TARGETS,
  budgetsBlock,
  replaceBudgetsBlock,
  rewriteBudgetsBlocks,
  type Budget,
} from '../../bench/budgets.ts';

const ctx = { date: '2026-12-06', node: 'v20.0.0', load: [0.2, 0.3] as [number, number], command: 'npm run bench -- --budgets --write-readme' };

describe('the performance block of the README and docs/performance.md', () => {
  it('holds the targets issue #32 set', () => {
    expect(BUDGET_TARGETS.firstDiagnostics.target).toBe(800);
    expect(BUDGET_TARGETS.firstJs.target).toBe(300);
    expect(BUDGET_TARGETS.typingTask.target).toBe(50);
    expect(BUDGET_TARGETS.landingTask.target).toBe(100);
    expect(BUDGET_TARGETS.cliDeployments.target).toBe(2.5);
    expect(BUDGET_TARGETS.cliPods.target).toBe(2);
  });

  it('shows a value over its target as failed, at or under it as passed', () => {
    const over: Budget = { ...BUDGET_TARGETS.firstJs, value: 300.4, detail: '' };
    const at: Budget = { ...BUDGET_TARGETS.cliPods, value: 2, detail: '' };
    const block = budgetsBlock([over, at], ctx);
    expect(block).toContain('| 300.4 KiB | ≤ 300.0 KiB | **fail** |');
    expect(block).toContain('| 2.00× | ≤ 2.00× | pass |');
    expect(block).toContain('npm run bench -- --budgets --write-readme');
    expect(block).toContain('load average 0.2');
  });

  it('replaces only what lies between the markers', () => {
    const readme = `# Title\n\nbefore\n${BLOCK_START}\nold\n${BLOCK_END}\nafter\n`;
    const next = replaceBudgetsBlock(readme, `${BLOCK_START}\nnew\n${BLOCK_END}`);
    expect(next).toBe(`# Title\n\nbefore\n${BLOCK_START}\nnew\n${BLOCK_END}\nafter\n`);
  });

  it('refuses a README without the markers rather than appending somewhere', () => {
    expect(() => replaceBudgetsBlock('# no block\n', 'x')).toThrow(/no performance block/);
  });

  it('names the file that lacks the markers', () => {
    expect(() => replaceBudgetsBlock('# no block\n', 'x', 'docs/performance.md')).toThrow(/^docs\/performance\.md has no performance block/);
  });

  it('the README and docs/performance.md have the block, and the same one', () => {
    expect(BLOCK_FILES).toEqual(['README.md', 'docs/performance.md']);
    const blocks = BLOCK_FILES.map((file) => {
      const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
      const start = text.indexOf(BLOCK_START);
      const end = text.indexOf(BLOCK_END);
      expect(start, file).toBeGreaterThan(0);
      expect(end, file).toBeGreaterThan(start);
      return text.slice(start, end + BLOCK_END.length);
    });
    expect(blocks[1]).toBe(blocks[0]);
  });

  it('--write-readme rewrites the block in every file, or in none when one lacks the markers', () => {
    const block = `${BLOCK_START}\nnew\n${BLOCK_END}`;
    const files: Record<string, string> = {
      'README.md': `a\n${BLOCK_START}\nold\n${BLOCK_END}\n`,
      'docs/performance.md': `b\n${BLOCK_START}\nold\n${BLOCK_END}\nc\n`,
    };
    const written: string[] = [];
    const io = { read: (f: string) => files[f]!, write: (f: string, t: string) => void (written.push(f), (files[f] = t)) };
    expect(rewriteBudgetsBlocks(block, io)).toEqual(['README.md', 'docs/performance.md']);
    expect(files['README.md']).toBe(`a\n${block}\n`);
    expect(files['docs/performance.md']).toBe(`b\n${block}\nc\n`);

    files['docs/performance.md'] = 'no markers\n';
    written.length = 0;
    expect(() => rewriteBudgetsBlocks(`${BLOCK_START}\nnewer\n${BLOCK_END}`, io)).toThrow(/^docs\/performance\.md has no performance block/);
    expect(written).toEqual([]);
    expect(files['README.md']).toBe(`a\n${block}\n`);
  });
});
