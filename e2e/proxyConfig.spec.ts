// The Proxy config view: the Envoy config istiod would send the productpage sidecar of
// Bookinfo, a route traced back to its VirtualService line, a simulated request, and what an
// edit of the route weights changes against the Review baseline.
import { test, expect, type Page } from '@playwright/test';
import { openSample } from './samples.ts';
import { openView } from './views.ts';
import { analysisReady } from './ready.ts';

async function loadBookinfo(page: Page): Promise<void> {
  await openSample(page, /^Bookinfo(?! with)/, 'networking.yaml');
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
}

function reviewsLine(text: string, needle: string): number {
  const lines = text.split('\n');
  const start = lines.findIndex((l, i) => l === '  name: reviews' && lines[i - 2] === 'kind: VirtualService');
  return start + lines.slice(start).findIndex((l) => l.includes(needle)) + 1;
}

/** Back to the view after the editor showed a file (its tab beside the files). */
async function showView(page: Page): Promise<void> {
  await page.locator('[data-testid="view-tab"][data-view="proxy"]').click();
  await expect(page.getByTestId('view-proxy')).toBeVisible();
}

test('productpage sidecar: reviews route weights, jump to the VirtualService, simulate, and what changes after an edit', async ({ page }) => {
  await loadBookinfo(page);
  const panel = await openView(page, 'proxy');
  const picker = panel.getByTestId('proxy-picker');
  const productpage = await picker.locator('option', { hasText: 'productpage-v1' }).getAttribute('value');
  await picker.selectOption(productpage!);
  await expect(picker.locator('option', { hasText: 'istio-ingressgateway' })).toHaveCount(1);

  // Routes: the reviews virtual host on 9080 routes 75/25 to subsets v1 and v2.
  await panel.getByTestId('proxy-tab-routes').click();
  const table = panel.getByTestId('proxy-table-routes');
  await expect(table.locator('th')).toHaveText(['NAME', 'VHOST NAME', 'DOMAINS', 'MATCH', 'VIRTUAL SERVICE', 'ROUTE TO']);
  const reviews = table.getByTestId('proxy-row').filter({ hasText: 'reviews.bookinfo.svc.cluster.local:9080' });
  await expect(reviews).toHaveCount(1);
  await expect(reviews).toContainText('reviews.bookinfo');
  await expect(reviews).toContainText('outbound|9080|v1|reviews.bookinfo.svc.cluster.local 75%');
  await expect(reviews).toContainText('outbound|9080|v2|reviews.bookinfo.svc.cluster.local 25%');

  // A click selects the route: its JSON shows the weighted clusters, and its sources the VirtualService.
  await reviews.click();
  await expect(panel.getByTestId('proxy-json')).toContainText('"weightedClusters"');
  await expect(panel.getByTestId('proxy-sources')).toContainText('VirtualService bookinfo/reviews');

  // "Go to config" opens networking.yaml at the reviews VirtualService's rule.
  await panel.getByTestId('proxy-goto').click();
  await expect(page.getByTestId('tab').filter({ hasText: 'networking.yaml' })).toHaveAttribute('aria-selected', 'true');
  const text = await page.evaluate(() => window.__meshWorkbench?.editor?.value('networking.yaml') ?? '');
  const cursor = await page.getByTestId('cursor-position').textContent();
  const line = Number(/^Ln (\d+)/.exec(cursor ?? '')?.[1]);
  const vsStart = reviewsLine(text, 'name: reviews');
  const vsEnd = reviewsLine(text, '---');
  expect(line).toBeGreaterThan(vsStart);
  expect(line).toBeLessThan(vsEnd);

  // Simulate GET /reviews/1 from productpage.
  await showView(page);
  await panel.getByTestId('proxy-tab-simulate').click();
  await panel.getByTestId('sim-method').selectOption('GET');
  await panel.getByTestId('sim-host').fill('reviews');
  await panel.getByTestId('sim-port').fill('9080');
  await panel.getByTestId('sim-path').fill('/reviews/1');
  await panel.getByTestId('sim-run').click();
  const result = panel.getByTestId('sim-result');
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result.getByTestId('sim-step-listener')).toContainText('0.0.0.0_9080');
  await expect(result.getByTestId('sim-step-virtualHost')).toContainText('reviews.bookinfo.svc.cluster.local:9080');
  await expect(result.getByTestId('sim-step-cluster')).toHaveText([
    /outbound\|9080\|v1\|reviews\.bookinfo\.svc\.cluster\.local \(75%\)/,
    /outbound\|9080\|v2\|reviews\.bookinfo\.svc\.cluster\.local \(25%\)/,
  ]);

  // What changes: no baseline yet; pin the current files as the Review baseline, then edit the weights in the editor.
  await panel.getByTestId('proxy-tab-changes').click();
  await expect(panel.getByTestId('changes-no-baseline')).toBeVisible();
  await panel.getByTestId('changes-pin').click();
  await expect(panel.getByTestId('changes-none')).toBeVisible();
  await page.getByTestId('tab').filter({ hasText: 'networking.yaml' }).click();
  const weightLine = reviewsLine(text, 'weight: 75');
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 1; i < weightLine; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('50');
  await expect.poll(() => page.evaluate(() => /weight: 50\n/.test(window.__meshWorkbench?.editor?.value('networking.yaml') ?? ''))).toBe(true);
  await showView(page);

  const changed = panel.locator('[data-testid="change-row"][data-type="route"][data-change="changed"]').filter({ hasText: '9080' });
  await expect(changed).toBeVisible();
  await expect(changed).toContainText('weightedClusters.clusters[outbound|9080|v1|reviews.bookinfo.svc.cluster.local].weight: 75 → 50');
  // Only route configurations changed: 9080, and 80 (which carries every VirtualService's hosts).
  await expect(panel.getByTestId('change-row')).toHaveCount(2);
  await expect(panel.locator('[data-testid="change-row"]:not([data-type="route"])')).toHaveCount(0);

  // The routes table follows the edit; pinning the edited config as the baseline clears the list.
  await panel.getByTestId('proxy-tab-routes').click();
  await expect(table.getByTestId('proxy-row').filter({ hasText: 'reviews.bookinfo.svc.cluster.local:9080' })).toContainText(
    'outbound|9080|v1|reviews.bookinfo.svc.cluster.local 50%',
  );
  await panel.getByTestId('proxy-tab-changes').click();
  await panel.getByTestId('changes-pin').click();
  await expect(panel.getByTestId('changes-none')).toBeVisible();
});

