// The Data plane tab on the ambient sample: the diagram with each pod's mode, a trace through
// the waypoint that is denied by the L7 policy, and a namespace label edited in the YAML
// (and toggled as a "what if") changing a pod's mode.
import { test, expect, type Page } from '@playwright/test';
import { openSample } from './samples.ts';

async function loadAmbientSample(page: Page): Promise<void> {
  await openSample(page, 'Ambient shop', 'waypoint.yaml');
  await page.getByTestId('inspector-tab-dataplane').click();
  await expect(page.getByTestId('dp-diagram')).toBeVisible();
}

const pod = (page: Page, prefix: string) => page.locator(`[data-testid="dp-pod"][data-pod^="${prefix}"]`);

test('the ambient sample shows nodes, ztunnels and pods with their modes, and why', async ({ page }) => {
  await loadAmbientSample(page);
  await expect(page.getByTestId('dp-node')).toHaveCount(2);
  await expect(page.getByTestId('dp-ztunnel')).toHaveCount(2);
  await expect(pod(page, 'shop/products-')).toHaveCount(2);
  for (const p of await pod(page, 'shop/products-').all()) await expect(p).toHaveAttribute('data-mode', 'ambient');
  await expect(pod(page, 'client/curl-')).toHaveAttribute('data-mode', 'ambient');
  await expect(pod(page, 'shop/cart-')).toHaveAttribute('data-mode', 'none');
  await expect(pod(page, 'legacy/reports-')).toHaveAttribute('data-mode', 'sidecar');
  await expect(pod(page, 'outside/batch-')).toHaveAttribute('data-mode', 'none');
  await expect(pod(page, 'shop/waypoint-')).toHaveAttribute('data-role', 'waypoint');
  // Services show their waypoint binding.
  await expect(page.locator('[data-testid="dp-service"][data-service="shop/products"]')).toHaveAttribute('data-waypoint', 'shop/waypoint');
  // Hovering a pod says why it has its mode.
  await pod(page, 'shop/cart-').hover();
  await expect(page.getByTestId('dp-why')).toContainText('none');
  await expect(page.getByTestId('dp-why')).toContainText('PodOptOut');
  await pod(page, 'legacy/reports-').hover();
  await expect(page.getByTestId('dp-why')).toContainText('SidecarPresent');
  // The per-node ztunnel view prints istioctl's table.
  await page.getByTestId('dp-nodeview').locator('summary').click();
  await expect(page.getByTestId('dp-ztunnel-table')).toContainText('NAMESPACE');
  await expect(page.getByTestId('dp-ztunnel-table')).toContainText('PROTOCOL');
  await page.getByTestId('dp-table-select').selectOption('services');
  await expect(page.getByTestId('dp-ztunnel-table')).toContainText('waypoint');
});

test('a POST from the client through the waypoint is denied at L7, with the policy named', async ({ page }) => {
  await loadAmbientSample(page);
  const form = page.getByTestId('dp-trace-form');
  await form.getByTestId('dp-trace-from').selectOption({ label: (await form.getByTestId('dp-trace-from').locator('option', { hasText: 'client/curl-' }).textContent())! });
  await form.getByTestId('dp-trace-to').fill('products.shop.svc.cluster.local:80');
  await form.getByTestId('dp-trace-method').selectOption('POST');
  await form.getByTestId('dp-trace-path-input').fill('/items');
  await form.getByTestId('dp-trace-run').click();
  await expect(page.getByTestId('dp-trace-verdict')).toContainText('DENY at waypoint shop/waypoint (L7), policy shop/products-read-only');
  const waypointHop = page.locator('[data-testid="dp-hop"][data-component="waypoint"][data-decision="DENY"]');
  await expect(waypointHop).toHaveCount(1);
  await expect(waypointHop.locator('[data-testid="dp-policy"][data-policy="shop/products-read-only"]')).toHaveAttribute('data-matched', 'true');
  await expect(page.getByTestId('dp-trace-path')).toBeVisible();
  // The policy links to its YAML.
  await waypointHop.getByRole('button', { name: 'shop/products-read-only' }).click();
  await expect(page.getByTestId('tab').filter({ hasText: 'policies.yaml' })).toHaveAttribute('aria-selected', 'true');
  // A GET goes through, and the destination ztunnel sees the waypoint's identity.
  await form.getByTestId('dp-trace-method').selectOption('GET');
  await form.getByTestId('dp-trace-run').click();
  await expect(page.getByTestId('dp-trace-verdict')).toHaveText('ALLOW');
  await expect(page.locator('[data-testid="dp-hop"][data-component="ztunnel-inbound"]').first()).toContainText('peer spiffe://cluster.local/ns/shop/sa/waypoint');
});

