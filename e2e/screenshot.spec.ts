// Regenerates docs/screenshot.png: SCREENSHOT=1 npx playwright test e2e/screenshot.spec.ts
import { test, expect } from '@playwright/test';

test.skip(!process.env.SCREENSHOT, 'set SCREENSHOT=1 to regenerate docs/screenshot.png');

test('screenshot of the mistakes sample', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('./');
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  // Jump to the first problem so the editor shows a marked line.
  await page.getByTestId('problem-row').first().click();
  await page.mouse.move(700, 300);
  await page.waitForTimeout(600);
  await page.screenshot({ path: process.env.SCREENSHOT_PATH || 'docs/screenshot.png' });
});
