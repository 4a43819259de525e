// A whole-cluster dump (50,000 services, 60 MB: Deployments, Services, VirtualServices and
// DestinationRules, as bench/generateMesh.ts writes them) dropped on the app: a progress bar
// shows how far reading and analysis are, the page answers clicks meanwhile, and the Problems
// list then holds the findings. How fast the page answers is measured by `npm run bench`
// (bench/tabScale.ts), not here. A second drop is stopped with Cancel and leaves nothing behind.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { generateMesh } from '../bench/generateMesh.ts';
import { analysisReady } from './ready.ts';
import { dropFileFromDisk } from './dropFile.ts';
import { newWorkspace } from './newWorkspace.ts';

const SERVICES = 50_000;

/** The dump, written once per machine (generating it takes a few seconds). */
function dumpFile(): string {
  const dir = join(tmpdir(), 'mesh-workbench-e2e');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `cluster-${SERVICES}.yaml`);
  if (!existsSync(path)) writeFileSync(path, generateMesh(SERVICES).text);
  return path;
}

test.describe('a whole-cluster dump', () => {
  test.setTimeout(600_000);

  test('dropped on the app shows progress, answers clicks, then lists its problems', async ({ page }) => {
    const file = dumpFile();
    await page.goto('./');
    await analysisReady(page);
    await newWorkspace(page, 'Cluster dump');
    await dropFileFromDisk(page, file);

    const progress = page.getByTestId('load-progress');
    await expect(progress).toBeVisible();
    await expect(progress).toContainText(`cluster-${SERVICES}.yaml`);
    await expect(progress).toContainText('57.3 MB');
    // The analysis says where it is: the worker reads the documents, then runs the analyzers.
    await expect(page.getByTestId('load-progress-text')).toHaveText(/Running analyzers: \d+ of \d+/, { timeout: 300_000 });
    const bar = page.getByTestId('load-progress-bar');
    const during = Number(await bar.getAttribute('aria-valuenow'));
    expect(during).toBeGreaterThan(0);
    expect(during).toBeLessThan(100);

    // The page answers while the worker analyzes: the level toggles of the Problems panel work.
    const errors = page.getByTestId('filter-error');
    await errors.click();
    await expect(errors).toHaveAttribute('aria-pressed', 'false');
    await errors.click();
    await expect(errors).toHaveAttribute('aria-pressed', 'true');

    await expect(progress).toBeHidden({ timeout: 300_000 });
    // One VirtualService in a hundred routes its v2 subset to a host no Service has (svc-canary):
    // istioctl reports each twice as IST0101, the host (DestinationHostAnalyzer) and the
    // host+subset (DestinationRuleAnalyzer). 50,000 services plant 500 of them.
    await page.getByTestId('filter-code').selectOption('IST0101');
    await page.getByTestId('filter-text').fill('canary');
    await expect(page.getByTestId('problems-table')).toHaveAttribute('aria-rowcount', String(SERVICES / 100 + SERVICES / 100 + 1));
    await expect(page.getByTestId('problem-row').first()).toContainText('Referenced host');
    // The editor holds the dump in large-file mode and opens at a row's line.
    await page.getByTestId('problem-row').first().click();
    await expect(page.getByTestId('large-file-note')).toContainText('Large file (57.3 MB)');
    await expect(page.getByTestId('cursor-position')).toHaveText(/^Ln \d+/);
  });

  test('a drop stopped with Cancel leaves the workspace as it was', async ({ page }) => {
    const file = dumpFile();
    await page.goto('./');
    await analysisReady(page);
    const before = await page.getByTestId('file-item').count();
    await dropFileFromDisk(page, file);
    await expect(page.getByTestId('load-progress')).toBeVisible();
    await expect(page.getByTestId('load-progress-text')).toHaveText(/Reading documents|Building the mesh model|Running analyzers/, { timeout: 300_000 });
    await page.getByTestId('load-cancel').click();
    await expect(page.getByTestId('load-progress')).toBeHidden();
    await expect(page.getByTestId('notice').filter({ hasText: `Stopped loading cluster-${SERVICES}.yaml` })).toBeVisible();
    await expect(page.getByTestId('file-item')).toHaveCount(before);
    // The analysis starts again on what is left and finishes.
    await expect(page.getByTestId('last-analysis')).toBeVisible({ timeout: 120_000 });
    await expect(page.getByTestId('status-running')).toHaveCount(0, { timeout: 120_000 });
  });
});
