// The Describe view: `istioctl x describe pod` for a pod, each fact linked to its YAML line,
// with what almost applies; opened from the Workloads list, the palette and the editor's
// context menu; an ambient pod shows its waypoint and a request traced hop by hop.
import { readFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { editorReady } from './ready.ts';
import { openSample } from './samples.ts';
import { pasteIntoNewFile } from './editorPaste.ts';

/** A DestinationRule whose subset asks for `version: v2x`: one character off reviews-v2's label. */
const TYPO_DR = readFileSync(new URL('../tests/fixtures/describe/reviews-typo-subset.yaml', import.meta.url), 'utf8');

function workloadRow(page: Page, text: string) {
  return page.getByTestId('workloads').getByTestId('workload-row').filter({ hasText: text });
}

/** The Describe view, once it shows a description of the pod whose name starts with `pod`. */
async function describeView(page: Page, pod: string) {
  const view = page.getByTestId('view-describe');
  await expect(view).toBeVisible();
  await expect(view.getByTestId('describe-pod')).toContainText(pod);
  await expect(view.getByTestId('describe-view')).toHaveAttribute('data-state', 'ready');
  return view;
}

async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.keyboard.type(title);
  await page.getByTestId('palette-item').filter({ hasText: title }).first().click();
}

test('from the Workloads list: the route to reviews-v2 with its weight and line, and a subset one character off under Almost applies', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openSample(page, /^Bookinfo(?! with)/, 'networking.yaml');
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
  await pasteIntoNewFile(page, TYPO_DR);
  await expect.poll(() => page.evaluate(() => window.__meshWorkbench?.editor?.value('untitled-1.yaml')?.includes('version: v2x'))).toBe(true);

  await workloadRow(page, 'bookinfo/reviews-v2-')
    .getByRole('button', { name: /^Describe bookinfo\/reviews-v2-/ })
    .click();
  const view = await describeView(page, 'bookinfo/reviews-v2-');
  await expect(view.getByTestId('describe-pod')).toHaveAttribute('data-mesh', 'sidecar');

  // The VirtualService route that reaches the pod: subset v2, 25% of the requests.
  const reaching = view.locator('[data-testid="describe-route"][data-reaches="true"]');
  await expect(reaching).toHaveCount(1);
  const fact = reaching.getByTestId('describe-route-fact').filter({ hasText: 'subset v2' });
  await expect(fact.getByTestId('describe-weight')).toHaveText('weight 25%');

  // The canary subset misses the pod by one character.
  const almost = view.getByTestId('describe-almost-item').filter({ hasText: 'reviews-canary' });
  await expect(almost).toContainText('version: "v2x", where the pod has "v2"');
  await expect(almost.getByTestId('describe-link').first()).toHaveAttribute('data-file', 'untitled-1.yaml');

  // istioctl's own text, for comparison.
  await view.getByTestId('describe-text').locator('summary').click();
  await expect(view.getByTestId('describe-text-pre')).toContainText('Route to host "reviews" subset "v2" with weight 25%');

  // The route's link opens networking.yaml at the route's line.
  const link = fact.getByTestId('describe-link');
  await expect(link).toHaveAttribute('data-file', 'networking.yaml');
  const line = Number(await link.getAttribute('data-line'));
  const expected = await page.evaluate(() => {
    const lines = (window.__meshWorkbench?.editor?.value('networking.yaml') ?? '').split('\n');
    return lines.findIndex((l, i) => /^\s*- destination:/.test(l) && lines[i + 2]?.includes('subset: v2')) + 1;
  });
  expect(line).toBe(expected);
  await link.click();
  await expect(page.getByTestId('tab').filter({ hasText: 'networking.yaml' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('cursor-position')).toHaveText(new RegExp(`^Ln ${line}, `));
  await expect(page.locator('.monaco-editor .view-line').filter({ hasText: 'subset: v2' })).toBeVisible();
});

test('an ambient pod shows ztunnel, its waypoint and why, and a request to it hop by hop', async ({ page }) => {
  await openSample(page, 'Ambient shop', 'waypoint.yaml');
  await workloadRow(page, 'shop/products-')
    .first()
    .getByRole('button', { name: /^Describe shop\/products-/ })
    .click();
  const view = await describeView(page, 'shop/products-');
  await expect(view.getByTestId('describe-pod')).toHaveAttribute('data-mesh', 'ambient');
  const ambient = view.getByTestId('describe-ambient');
  // The Service's waypoint, inherited from the namespace's istio.io/use-waypoint label (linked).
  const waypoint = ambient.locator('[data-testid="describe-waypoint"][data-waypoint="shop/waypoint"]');
  await expect(waypoint).toHaveCount(1);
  await expect(waypoint).toContainText("its namespace's label istio.io/use-waypoint=waypoint");
  await expect(waypoint.getByTestId('describe-link').filter({ hasText: "namespace's label" })).toHaveAttribute('data-file', 'namespaces.yaml');
  // The L4 policy ztunnel enforces for it.
  await expect(view.locator('[data-testid="describe-l4-policy"][data-policy="shop/shop-l4"]')).toHaveCount(1);
  // A request from the client namespace, through the waypoint, to the pod.
  const trace = view.getByTestId('describe-trace');
  await expect(trace.getByTestId('describe-trace-from')).toHaveValue(/^client\/curl-/);
  await expect(trace.getByTestId('dp-trace-verdict')).toContainText('ALLOW');
  await expect(trace.locator('[data-testid="dp-hop"][data-component="waypoint"]').first()).toBeVisible();
  await expect(trace.locator('[data-testid="dp-hop"][data-component="ztunnel-inbound"]').first()).toBeVisible();
});

test('the palette describes a workload chosen in the picker, and the editor describes the pods a DestinationRule selects', async ({ page }) => {
  await page.goto('./');
  await editorReady(page);
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  await runCommand(page, 'Describe a workload…');
  const view = page.getByTestId('view-describe');
  await expect(view).toBeVisible();
  const picker = view.getByTestId('describe-picker');
  await expect(picker).toBeFocused();
  await expect(picker.locator('option', { hasText: 'bookinfo/ratings-' })).toHaveCount(1);
  const ratings = await picker.locator('option', { hasText: 'bookinfo/ratings-' }).getAttribute('value');
  await picker.selectOption(ratings!);
  await describeView(page, 'bookinfo/ratings-');

  // The editor's context menu on the reviews DestinationRule: its first pod, the others in the picker.
  await page.locator('[data-testid="file-item"][data-path="destination-rules.yaml"]').click();
  const line = page.locator('.monaco-editor .view-line').filter({ hasText: 'host: reviews' });
  await expect(line).toBeVisible();
  await line.click();
  await line.click({ button: 'right' });
  const item = page.locator('.monaco-menu .action-item').filter({ has: page.locator('.action-label', { hasText: 'Describe selected pods' }) });
  await item.hover();
  await expect(item).toHaveClass(/\bfocused\b/);
  await item.click();
  const scoped = await describeView(page, 'bookinfo/reviews-v1-');
  await expect(scoped.getByTestId('describe-scope')).toContainText('3 pods selected by DestinationRule bookinfo/reviews');
  await expect(scoped.getByTestId('describe-picker').locator('option')).toHaveCount(3);
});
