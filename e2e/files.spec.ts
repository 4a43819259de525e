// Renaming and deleting workspace files from their row buttons.
import { test, expect } from '@playwright/test';
import { analysisReady } from './ready.ts';

test('rename a file, then delete it; its problems go with it', async ({ page }) => {
  await page.goto('./');
  await analysisReady(page);
  const row = (path: string) => page.locator(`[data-testid="file-item"][data-path="${path}"]`);
  await expect(page.getByTestId('problem-row').filter({ hasText: 'networking.yaml' }).first()).toBeVisible();

  await row('networking.yaml').hover();
  await row('networking.yaml').getByTestId('rename-file').click();
  const input = page.getByTestId('rename-input');
  await input.fill('routes.yaml');
  await input.press('Enter');
  await expect(row('routes.yaml')).toBeVisible();
  await expect(row('networking.yaml')).toHaveCount(0);
  await expect(page.getByTestId('problem-row').filter({ hasText: 'routes.yaml' }).first()).toBeVisible();

  await row('routes.yaml').hover();
  await row('routes.yaml').getByTestId('delete-file').click();
  await page.getByRole('dialog', { name: 'Delete routes.yaml?' }).getByRole('button', { name: 'Delete file' }).click();
  await expect(row('routes.yaml')).toHaveCount(0);
  await expect(page.getByTestId('problem-row').filter({ hasText: 'routes.yaml' })).toHaveCount(0);
});
