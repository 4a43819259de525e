// Shared by the specs that start from one of the app's samples.
import { expect, type Page } from '@playwright/test';
import { analysisReady } from './ready.ts';

/**
 * Opens the app and loads `sample` from the Samples menu, as a person would: the sample opens
 * as a workspace of its own (the switcher lists one more), and the file list shows `file`.
 */
export async function openSample(page: Page, sample: string | RegExp, file: string): Promise<void> {
  await page.goto('./');
  await analysisReady(page);
  const workspaces = page.getByTestId('workspace-select').locator('option');
  await expect(workspaces.first()).toBeAttached();
  const before = await workspaces.count();
  await page.getByTestId('samples-button').click();
  await page.getByTestId('sample-item').filter({ hasText: sample }).click();
  await expect(workspaces).toHaveCount(before + 1);
  await expect(page.locator(`[data-testid="file-item"][data-path="${file}"]`)).toBeVisible();
}
