// Window sizes: at 800×900 the side panes fold to icon rails (their panels open as drawers),
// the editor keeps at least half the width, the Problems filters stay on one row and at least
// three problems are in view; at 1280×720 the full layout fits the same way.
import { test, expect, type Page } from '@playwright/test';
import { editorReady } from './ready.ts';

async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await editorReady(page);
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  await expect(page.getByTestId('problem-row').first()).toBeVisible();
}

/** Problem rows whose whole box is inside the Problems list's visible area. */
async function visibleProblemRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const body = document.querySelector('.problems-body')!.getBoundingClientRect();
    const head = document.querySelector('.problems-table thead')?.getBoundingClientRect();
    const top = Math.max(body.top, head?.bottom ?? body.top);
    return [...document.querySelectorAll('[data-testid="problem-row"]')].filter((r) => {
      const b = r.getBoundingClientRect();
      return b.top >= top - 1 && b.bottom <= body.bottom + 1;
    }).length;
  });
}

async function checkLayout(page: Page, width: number): Promise<void> {
  const editor = await page.getByTestId('editor').boundingBox();
  expect(editor).not.toBeNull();
  expect(editor!.width).toBeGreaterThanOrEqual(width / 2);
  expect(await visibleProblemRows(page)).toBeGreaterThanOrEqual(3);
  // The filters fold into one row: every control sits on the header's single line.
  const tops = await page.locator('.problems-header .filters > *').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(4);
  const header = await page.locator('.problems-header').boundingBox();
  expect(header!.height).toBeLessThanOrEqual(40);
  // Nothing spills out of the window sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test.describe('layout at 800×900', () => {
  test.use({ viewport: { width: 800, height: 900 } });

  test('side panes fold to rails; the editor keeps half the width; Problems shows three rows', async ({ page }) => {
    await openApp(page);
    await checkLayout(page, 800);
    await expect(page.getByTestId('rail-workspace')).toBeVisible();
    await expect(page.getByTestId('file-list')).toBeHidden();
    // The privacy line is still there (as a link with its lock).
    await expect(page.getByTestId('privacy-note').getByRole('link')).toBeVisible();
    // The Workspace rail opens its drawer; choosing a file closes it and shows the file.
    await page.getByTestId('rail-workspace').click();
    await expect(page.getByTestId('file-list')).toBeVisible();
    await page.locator('[data-testid="file-item"][data-path="bookinfo.yaml"]').click();
    await expect(page.getByTestId('file-list')).toBeHidden();
    await expect(page.getByTestId('tab').filter({ hasText: 'bookinfo.yaml' })).toHaveAttribute('aria-selected', 'true');
    // The Inspector drawer closes with Escape and gives focus back to its rail button.
    await page.getByTestId('rail-inspector').click();
    await expect(page.getByTestId('inspector')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('inspector')).toBeHidden();
    await expect(page.getByTestId('rail-inspector')).toBeFocused();
  });
});

test.describe('layout at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('all panes open; the editor keeps half the width; Problems shows three rows', async ({ page }) => {
    await openApp(page);
    await checkLayout(page, 1280);
    await expect(page.getByTestId('file-list')).toBeVisible();
    await expect(page.getByTestId('inspector')).toBeVisible();
    await expect(page.getByTestId('rail-workspace')).toHaveCount(0);
    // The title bar names the loaded sample, and says nothing leaves the browser.
    await expect(page.getByTestId('workspace-title')).toHaveText('Bookinfo with mistakes');
    await expect(page.getByTestId('privacy-note')).toContainText('Nothing leaves your browser');
    await expect(page.getByTestId('privacy-note').getByRole('link')).toHaveAttribute('href', /readme\.html#sharing-and-privacy$/);
    // The first error is in view in the editor.
    await expect(page.locator('.monaco-editor .squiggly-error').first()).toBeVisible();
    // The Suppress button does not cover the file:line column.
    const row = page.getByTestId('problem-row').first();
    await row.hover();
    const suppress = await row.getByTestId('suppress-button').boundingBox();
    const loc = await row.getByTestId('problem-location').boundingBox();
    expect(suppress!.x).toBeGreaterThanOrEqual(loc!.x + loc!.width - 1);
  });
});
