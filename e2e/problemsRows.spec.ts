// The Problems panel's rows: the file:line a row shows and where a click lands agree, or the
// row says where the click lands and why; a finding on a workload with a proxy opens that
// proxy's generated Envoy config in the Proxy config view.
import { readFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';

async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.getByTestId('file-item')).toHaveCount(5);
  await expect(page.getByTestId('last-analysis')).toBeVisible();
}

/** A Deployment in bookinfo with no pods written out: its pod is derived (tests/queries/xds.test.ts uses it too). */
const EXTRA = readFileSync(new URL('../tests/fixtures/bookinfo-extra/extra-deployment.yaml', import.meta.url), 'utf8');

test("IST0162: the row shows istioctl's line and the line a click selects, and the click lands there", async ({ page }) => {
  await openApp(page);
  const row = page.getByTestId('problem-row').filter({ hasText: 'IST0162' });
  await expect(row).toHaveCount(1);
  // istioctl points IST0162 at the Gateway's selector (line 100); the message is about the
  // server's port 9000 (line 103), which is what a click selects.
  await expect(row.getByTestId('problem-location')).toHaveText('networking.yaml:100');
  await expect(row.getByTestId('problem-field-line')).toHaveText('→ 103');
  await expect(row.getByTestId('problem-field-line')).toHaveAttribute(
    'title',
    'A click selects the field the message is about, which starts on line 103; istioctl prints line 100',
  );
  await row.click();
  await expect(page.getByTestId('cursor-position')).toHaveText(/^Ln 103, Col \d+$/);
  // A row whose field is on the line shown says nothing more, and its click lands on that line.
  const same = page.getByTestId('problem-row').filter({ hasText: 'reviews2' });
  await expect(same.getByTestId('problem-location')).toHaveText('networking.yaml:57');
  await expect(same.getByTestId('problem-field-line')).toHaveCount(0);
  await same.click();
  await expect(page.getByTestId('cursor-position')).toHaveText(/^Ln 57, Col \d+$/);
});

test("a finding on a Deployment with sidecars opens its proxy's Envoy config; one on an Istio Gateway offers none", async ({ page }) => {
  await openApp(page);
  await page.getByTestId('upload-input').setInputFiles([{ name: 'extra.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(EXTRA) }]);
  // IST0107: the inject annotation belongs on the pod template, not the Deployment.
  const row = page.getByTestId('problem-row').filter({ hasText: 'IST0107' }).filter({ hasText: 'Deployment bookinfo/extra' });
  await expect(row).toHaveCount(1);
  await row.hover();
  const button = row.getByTestId('envoy-config-button');
  await expect(button).toBeVisible();
  await expect(button).toHaveText('Envoy config');
  await expect(button).toHaveAccessibleName(/^Show the Envoy config of Deployment bookinfo\/extra \(proxy extra-[a-z0-9]+-[a-z0-9]{5}\.bookinfo\)$/);
  const proxy = (await button.getAttribute('data-proxy'))!;
  expect(proxy).toMatch(/^extra-[a-z0-9]+-[a-z0-9]{5}\.bookinfo$/);
  // The Istio Gateway configures the ingress gateway; it is no workload of its own.
  const gw = page.getByTestId('problem-row').filter({ hasText: 'IST0162' });
  await gw.hover();
  await expect(gw.getByTestId('envoy-config-button')).toHaveCount(0);

  await row.hover();
  await button.click();
  await expect(page.getByTestId('view-proxy')).toBeVisible();
  await expect(page.getByTestId('view-tab').filter({ hasText: 'Proxy config' })).toHaveAttribute('aria-selected', 'true');
  // The view's picked proxy is that workload's (the Proxy config view keeps it in localStorage).
  await expect
    .poll(() => page.evaluate(() => (JSON.parse(localStorage.getItem('mesh-workbench/proxy-view/v1') ?? '{}') as { proxy?: string }).proxy))
    .toBe(proxy);
});