test('editing the namespace label in the YAML changes a pod\'s mode; a what-if toggle does too, without editing', async ({ page }) => {
  await loadAmbientSample(page);
  await expect(pod(page, 'outside/batch-')).toHaveAttribute('data-mode', 'none');
  // What if: label the outside namespace for ambient (a temporary override).
  const toggle = page.locator('[data-testid="dp-whatif-ns"][data-ns="outside"]');
  // The box follows the what-if state, which updates when the worker answers: click, then wait for it.
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(pod(page, 'outside/batch-')).toHaveAttribute('data-mode', 'ambient');
  expect(await page.evaluate(() => window.__meshWorkbench?.editor?.value('namespaces.yaml') ?? '')).not.toMatch(/name: outside\n\s+labels/);
  await page.getByTestId('dp-whatif-reset').click();
  await expect(pod(page, 'outside/batch-')).toHaveAttribute('data-mode', 'none');

  // Now edit the YAML: the client namespace's label goes from ambient to none.
  await page.locator('[data-testid="file-item"][data-path="namespaces.yaml"]').click();
  await expect(page.getByTestId('tab').filter({ hasText: 'namespaces.yaml' })).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('ControlOrMeta+F');
  const findInput = page.locator('.monaco-editor .find-widget textarea, .monaco-editor .find-widget input').first();
  await expect(findInput).toBeFocused();
  await findInput.fill('name: client');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  // Down to the label line, select its value and type the new one.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+ControlOrMeta+ArrowLeft');
  await page.keyboard.type('none');
  await expect.poll(() => page.evaluate(() => window.__meshWorkbench?.editor?.value('namespaces.yaml') ?? '')).toContain('name: client\n  labels:\n    istio.io/dataplane-mode: none');
  await expect(pod(page, 'client/curl-')).toHaveAttribute('data-mode', 'none');
  await pod(page, 'client/curl-').hover();
  await expect(page.getByTestId('dp-why')).toContainText('NotSelected');
});

test('an ingress Gateway added to the ambient sample: its pod appears, and a trace from it skips the waypoint and is denied by ztunnel', async ({ page }) => {
  await loadAmbientSample(page);
  const ingress = [
    'apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: web, namespace: shop}\nspec:\n  gatewayClassName: istio\n  listeners:\n  - {name: http, port: 80, protocol: HTTP}\n',
    'apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: products, namespace: shop}\nspec:\n  parentRefs: [{name: web}]\n  rules:\n  - backendRefs: [{name: products, port: 80}]\n',
  ].join('---\n');
  await page.getByTestId('upload-input').setInputFiles([{ name: 'ingress.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(ingress) }]);
  await expect(page.locator('[data-testid="file-item"][data-path="ingress.yaml"]')).toBeVisible();
  // The pod istiod's deployment controller would run for the Gateway.
  await expect(pod(page, 'shop/web-istio-')).toHaveAttribute('data-role', 'gateway');
  const form = page.getByTestId('dp-trace-form');
  await form.getByTestId('dp-trace-from').selectOption({ label: (await form.getByTestId('dp-trace-from').locator('option', { hasText: 'shop/web-istio-' }).textContent())! });
  await form.getByTestId('dp-trace-to').fill('products.shop.svc.cluster.local:80');
  await form.getByTestId('dp-trace-run').click();
  // No istio.io/ingress-use-waypoint on the Service: the gateway goes straight to the pods,
  // whose L4 policy admits only the client namespace and the waypoint.
  await expect(page.locator('[data-testid="dp-hop"][data-component="gateway"]').filter({ hasText: 'waypoint shop/waypoint is skipped' })).toHaveCount(1);
  await expect(page.getByTestId('dp-trace-verdict')).toContainText('DENY');
  await expect(page.locator('[data-testid="dp-hop"][data-component="ztunnel-inbound"][data-decision="DENY"]')).toHaveCount(1);
});
