// Capability views in the main area: a view opens as a tab beside the YAML files, can sit
// beside a file, and is back after a reload; the editor's context menu opens a workload's
// Envoy config; Ctrl+G goes to a line; a quick fix shows the line it changed.
import { test, expect, type Page } from '@playwright/test';

async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.getByTestId('file-item')).toHaveCount(5);
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
  await expect(page.getByTestId('last-analysis')).toBeVisible();
}

async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.keyboard.type(title);
  await page.getByTestId('palette-item').filter({ hasText: title }).first().click();
}

test('a view opens as a tab beside the files, splits beside a file, and is back after a reload', async ({ page }) => {
  await openApp(page);
  await runCommand(page, 'Open Proxy config');
  const tabs = page.getByTestId('editor-tabs');
  const viewTab = tabs.locator('[data-testid="view-tab"][data-view="proxy"]');
  await expect(viewTab).toHaveText('Proxy config');
  await expect(viewTab).toHaveAttribute('aria-selected', 'true');
  const view = page.getByTestId('view-proxy');
  await expect(view).toBeVisible();
  // Full size: the view covers the editor.
  await expect(page.locator('.monaco-editor')).toBeHidden();

  await view.getByTestId('view-split').click();
  await expect(page.locator('.monaco-editor')).toBeVisible();
  const editorBox = (await page.locator('.monaco-editor').boundingBox())!;
  const viewBox = (await view.boundingBox())!;
  expect(viewBox.x).toBeGreaterThanOrEqual(editorBox.x + editorBox.width - 2);

  // A file tab chosen keeps the split view beside it.
  await tabs.getByTestId('tab').first().click();
  await expect(view).toBeVisible();

  await page.reload();
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  await expect(page.getByTestId('view-proxy')).toBeVisible();
  await expect(page.locator('.monaco-editor')).toBeVisible();

  // Full width again, then closed: the editor has the room back.
  await page.getByTestId('view-split').click();
  await expect(page.locator('.monaco-editor')).toBeHidden();
  await page.getByTestId('view-close').click();
  await expect(page.getByTestId('view-proxy')).toHaveCount(0);
  await expect(page.locator('.monaco-editor')).toBeVisible();
  await expect(viewTab).toHaveCount(0);
});

test("the editor's context menu shows the Envoy config of the workload at the cursor", async ({ page }) => {
  await openApp(page);
  await page.locator('[data-testid="file-item"][data-path="pods.yaml"]').click();
  // The reviews-v2 pod is an item of a List, further down: go to its line.
  await page.locator('.monaco-editor .view-line').first().click();
  const lineNo = await page.evaluate(() => (window.__meshWorkbench?.editor?.value('pods.yaml') ?? '').split('\n').findIndex((l) => l.includes('name: reviews-v2-')) + 1);
  expect(lineNo).toBeGreaterThan(0);
  await page.keyboard.press('Control+g');
  await page.keyboard.type(String(lineNo));
  await page.keyboard.press('Enter');
  const line = page.locator('.monaco-editor .view-line').filter({ hasText: 'name: reviews-v2-' });
  await expect(line).toBeVisible();
  await line.click();
  await line.click({ button: 'right' });
  await page.locator('.monaco-menu .action-label', { hasText: 'Show the Envoy config of this workload' }).click();
  const view = page.getByTestId('view-proxy');
  await expect(view).toBeVisible();
  await expect(view.getByTestId('proxy-picker')).toHaveValue(/^reviews-v2-.*\.bookinfo$/);
});

test('Ctrl+G goes to a line', async ({ page }) => {
  await openApp(page);
  await page.locator('.monaco-editor .view-line').first().click();
  await page.keyboard.press('Control+g');
  await page.keyboard.type('12');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cursor-position')).toContainText('Ln 12,');
});

test('a quick fix from the Problems list shows the line it changed', async ({ page }) => {
  await openApp(page);
  // Another file is on screen when the fix is applied.
  await page.locator('[data-testid="file-item"][data-path="bookinfo.yaml"]').click();
  await expect(page.getByTestId('tab').filter({ hasText: 'bookinfo.yaml' })).toHaveAttribute('aria-selected', 'true');
  const before = await page.evaluate(() => window.__meshWorkbench?.editor?.value('networking.yaml') ?? '');
  const changed = before.split('\n').findIndex((l) => l.trimEnd() === '            host: reviews2') + 1;
  expect(changed).toBeGreaterThan(30);
  const row = page.getByTestId('problem-row').filter({ hasText: 'IST0101' }).filter({ hasText: 'reviews2' });
  await row.getByTestId('fix-button').click();
  await page.getByRole('menuitem').filter({ hasText: 'Change host to "reviews"' }).click();
  await expect(row).toHaveCount(0);
  // The fixed file is shown, at the changed line.
  await expect(page.getByTestId('tab').filter({ hasText: 'networking.yaml' })).toHaveAttribute('aria-selected', 'true');
  const text = await page.evaluate(() => window.__meshWorkbench?.editor?.value('networking.yaml') ?? '');
  expect(text.split('\n')[changed - 1]).toBe('            host: reviews');
  await expect(page.getByTestId('cursor-position')).toContainText(`Ln ${changed},`);
  // The cursor's line is on screen (Monaco draws the current line's highlight only there).
  await expect(page.locator('.monaco-editor .current-line').first()).toBeInViewport();
});
