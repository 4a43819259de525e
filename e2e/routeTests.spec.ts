// Route tests in the Proxy config tab: the Bookinfo sample's route-test file runs and passes;
// after the reviews weights are edited, the split test fails with the reason, and its name
// leads to the test's line in the file.
import { test, expect, type Page } from '@playwright/test';

async function loadBookinfo(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('samples-button').click();
  await page.getByTestId('sample-item').filter({ hasText: /^Bookinfo(?! with)/ }).click();
  await expect(page.locator('[data-testid="file-item"][data-path="route-tests.yaml"]')).toBeVisible();
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
}

async function cursorLine(page: Page): Promise<number> {
  const cursor = await page.getByTestId('cursor-position').textContent();
  return Number(/^Ln (\d+)/.exec(cursor ?? '')?.[1]);
}

test('run the Bookinfo route tests, see them pass, break the reviews split and see which test fails and why', async ({ page }) => {
  await loadBookinfo(page);
  await page.getByTestId('inspector-tab-proxy').click();
  const panel = page.getByTestId('proxy-config');
  await panel.getByTestId('proxy-tab-routeTests').click();
  const view = panel.getByTestId('route-tests');
  await expect(view.getByTestId('route-tests-file')).toHaveValue('route-tests.yaml');
  await view.getByTestId('route-tests-run').click();

  const summary = view.getByTestId('route-tests-summary');
  await expect(summary).toHaveText('5 passed, 5 total');
  const rows = view.getByTestId('route-test');
  await expect(rows).toHaveCount(5);
  await expect(rows.filter({ has: page.locator('[data-passed="false"]') })).toHaveCount(0);
  await expect(view.locator('[data-testid="route-test"][data-passed="true"]')).toHaveCount(5);
  await expect(rows.first()).toContainText('reviews is split 75/25 between v1 and v2');

  // Edit the reviews VirtualService: 75/25 becomes 50/50.
  await page.locator('[data-testid="file-item"][data-path="networking.yaml"]').click();
  await expect(page.getByTestId('tab').filter({ hasText: 'networking.yaml' })).toHaveAttribute('aria-selected', 'true');
  const text = await page.evaluate(() => window.__meshWorkbench?.editor?.value('networking.yaml') ?? '');
  const lines = text.split('\n');
  const weightLine = lines.findIndex((l) => l.trim() === 'weight: 75') + 1;
  expect(weightLine).toBeGreaterThan(0);
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 1; i < weightLine; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('50');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('50');
  await expect.poll(() => page.evaluate(() => (window.__meshWorkbench?.editor?.value('networking.yaml') ?? '').match(/weight: 50\n/g)?.length ?? 0)).toBe(2);

  // The results follow the edit: the split test fails, with the weights it got.
  await expect(summary).toHaveText('1 failed, 4 passed, 5 total');
  const failed = view.locator('[data-testid="route-test"][data-passed="false"]');
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText('reviews is split 75/25 between v1 and v2');
  await expect(failed.getByTestId('route-test-reason').first()).toContainText('outbound|9080|v1|reviews.bookinfo.svc.cluster.local 50%');
  await expect(failed.getByTestId('route-test-reason').first()).toContainText('from productpage-v1');

  // Its name opens the test file at the test.
  await failed.getByRole('button', { name: 'reviews is split 75/25 between v1 and v2' }).click();
  await expect(page.getByTestId('tab').filter({ hasText: 'route-tests.yaml' })).toHaveAttribute('aria-selected', 'true');
  const tests = await page.evaluate(() => window.__meshWorkbench?.editor?.value('route-tests.yaml') ?? '');
  const testLine = tests.split('\n').findIndex((l) => l.includes('description: reviews is split')) + 1;
  await expect.poll(() => cursorLine(page)).toBe(testLine);
});
