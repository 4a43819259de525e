import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { BLOCK_END, BLOCK_START, BUDGET_TARGETS, budgetsBlock, replaceBudgetsBlock, type Budget } from '../../bench/budgets.ts';

const ctx = { date: '2026-12-06', node: 'v20.0.0', load: [0.2, 0.3] as [number, number], command: 'npm run bench -- --budgets --write-readme' };

describe("the README's performance block", () => {
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

  it('the README has the block', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme.indexOf(BLOCK_START)).toBeGreaterThan(0);
    expect(readme.indexOf(BLOCK_END)).toBeGreaterThan(readme.indexOf(BLOCK_START));
  });
});
