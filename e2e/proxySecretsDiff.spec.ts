// The Proxy config tab's Secrets and Compare dump views, used as an operator would: open the
// gateway sample (Certificates), pick the ingress gateway, see its TLS credential's certificate
// and Istio's own certificates in the Secrets table; then paste a real config dump (one of
// istioctl's test dumps) and upload another, and see how each differs from the generated config.
import { readFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { openSample } from './samples.ts';
import { openView } from './views.ts';

const CORPUS = '/work/shared/conformance/xds/istioctl/pkg/';
const ROUTE_DUMP = `${CORPUS}writer/envoy/configdump/testdata/routes/istio-gateway-http-route-prefix/configdump.json`;
const WAYPOINT_DUMP = `${CORPUS}proxyconfig/testdata/config_dump.json`;
const GATEWAY = 'istio-ingressgateway-5d8f7c9b4-x2k7q.istio-system';

/** The Certificates sample, and the Proxy config view on its ingress gateway. */
async function openGatewaySample(page: Page): Promise<void> {
  await openSample(page, /^Certificates/, 'gateway.yaml');
  const view = await openView(page, 'proxy');
  await view.getByTestId('proxy-picker').selectOption(GATEWAY);
}

test('gateway secrets: the credential from the workspace Secret, Istio certificates issued at run time', async ({ page }) => {
  await openGatewaySample(page);
  const panel = page.getByTestId('proxy-config');
  await panel.getByTestId('proxy-tab-secrets').click();
  const table = panel.getByTestId('proxy-table-secrets');
  await expect(table.locator('th')).toHaveText(['RESOURCE NAME', 'TYPE', 'STATUS', 'VALID CERT', 'SERIAL NUMBER', 'NOT AFTER', 'NOT BEFORE', 'SOURCE']);
  const credential = table.getByTestId('proxy-row').filter({ hasText: 'kubernetes://shop-credential' });
  await expect(credential).toHaveCount(1);
  const cells = credential.locator('td');
  await expect(cells.nth(1)).toHaveText('Cert Chain');
  await expect(cells.nth(2)).toHaveText('ACTIVE');
  // The sample's credential expired on 2024-01-01.
  await expect(cells.nth(3)).toHaveText('false');
  await expect(cells.nth(4)).toHaveText(/^[0-9a-f]{32}$/);
  await expect(cells.nth(5)).toHaveText('2024-01-01T00:00:00Z');
  await expect(cells.nth(7)).toHaveText('Secret istio-system/shop-credential');
  const root = table.getByTestId('proxy-row').filter({ hasText: 'ROOTCA' });
  await expect(root).toContainText('issued at run time by istiod (not in the workspace)');
  // Its certificate does not exist before the proxy runs: not "false" (invalid), but said so.
  await expect(root.locator('td').nth(3)).toHaveText('issued at run time');

  // A click shows its JSON: the certificate, but never the private key.
  await credential.click();
  await expect(panel.getByTestId('proxy-json')).toContainText('"certificateChain"');
  await expect(panel.getByTestId('proxy-json')).toContainText('W3JlZGFjdGVkXQ==');

  // A double-click leads to the Secret in gateway.yaml.
  await credential.dblclick();
  await expect(page.getByTestId('tab').filter({ hasText: 'gateway.yaml' })).toHaveAttribute('aria-selected', 'true');
  const text = await page.evaluate(() => window.__meshWorkbench?.editor?.value('gateway.yaml') ?? '');
  const line = Number(/^Ln (\d+)/.exec((await page.getByTestId('cursor-position').textContent()) ?? '')?.[1]);
  const secretAt = text.split('\n').indexOf('  name: shop-credential') + 1;
  expect(Math.abs(line - secretAt)).toBeLessThanOrEqual(3);
});

test('compare a pasted and an uploaded config dump with the generated gateway config', async ({ page }) => {
  await openGatewaySample(page);
  const panel = page.getByTestId('proxy-config');
  await panel.getByTestId('proxy-tab-dump').click();
  const dump = panel.getByTestId('proxy-dump');

  // Paste: the dump becomes a workspace file and is compared at once.
  await dump.getByTestId('dump-paste').fill(readFileSync(ROUTE_DUMP, 'utf8'));
  await dump.getByTestId('dump-add').click();
  await expect(page.locator('[data-testid="file-item"][data-path="config_dump.json"]')).toBeVisible();
  await expect(dump.getByTestId('dump-file')).toHaveValue('config_dump.json');
  // The dump's gateway serves http.8080; the workspace's serves HTTPS on 443.
  const onlyDump = dump.getByTestId('dump-row').and(page.locator('[data-status="only-in-dump"]'));
  await expect(onlyDump.filter({ hasText: 'http.8080' })).toHaveCount(1);
  const onlyGenerated = dump.getByTestId('dump-row').and(page.locator('[data-status="only-generated"]'));
  await expect(onlyGenerated.filter({ hasText: '0.0.0.0_8443' })).toHaveCount(1);
  await expect(dump.getByTestId('dump-counts')).toContainText('route');
  // The generated listener links to the Gateway that makes it.
  const listener = onlyGenerated.filter({ hasText: '0.0.0.0_8443' });
  await expect(listener.getByTestId('dump-source').first()).toContainText('Gateway istio-system/shop-gateway');
  // The dump itself, in istioctl's tables.
  await dump.getByTestId('dump-view-tables').click();
  // This dump holds routes only: the listeners table says so, as istioctl would.
  await expect(dump.getByTestId('dump-tables')).toContainText('config dump has no configuration type type.googleapis.com/envoy.admin.v3.ListenersConfigDump');
  await dump.getByTestId('dump-tab-routes').click();
  await expect(dump.getByTestId('proxy-table-routes').getByTestId('proxy-row').filter({ hasText: 'httpbin.example.com:80' })).toContainText('/get*');
  await dump.getByTestId('dump-view-diff').click();
  // A dump file is not reported as a broken Kubernetes object.
  await expect(page.getByTestId('problem-row').filter({ hasText: 'config_dump.json' })).toHaveCount(0);

  // Upload: a waypoint's dump, which says which proxy it came from.
  await dump.getByTestId('dump-upload').setInputFiles(WAYPOINT_DUMP);
  await expect(dump.getByTestId('dump-file')).toHaveValue('config_dump-2.json');
  await expect(dump.getByTestId('dump-other-proxy')).toContainText('httpbin-istio-waypoint-58f646c5ff-dbfkz.default');
  await expect(onlyDump.filter({ hasText: 'main_internal' })).toHaveCount(1);
  await dump.getByTestId('dump-filter').selectOption('only-in-dump');
  await expect(onlyGenerated).toHaveCount(0);
});

test("the review summary lists the gateway's Envoy config an edit changes", async ({ page }) => {
  await openGatewaySample(page);
  await page.getByTestId('review-button').click();
  const review = page.getByTestId('view-review');
  await review.getByTestId('pin-baseline').click();
  await expect(review.getByTestId('review-section-xds')).toContainText('None.');
  // Back to the file.
  await page.getByTestId('tab').filter({ hasText: 'gateway.yaml' }).click();

  // Serve another host: edit gateway.yaml's `- shop.example.com` to `- shop.example.org`.
  const text = await page.evaluate(() => window.__meshWorkbench?.editor?.value('gateway.yaml') ?? '');
  const hostLine = text.split('\n').indexOf('    - shop.example.com') + 1;
  expect(hostLine).toBeGreaterThan(0);
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 1; i < hostLine; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type('org');
  await expect.poll(() => page.evaluate(() => (window.__meshWorkbench?.editor?.value('gateway.yaml') ?? '').includes('- shop.example.org\n'))).toBe(true);

  await page.getByTestId('review-button').click();
  await review.getByTestId('review-source').selectOption('baseline');
  const xds = review.getByTestId('review-section-xds');
  // The TLS filter chain now matches the new SNI; nothing else of the gateway changes.
  await expect(xds).toContainText(
    `~ ${GATEWAY}: listener 0.0.0.0_8443: filterChains[0].filterChainMatch.serverNames[0]: "shop.example.com" → "shop.example.org"`,
  );
  await expect(xds.locator('li').filter({ hasText: GATEWAY })).toHaveCount(1);
});
