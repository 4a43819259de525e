// Quick fixes, hover explanations and suppression by annotation, used the way a person
// would: hover the squiggle, press Ctrl+. (or click the lightbulb), use the Problems row.
import { test, expect, type Page, type Locator } from '@playwright/test';

async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.getByTestId('file-item')).toHaveCount(5);
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
  await expect(page.getByTestId('last-analysis')).toBeVisible();
}

function problemRows(page: Page): Locator {
  return page.getByTestId('problem-row');
}

function editorText(page: Page, path = 'networking.yaml'): Promise<string | null> {
  return page.evaluate((p) => window.__meshWorkbench?.editor?.value(p) ?? null, path);
}

/** The rendered editor line holding `text` (after the row click has revealed it). */
function editorLine(page: Page, text: string): Locator {
  return page.locator('.monaco-editor .view-line').filter({ hasText: text });
}

test.describe('Quick fixes', () => {
  test('hovering a squiggle explains the message and links to the Istio docs', async ({ page }) => {
    await openApp(page);
    const row = problemRows(page).filter({ hasText: 'IST0101' }).filter({ hasText: 'reviews2' });
    await row.click();
    const line = editorLine(page, 'host: reviews2');
    await expect(line).toBeVisible();
    await expect(page.locator('.monaco-editor .squiggly-error').first()).toBeVisible();
    // Point at the host value, as a person would with the mouse.
    await line.locator('span', { hasText: 'reviews2' }).last().hover();
    const hover = page.locator('.monaco-hover').filter({ hasText: 'Referenced host not found' });
    await expect(hover).toBeVisible();
    await expect(hover).toContainText('points at another object');
    const link = hover.locator('a', { hasText: 'IST0101' });
    await expect(link).toHaveAttribute('href', /istio\.io\/latest\/docs\/reference\/config\/analysis\/ist0101/);
    // The message comes before the explanation.
    const text = (await hover.textContent()) ?? '';
    expect(text.indexOf('Referenced host not found')).toBeLessThan(text.indexOf('points at another object'));
  });

  test('Ctrl+. on the squiggle offers "Change host to …" and applying it clears the problem', async ({ page }) => {
    await openApp(page);
    const row = problemRows(page).filter({ hasText: 'IST0101' }).filter({ hasText: 'reviews2' });
    await expect(row).toHaveCount(1);
    // Clicking the row selects the field; the cursor is now on the marker.
    await row.click();
    await expect(page.locator('.monaco-editor').first()).toHaveClass(/\bfocused\b/);
    await page.keyboard.press('ControlOrMeta+.');
    const action = page.locator('.action-widget').getByText('Change host to "reviews"');
    await expect(action).toBeVisible();
    await action.click();
    await expect(row).toHaveCount(0);
    expect(await editorText(page)).toContain('            host: reviews\n          weight: 25');
    // Undo in the editor brings the mistake back.
    await page.keyboard.press('ControlOrMeta+Z');
    await expect(problemRows(page).filter({ hasText: 'IST0101' }).filter({ hasText: 'reviews2' })).toHaveCount(1);
  });

  test('the lightbulb offers the same fixes', async ({ page }) => {
    await openApp(page);
    const row = problemRows(page).filter({ hasText: 'IST0101' }).filter({ hasText: 'ratings-gateway' });
    await row.click();
    const bulb = page.locator('.monaco-editor .lightBulbWidget');
    await expect(bulb).toBeVisible();
    await bulb.click();
    const action = page.locator('.action-widget').getByText('Change gateway to "bookinfo-gateway"');
    await expect(action).toBeVisible();
    await action.click();
    await expect(row).toHaveCount(0);
    expect(await editorText(page)).toContain('  gateways:\n    - bookinfo-gateway\n  http:\n    - route:\n        - destination:\n            host: ratings');
  });

  test('a fix from the Problems row', async ({ page }) => {
    await openApp(page);
    // Work from another file: the fix still edits networking.yaml.
    await page.locator('[data-testid="file-item"][data-path="bookinfo.yaml"]').click();
    const row = problemRows(page).filter({ hasText: 'IST0132' }).filter({ hasText: 'reviews-admin' });
    await expect(row).toHaveCount(1);
    await row.getByTestId('fix-button').click();
    const menu = page.getByTestId('fix-menu');
    await expect(menu).toBeVisible();
    await menu.getByTestId('fix-item').filter({ hasText: 'Add "reviews.bookinfo.example.com" to the hosts of Gateway bookinfo/admin-gateway' }).click();
    await expect(menu).toHaveCount(0);
    await expect(row).toHaveCount(0);
    expect(await editorText(page)).toContain('      hosts:\n        - admin.bookinfo.example.com\n        - reviews.bookinfo.example.com\n');
    // The active tab did not change: applying a fix is not navigation.
    await expect(page.getByTestId('tab').filter({ hasText: 'bookinfo.yaml' })).toHaveAttribute('aria-selected', 'true');
  });

  test('suppressing a message with the analyze-suppress annotation', async ({ page }) => {
    await openApp(page);
    const row = problemRows(page).filter({ hasText: 'IST0162' });
    await expect(row).toHaveCount(1);
    await row.hover();
    await row.getByTestId('suppress-button').click();
    const menu = page.getByTestId('suppress-menu');
    await expect(menu.getByTestId('suppress-rule')).toBeVisible();
    await menu.getByTestId('suppress-annotation').click();
    await expect(row).toHaveCount(0);
    // The annotation is in the Gateway's metadata, in the editor.
    await expect(page.locator('.monaco-editor .view-lines')).toContainText('galley.istio.io/analyze-suppress: "IST0162"');
    expect(await editorText(page)).toContain(
      '  name: admin-gateway\n  namespace: bookinfo\n  annotations:\n    galley.istio.io/analyze-suppress: "IST0162"\nspec:',
    );
    // No settings rule was added for it.
    await expect(page.getByTestId('suppressions')).not.toContainText('IST0162');

    // A second code on the same resource joins the list with a bare comma.
    const second = problemRows(page).filter({ hasText: 'IST0101' }).filter({ hasText: 'ratings-gateway' });
    await second.hover();
    await second.getByTestId('suppress-button').click();
    await page.getByTestId('suppress-menu').getByTestId('suppress-annotation').click();
    await expect(second).toHaveCount(0);
    expect(await editorText(page)).toContain(
      '  name: ratings-public\n  namespace: bookinfo\n  annotations:\n    galley.istio.io/analyze-suppress: "IST0101"\nspec:',
    );
  });

  test('a settings rule in the legacy name.namespace form also suppresses', async ({ page }) => {
    await openApp(page);
    const row = problemRows(page).filter({ hasText: 'IST0162' });
    await expect(row).toHaveCount(1);
    const input = page.getByLabel('New suppression');
    await input.fill('IST0162=Gateway admin-gateway.bookinfo');
    await input.press('Enter');
    await expect(page.getByTestId('suppression-note')).toContainText('legacy');
    await expect(row).toHaveCount(0);
  });
});
