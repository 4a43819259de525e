// The workbench by keyboard alone: Tab focus mode (Ctrl+M), F6 between panes, the Problems
// list and its Fix menu, focus back in the editor after a fix (Ctrl+Z works at once), the
// command palette and quick open, Ctrl+S.
import { test, expect, type Page, type Locator } from '@playwright/test';

async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.getByTestId('file-item')).toHaveCount(5);
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
  await expect(page.getByTestId('last-analysis')).toBeVisible();
}

function editorText(page: Page, path = 'networking.yaml'): Promise<string | null> {
  return page.evaluate((p) => window.__meshWorkbench?.editor?.value(p) ?? null, path);
}

/** The pane (data-pane) that holds the focused element. */
function focusedPane(page: Page): Promise<string | null> {
  return page.evaluate(() => (document.activeElement?.closest('[data-pane]') as HTMLElement | null)?.dataset.pane ?? null);
}

function editorFocused(page: Page): Promise<boolean> {
  return page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'));
}

function reviewsRow(page: Page): Locator {
  return page.getByTestId('problem-row').filter({ hasText: 'IST0101' }).filter({ hasText: 'reviews2' });
}

test.describe('Keyboard', () => {
  test('Ctrl+M: Tab leaves the editor instead of indenting, with a status bar indicator', async ({ page }) => {
    await openApp(page);
    await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
    await expect.poll(() => editorFocused(page)).toBe(true);
    const before = await editorText(page);
    await expect(page.getByTestId('tab-focus-mode')).toHaveCount(0);
    await page.keyboard.press('ControlOrMeta+M');
    await expect(page.getByTestId('tab-focus-mode')).toBeVisible();
    await page.keyboard.press('Tab');
    await expect.poll(() => editorFocused(page)).toBe(false);
    expect(await editorText(page)).toBe(before);
    // Back into the editor and off again: Tab indents once more.
    await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
    await page.keyboard.press('ControlOrMeta+M');
    await expect(page.getByTestId('tab-focus-mode')).toHaveCount(0);
    await page.keyboard.press('Home');
    await page.keyboard.press('Tab');
    expect(await editorText(page)).not.toBe(before);
  });

  test('F6 and Shift+F6 cycle through the panes', async ({ page }) => {
    await openApp(page);
    await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
    await expect.poll(() => focusedPane(page)).toBe('editor');
    await page.keyboard.press('F6');
    await expect.poll(() => focusedPane(page)).toBe('problems');
    await page.keyboard.press('F6');
    await expect.poll(() => focusedPane(page)).toBe('inspector');
    await page.keyboard.press('F6');
    await expect.poll(() => focusedPane(page)).toBe('workspace');
    await page.keyboard.press('F6');
    await expect.poll(() => focusedPane(page)).toBe('editor');
    await expect.poll(() => editorFocused(page)).toBe(true);
    await page.keyboard.press('Shift+F6');
    await expect.poll(() => focusedPane(page)).toBe('workspace');
    // The file list is one Tab stop; arrows move, Enter opens.
    await expect(page.locator(':focus')).toHaveAttribute('data-testid', 'file-item');
    await page.keyboard.press('Home');
    const first = await page.locator(':focus').getAttribute('data-path');
    await page.keyboard.press('ArrowDown');
    const second = await page.locator(':focus').getAttribute('data-path');
    expect(second).not.toBe(first);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('tab').filter({ hasText: second! })).toHaveAttribute('aria-selected', 'true');
  });

  test('the Fix menu by keyboard, then focus is back in the editor and Ctrl+Z undoes the fix', async ({ page }) => {
    await openApp(page);
    // Into Problems with F6, then down the list with the arrow keys to the reviews2 row.
    await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
    await page.keyboard.press('F6');
    await expect.poll(() => focusedPane(page)).toBe('problems');
    await page.keyboard.press('Home');
    const target = reviewsRow(page);
    for (let i = 0; i < 40; i++) {
      if (await target.evaluate((el) => el === document.activeElement)) break;
      await page.keyboard.press('ArrowDown');
    }
    await expect(target).toBeFocused();
    // Tab goes through the row's controls (the IST0101 doc link, then Fix); Enter opens the
    // menu with focus on its first item.
    await page.keyboard.press('Tab');
    await expect(target.getByRole('link', { name: 'IST0101' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(target.getByTestId('fix-button')).toBeFocused();
    await page.keyboard.press('Enter');
    const menu = page.getByTestId('fix-menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByTestId('fix-item').first()).toBeFocused();
    // Escape closes it and gives focus back to the button.
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(target.getByTestId('fix-button')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu.getByTestId('fix-item').first()).toBeFocused();
    await page.keyboard.press('End');
    await page.keyboard.press('Home');
    await expect(menu.getByTestId('fix-item').first()).toHaveText('Change host to "reviews"');
    await page.keyboard.press('Enter');
    await expect(reviewsRow(page)).toHaveCount(0);
    expect(await editorText(page)).toContain('            host: reviews\n          weight: 25');
    await expect.poll(() => editorFocused(page)).toBe(true);
    await page.keyboard.press('ControlOrMeta+Z');
    await expect(reviewsRow(page)).toHaveCount(1);
    expect(await editorText(page)).toContain('host: reviews2');
  });

  test('the command palette runs a quick fix for the problem at the cursor', async ({ page }) => {
    await openApp(page);
    await reviewsRow(page).click();
    await expect.poll(() => editorFocused(page)).toBe(true);
    await page.keyboard.press('F1');
    const palette = page.getByTestId('command-palette');
    await expect(palette).toBeVisible();
    await expect(page.getByTestId('palette-input')).toBeFocused();
    await page.keyboard.type('change host reviews2');
    await expect(palette.getByTestId('palette-item').first()).toContainText('Quick fix: Change host to "reviews"');
    await page.keyboard.press('Enter');
    await expect(palette).toHaveCount(0);
    await expect(reviewsRow(page)).toHaveCount(0);
    await expect.poll(() => editorFocused(page)).toBe(true);
    // Escape from the palette puts focus back where it was.
    await page.keyboard.press('ControlOrMeta+Shift+P');
    await expect(palette).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(palette).toHaveCount(0);
    await expect.poll(() => editorFocused(page)).toBe(true);
  });

  test('quick open (Ctrl+P) opens a file by name', async ({ page }) => {
    await openApp(page);
    await page.getByTestId('file-item').first().click();
    await page.keyboard.press('ControlOrMeta+P');
    await expect(page.getByTestId('palette-input')).toBeFocused();
    await page.keyboard.type('bookinfo');
    await expect(page.getByTestId('palette-item').first()).toHaveText('bookinfo.yaml');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('tab').filter({ hasText: 'bookinfo.yaml' })).toHaveAttribute('aria-selected', 'true');
    await expect.poll(() => editorFocused(page)).toBe(true);
  });

  test('Ctrl+S says the workspace is kept in the browser and offers the file as a download', async ({ page }) => {
    await openApp(page);
    await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
    await page.keyboard.press('ControlOrMeta+S');
    const notice = page.getByTestId('notice').filter({ hasText: 'saved in this browser' });
    await expect(notice).toBeVisible();
    const download = page.waitForEvent('download');
    await notice.getByTestId('save-download').click();
    const d = await download;
    expect(d.suggestedFilename()).toBe('networking.yaml');
  });

  test('Escape from the Samples menu and from rename keeps focus where it was', async ({ page }) => {
    await openApp(page);
    await page.getByTestId('samples-button').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('sample-item').first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('sample-item').nth(1)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('samples-menu')).toHaveCount(0);
    await expect(page.getByTestId('samples-button')).toBeFocused();

    const row = page.getByTestId('file-item').filter({ hasText: 'networking.yaml' });
    await row.focus();
    await page.keyboard.press('F2');
    await expect(page.getByTestId('rename-input')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('file-item').filter({ hasText: 'networking.yaml' })).toBeFocused();
    // The context menu by keyboard lists the file's commands.
    await page.keyboard.press('Shift+F10');
    const menu = page.getByTestId('file-menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    await expect(menu).toContainText('Download networking.yaml');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('file-item').filter({ hasText: 'networking.yaml' })).toBeFocused();
  });
});
