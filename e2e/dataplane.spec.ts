// The Data plane view on the ambient sample: the diagram with each pod's mode, a trace through
// the waypoint that is denied by the L7 policy, and a namespace label edited in the YAML
// (and toggled as a "what if") changing a pod's mode. The view opens in the main area from
// the inspector's summary; its diagram is readable in both themes, lays out again for the
// width it has, and shows every name whole.
import { test, expect, type Page } from '@playwright/test';
import { openSample } from './samples.ts';
import { openView } from './views.ts';

async function loadAmbientSample(page: Page): Promise<void> {
  await openSample(page, 'Ambient shop', 'waypoint.yaml');
  const view = await openView(page, 'dataplane');
  await expect(view.getByTestId('dp-diagram')).toBeVisible();
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
  await form
    .getByTestId('dp-trace-from')
    .selectOption({ label: (await form.getByTestId('dp-trace-from').locator('option', { hasText: 'client/curl-' }).textContent())! });
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
  // Back to the view (its tab beside the files): the form kept its values.
  await page.getByTestId('view-tab').filter({ hasText: 'Data plane' }).click();
  await expect(form.getByTestId('dp-trace-to')).toHaveValue('products.shop.svc.cluster.local:80');
  // A GET goes through, and the destination ztunnel sees the waypoint's identity.
  await form.getByTestId('dp-trace-method').selectOption('GET');
  await form.getByTestId('dp-trace-run').click();
  await expect(page.getByTestId('dp-trace-verdict')).toHaveText('ALLOW');
  await expect(page.locator('[data-testid="dp-hop"][data-component="ztunnel-inbound"]').first()).toContainText(
    'peer spiffe://cluster.local/ns/shop/sa/waypoint',
  );
});

test("editing the namespace label in the YAML changes a pod's mode; a what-if toggle does too, without editing", async ({ page }) => {
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

  // Now edit the YAML, with the view split beside the file: the client namespace's label
  // goes from ambient to none.
  await page.getByTestId('view-split').click();
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
  await expect
    .poll(() => page.evaluate(() => window.__meshWorkbench?.editor?.value('namespaces.yaml') ?? ''))
    .toContain('name: client\n  labels:\n    istio.io/dataplane-mode: none');
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
  await form
    .getByTestId('dp-trace-from')
    .selectOption({ label: (await form.getByTestId('dp-trace-from').locator('option', { hasText: 'shop/web-istio-' }).textContent())! });
  await form.getByTestId('dp-trace-to').fill('products.shop.svc.cluster.local:80');
  await form.getByTestId('dp-trace-run').click();
  // No istio.io/ingress-use-waypoint on the Service: the gateway goes straight to the pods,
  // whose L4 policy admits only the client namespace and the waypoint.
  await expect(page.locator('[data-testid="dp-hop"][data-component="gateway"]').filter({ hasText: 'waypoint shop/waypoint is skipped' })).toHaveCount(1);
  await expect(page.getByTestId('dp-trace-verdict')).toContainText('DENY');
  await expect(page.locator('[data-testid="dp-hop"][data-component="ztunnel-inbound"][data-decision="DENY"]')).toHaveCount(1);
});

test("the inspector's tab sums up the data plane and opens the view in the main area", async ({ page }) => {
  await openSample(page, 'Ambient shop', 'waypoint.yaml');
  await page.getByTestId('inspector-tab-dataplane').click();
  await expect(page.getByTestId('dataplane-summary-counts')).toContainText(/\d+ pods on 2 nodes, 1 waypoint/);
  // The diagram is not in the inspector: only the summary and the button.
  await expect(page.getByTestId('dp-diagram')).toHaveCount(0);
  await expect(page.getByTestId('open-view-dataplane')).toHaveText('Open Data plane');
  await page.getByTestId('open-view-dataplane').click();
  const view = page.getByTestId('view-dataplane');
  await expect(view.getByTestId('dp-diagram')).toBeVisible();
  await expect(page.getByTestId('view-tab').filter({ hasText: 'Data plane' })).toHaveAttribute('aria-selected', 'true');
  // The view's counts are the summary's.
  const counts = (await view.getByTestId('dataplane-counts').textContent()) ?? '';
  expect(counts).toMatch(/^(\d+) pods:/);
});

