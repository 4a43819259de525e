// Accessibility: axe-core finds no serious or critical violation in the light and the dark
// theme (landmarks, one h1, contrast including the editor's colours, no nested controls,
// accessible names that contain the visible text), also with the Data plane, Describe and
// Certificates views open in the main area, and the Inspector's tabs follow the ARIA tab
// pattern. The app follows the OS colour scheme (prefers-color-scheme), emulated here.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { openSample } from './samples.ts';
import { openView } from './views.ts';

async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.getByTestId('file-item')).toHaveCount(5);
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  await expect(page.locator('.monaco-editor .squiggly-error').first()).toBeVisible();
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes
          .slice(0, 5)
          .map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1, 2).join('') ?? ''}`)
          .join('\n  ')}`,
    );
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`axe, ${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    test('no serious or critical violations on the first visit', async ({ page }) => {
      await openApp(page);
      expect(await seriousViolations(page)).toEqual([]);
      // The page's structure: one h1, a main landmark, the panes named.
      await expect(page.locator('h1')).toHaveCount(1);
      await expect(page.getByRole('main')).toHaveCount(1);
      await expect(page.getByRole('complementary', { name: 'Workspace' })).toBeVisible();
      await expect(page.getByRole('complementary', { name: 'Inspector' })).toBeVisible();
    });

    test("the level toggles' accessible names start with their visible text", async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openApp(page);
      for (const [id, word] of [
        ['filter-error', 'Errors'],
        ['filter-warning', 'Warnings'],
        ['filter-info', 'Info'],
      ] as const) {
        const toggle = page.getByTestId(id);
        const visible = ((await toggle.innerText()) ?? '').replace(/\s+/g, ' ').trim();
        expect(visible).toMatch(new RegExp(`^${word} \\d+$`));
        await expect(toggle).toHaveAccessibleName(visible);
      }
      const results = await new AxeBuilder({ page }).withRules(['label-content-name-mismatch']).analyze();
      expect(results.violations.map((v) => v.nodes.map((n) => n.target.join(' ')))).toEqual([]);
    });

    test('no serious or critical violations with the Data plane view open (diagram, a trace, the wide view)', async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openSample(page, 'Ambient shop', 'waypoint.yaml');
      const view = await openView(page, 'dataplane');
      await expect(view.getByTestId('dp-diagram')).toBeVisible();
      await view.getByTestId('dp-trace-run').click();
      await expect(view.getByTestId('dp-trace-verdict')).toBeVisible();
      await view.getByTestId('dp-nodeview').locator('summary').click();
      await expect(view.getByTestId('dp-ztunnel-table')).toBeVisible();
      await view.getByTestId('dp-pod').first().hover();
      await expect(view.getByTestId('dp-why')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await view.getByTestId('dataplane-wide').click();
      await expect(view.getByTestId('dataplane')).toHaveClass(/dataplane-wide/);
      expect(await seriousViolations(page)).toEqual([]);
      // The inspector's summary of it.
      await page.keyboard.press('Escape');
      await page.getByTestId('inspector-tab-dataplane').click();
      await expect(page.getByTestId('dataplane-summary-counts')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('no serious or critical violations with the Describe view open (a sidecar pod, its istioctl text, an ambient pod)', async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openApp(page);
      await page.getByTestId('workloads').getByTestId('workload-row').filter({ hasText: 'bookinfo/reviews-v1-' }).getByTestId('workload-describe').click();
      const view = page.getByTestId('view-describe');
      await expect(view.getByTestId('describe-pod')).toContainText('bookinfo/reviews-v1-');
      await expect(view.getByTestId('describe-view')).toHaveAttribute('data-state', 'ready');
      await view.getByTestId('describe-text').locator('summary').click();
      await expect(view.getByTestId('describe-text-pre')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await openSample(page, 'Ambient shop', 'waypoint.yaml');
      await page.getByTestId('workloads').getByTestId('workload-row').filter({ hasText: 'shop/products-' }).first().getByTestId('workload-describe').click();
      await expect(view.getByTestId('describe-pod')).toContainText('shop/products-');
      await expect(view.getByTestId('describe-trace').getByTestId('dp-trace-verdict')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('no serious or critical violations with the Certificates view open (scenarios, chains, cards)', async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openSample(page, 'Certificates', 'gateway.yaml');
      const view = await openView(page, 'certs');
      await expect(view.getByTestId('certs-scenario').first()).toBeVisible();
      await expect(view.getByTestId('certs-card').first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByTestId('inspector-tab-certs').click();
      await expect(page.getByTestId('certs-summary-counts')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('no serious or critical violations with a menu, the palette and hover actions open', async ({ page }) => {
      await openApp(page);
      const row = page.getByTestId('problem-row').filter({ hasText: 'reviews2' });
      await row.hover();
      await row.getByTestId('fix-button').click();
      await expect(page.getByTestId('fix-menu')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      await expect(page.getByTestId('command-palette')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

test('the Inspector tabs follow the tab pattern: arrows move and select, the panel is labelled by its tab', async ({ page }) => {
  await openApp(page);
  const tabs = page.getByRole('tablist', { name: 'Inspector views' }).getByRole('tab');
  const first = tabs.first();
  await first.focus();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(first).toHaveAttribute('tabindex', '0');
  await expect(tabs.nth(1)).toHaveAttribute('tabindex', '-1');
  await page.keyboard.press('ArrowRight');
  await expect(tabs.nth(1)).toBeFocused();
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  const panelId = await tabs.nth(1).getAttribute('aria-controls');
  const panel = page.locator(`[id="${panelId}"]`);
  await expect(panel).toHaveAttribute('role', 'tabpanel');
  await expect(panel).toHaveAttribute('aria-labelledby', (await tabs.nth(1).getAttribute('id'))!);
  await page.keyboard.press('End');
  await expect(tabs.last()).toBeFocused();
  await expect(tabs.last()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Home');
  await expect(first).toBeFocused();
  // The editor's tabs: the close button is beside the tab, not inside it.
  await expect(page.getByRole('tab', { name: /networking\.yaml/ }).locator('button')).toHaveCount(0);
});
