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
  const lineNo = await page.evaluate(
    () => (window.__meshWorkbench?.editor?.value('pods.yaml') ?? '').split('\n').findIndex((l) => l.includes('name: reviews-v2-')) + 1,
  );
  expect(lineNo).toBeGreaterThan(0);
  await page.keyboard.press('Control+g');
  await page.keyboard.type(String(lineNo));
  await page.keyboard.press('Enter');
  const line = page.locator('.monaco-editor .view-line').filter({ hasText: 'name: reviews-v2-' });
  await expect(line).toBeVisible();
  await line.click();
  await line.click({ button: 'right' });
  // Point at the item first, as a person does: Monaco's menu takes a click once the item it
  // is on has the focus (a click right after the menu opens can be taken for the right-click's release).
  const item = page.locator('.monaco-menu .action-item').filter({ has: page.locator('.action-label', { hasText: 'Show the Envoy config of this workload' }) });
  await item.hover();
  await expect(item).toHaveClass(/\bfocused\b/);
  await item.click();
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
  await page.locator('[data-testid="file-item"][data-path="networking.yaml"]').click();
  // The top of the file is on screen; the fix adds a host to a Gateway further down.
  await page.locator('.monaco-editor .view-line').first().click();
  await page.keyboard.press('Control+Home');
  await expect(page.getByTestId('cursor-position')).toContainText('Ln 1,');
  const row = page.getByTestId('problem-row').filter({ hasText: 'IST0132' }).filter({ hasText: 'reviews-admin' });
  await row.getByTestId('fix-button').click();
  await page
    .getByTestId('fix-menu')
    .getByTestId('fix-item')
    .filter({ hasText: 'Add "reviews.bookinfo.example.com" to the hosts of Gateway bookinfo/admin-gateway' })
    .click();
  await expect(row).toHaveCount(0);
  const text = await page.evaluate(() => window.__meshWorkbench?.editor?.value('networking.yaml') ?? '');
  const changed = text.split('\n').findIndex((l) => l.trim() === '- reviews.bookinfo.example.com') + 1;
  expect(changed).toBeGreaterThan(40);
  // The cursor is at the changed line, on screen (Monaco draws the current line's highlight only there).
  await expect(page.getByTestId('cursor-position')).toContainText(new RegExp(`^Ln (${changed - 1}|${changed}),`));
  await expect(page.locator('.monaco-editor .current-line').first()).toBeInViewport();
  await expect(page.getByTestId('tab').filter({ hasText: 'networking.yaml' })).toHaveAttribute('aria-selected', 'true');
});