/** WCAG contrast ratio of two CSS colours (`rgb(…)`). */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const x = Number(v) / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`${colorScheme} theme: every box's label and its second line are readable on the box (4.5:1)`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await loadAmbientSample(page);
    const boxes = page.locator('[data-testid="dp-pod"], [data-testid="dp-service"], [data-testid="dp-ztunnel"]');
    await expect(boxes.first()).toBeVisible();
    const pairs = await boxes.evaluateAll((gs) =>
      gs.flatMap((g) => {
        const fill = getComputedStyle(g.querySelector('rect')!).fill;
        return [...g.querySelectorAll('text')].map((t) => ({
          what: `${g.getAttribute('data-pod') ?? g.getAttribute('data-service') ?? g.getAttribute('data-node')} ${t.getAttribute('class')}`,
          text: getComputedStyle(t).fill,
          fill,
        }));
      }),
    );
    expect(pairs.length).toBeGreaterThan(10);
    const poor = pairs.filter((p) => contrast(p.text, p.fill) < 4.5).map((p) => `${p.what}: ${p.text} on ${p.fill} = ${contrast(p.text, p.fill).toFixed(2)}`);
    expect(poor).toEqual([]);
  });
}

test('names are shown whole: a long pod name wraps inside its box instead of being cut', async ({ page }) => {
  await loadAmbientSample(page);
  // A pod whose namespace/name is far longer than a box is wide.
  const long = 'a-deployment-with-a-really-long-name-for-the-diagram';
  const yaml = `apiVersion: v1\nkind: Pod\nmetadata: {name: ${long}, namespace: shop, labels: {app: long}}\nspec:\n  containers: [{name: app, image: app}]\n`;
  await page.getByTestId('upload-input').setInputFiles([{ name: 'long.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(yaml) }]);
  const box = page.locator(`[data-testid="dp-pod"][data-pod="shop/${long}"]`);
  await expect(box).toBeVisible();
  // Every pod's and Service's label, its lines put together, is its full name (no "…").
  const labels = await page.locator('[data-testid="dp-pod"]').evaluateAll((gs) =>
    gs.map((g) => ({
      pod: g.getAttribute('data-pod')!,
      role: g.getAttribute('data-role'),
      text: [...g.querySelectorAll('.dp-box-label tspan')].map((t) => t.textContent).join(''),
    })),
  );
  for (const l of labels.filter((x) => x.role !== 'waypoint')) expect(l.text).toBe(l.pod);
  const services = await page
    .locator('[data-testid="dp-service"]')
    .evaluateAll((gs) =>
      gs.map((g) => ({ key: g.getAttribute('data-service')!, text: [...g.querySelectorAll('.dp-box-label tspan')].map((t) => t.textContent).join('') })),
    );
  for (const s of services) expect(s.text).toBe(s.key.split('/')[1]);
  expect(await page.locator('[data-testid="dp-diagram"] text').allTextContents()).not.toContainEqual(expect.stringContaining('…'));
  // The long one takes several lines, each inside the box.
  const fit = await box.evaluate((g) => {
    const r = (g.querySelector('rect') as SVGRectElement).getBBox();
    return [...g.querySelectorAll('tspan')].map((t) => {
      const b = (t as SVGTSpanElement).getBBox();
      return { inside: b.x >= r.x && b.x + b.width <= r.x + r.width + 0.5 && b.y >= r.y && b.y + b.height <= r.y + r.height + 0.5 };
    });
  });
  expect(fit.length).toBeGreaterThan(2);
  expect(fit.every((f) => f.inside)).toBe(true);
});

test('the wide view lays the diagram out again when the window is resized, and Escape closes it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await loadAmbientSample(page);
  await page.getByTestId('dataplane-wide').click();
  await expect(page.getByTestId('dataplane')).toHaveClass(/dataplane-wide/);
  const svg = page.getByTestId('dp-diagram');
  const widthOf = async () => Number(await svg.getAttribute('width'));
  const before = await widthOf();
  // A much wider window: the nodes are packed flatter and the diagram gets wider.
  await page.setViewportSize({ width: 2200, height: 800 });
  await expect.poll(widthOf).toBeGreaterThan(before + 100);
  const wider = await widthOf();
  // Back to a narrow one: narrower again.
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect.poll(widthOf).toBeLessThan(wider);
  // Escape closes the wide view and gives the focus back to its button.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('dataplane')).not.toHaveClass(/dataplane-wide/);
  await expect(page.getByTestId('dataplane-wide')).toBeFocused();
  await expect(page.getByTestId('dataplane-wide')).toHaveText('Wide view');
});
