// Shared by the specs that type a manifest of their own: a new file, and the text pasted into it.
import { expect, type Page } from '@playwright/test';

/**
 * Adds a file with the New file button and pastes `text` into it, as a person would (the
 * context must grant clipboard-read and clipboard-write). The new file is `untitled-1.yaml`.
 */
export async function pasteIntoNewFile(page: Page, text: string): Promise<void> {
  await page.getByTestId('new-file').click();
  await expect(page.locator('[data-testid="file-item"][data-path="untitled-1.yaml"]')).toBeVisible();
  await page.locator('.monaco-editor .view-lines').click();
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('ControlOrMeta+V');
}