test('a mesh with hundreds of proxies: the picker lists the first ones and a filter box finds the rest', async ({ page }) => {
  await page.goto('./');
  await analysisReady(page);
  // 260 Deployments in an injected namespace: 260 derived sidecars, more than the picker lists at once.
  const docs = ['apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n  labels:\n    istio-injection: enabled\n'];
  for (let i = 0; i < 260; i++) {
    docs.push(
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-${i}\n  namespace: shop\nspec:\n  selector:\n    matchLabels: {app: app-${i}}\n  template:\n    metadata:\n      labels: {app: app-${i}}\n    spec:\n      containers: [{name: app, image: app}]\n`,
    );
  }
  await page.getByTestId('upload-input').setInputFiles([{ name: 'shop.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(docs.join('---\n')) }]);
  await expect(page.locator('[data-testid="file-item"][data-path="shop.yaml"]')).toBeVisible();
  const panel = await openView(page, 'proxy');
  const picker = panel.getByTestId('proxy-picker');
  await expect(panel.getByTestId('proxy-choose')).toContainText('in the workspace');
  // At most 200 proxies are listed, and the list says how many more the filter can find.
  await expect(picker.getByTestId('proxy-picker-more')).toContainText('more: type in the filter box');
  await expect(picker.locator('option', { hasText: 'shop/app-259-' })).toHaveCount(0);
  const filter = panel.getByTestId('proxy-picker-filter');
  await filter.fill('app-259-');
  await expect(picker.locator('option:not([disabled])', { hasText: 'app-' })).toHaveCount(1);
  await expect(picker.getByTestId('proxy-picker-more')).toHaveCount(0);
  const value = await picker.locator('option', { hasText: 'app-259-' }).getAttribute('value');
  await picker.selectOption(value!);
  await panel.getByTestId('proxy-tab-clusters').click();
  await expect(panel.getByTestId('proxy-table-clusters')).toBeVisible();
  // Clearing the filter keeps the picked proxy in the list.
  await filter.fill('');
  await expect(picker).toHaveValue(value!);
});

test('a Gateway API gateway from just its Gateway and HTTPRoute: the gateway istiod would deploy, with its routes', async ({ page }) => {
  await page.goto('./');
  await analysisReady(page);
  const text = [
    'apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: web, namespace: shop}\nspec:\n  gatewayClassName: istio\n  listeners:\n  - {name: http, port: 80, protocol: HTTP}\n',
    'apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: reviews, namespace: shop}\nspec:\n  parentRefs: [{name: web}]\n  hostnames: [shop.example.com]\n  rules:\n  - matches: [{path: {type: PathPrefix, value: /reviews}}]\n    backendRefs: [{name: reviews, port: 9080}]\n',
    'apiVersion: v1\nkind: Service\nmetadata: {name: reviews, namespace: shop}\nspec: {selector: {app: reviews}, ports: [{name: http, port: 9080}]}\n',
  ].join('---\n');
  await page.getByTestId('upload-input').setInputFiles([{ name: 'gateway.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(text) }]);
  await expect(page.locator('[data-testid="file-item"][data-path="gateway.yaml"]')).toBeVisible();
  const panel = await openView(page, 'proxy');
  const picker = panel.getByTestId('proxy-picker');
  const option = picker.locator('option', { hasText: 'web-istio-' });
  await expect(option).toHaveCount(1);
  await picker.selectOption((await option.getAttribute('value'))!);
  await expect(panel.getByTestId('proxy-synthetic')).toContainText('Pod derived from Gateway shop/web (not in your files).');
  await panel.getByTestId('proxy-tab-routes').click();
  const routes = panel.getByTestId('proxy-table-routes');
  await expect(routes).toContainText('http.80');
  await expect(routes).toContainText('shop.example.com');
  await expect(routes).toContainText('/reviews');
  // No Service here has a clusterIP in the files: the notes say which addresses are assumed,
  // the gateway's namespace first.
  await panel.getByText(/^Notes \(\d+\)$/).click();
  await expect(panel.locator('.proxy-notes')).toContainText(/\d+ Services have no clusterIP in the files/);
  await expect(panel.locator('.proxy-notes')).toContainText(/reviews\.shop\.svc\.cluster\.local 10\.96\./);
});

test("the inspector's proxy picker fits: a long proxy name neither hides the list arrow nor scrolls the panel sideways", async ({ page }) => {
  await page.setViewportSize({ width: 1500, height: 900 });
  await loadBookinfo(page);
  await page.getByTestId('inspector-tab-proxy').click();
  const panel = page.getByTestId('proxy-summary');
  const picker = panel.getByTestId('proxy-picker');
  // The longest option (a gateway pod with its namespace) is wider than the panel.
  await picker.selectOption({ index: 1 });
  await expect(picker.locator('option:checked')).toContainText('istio-ingressgateway');
  const panelBox = await panel.boundingBox();
  const pickerBox = await picker.boundingBox();
  expect(pickerBox!.x + pickerBox!.width).toBeLessThanOrEqual(panelBox!.x + panelBox!.width + 1);
  expect(await panel.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
});
