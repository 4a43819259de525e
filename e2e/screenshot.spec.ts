// Regenerates docs/screenshot.png from the current build: npm run docs:screenshots (which builds
// the app and runs this spec with SCREENSHOT=1). Skipped in ordinary end-to-end runs.
import { test, expect } from '@playwright/test';
import { editorReady } from './ready.ts';

test.skip(!process.env.SCREENSHOT, 'npm run docs:screenshots regenerates docs/screenshot.png');

test('screenshot of the mistakes sample', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 960 });
  await page.goto('./');
  await editorReady(page);
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  // The Proxy config view of productpage's sidecar beside the YAML, on its Routes.
  await page.getByTestId('inspector-tab-proxy').click();
  await page.getByTestId('open-view-proxy').click();
  const view = page.getByTestId('view-proxy');
  const picker = view.getByTestId('proxy-picker');
  await picker.selectOption((await picker.locator('option', { hasText: 'productpage-v1' }).getAttribute('value'))!);
  await view.getByTestId('proxy-tab-routes').click();
  await view.getByTestId('view-split').click();
  await view.getByTestId('proxy-row').filter({ hasText: 'reviews.bookinfo.svc.cluster.local:9080' }).first().click();
  // Jump to the first problem so the editor shows a marked line.
  await page.getByTestId('problem-row').first().click();
  await page.mouse.move(700, 300);
  await page.waitForTimeout(600);
  await page.screenshot({ path: process.env.SCREENSHOT_PATH || 'docs/screenshot.png' });
});
