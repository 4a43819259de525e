// Shared by the specs that start from one of the app's samples.
import { expect, type Page } from '@playwright/test';

/**
 * Opens the app and loads `sample` from the Samples menu, as a person would (accepting the
 * question whether to replace the workspace), then waits until the file list shows `file`.
 */
export async function openSample(page: Page, sample: string | RegExp, file: string): Promise<void> {
  await page.goto('./');
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('samples-button').click();
  await page.getByTestId('sample-item').filter({ hasText: sample }).click();
  await expect(page.locator(`[data-testid="file-item"][data-path="${file}"]`)).toBeVisible();
}
