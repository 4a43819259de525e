// The Proxy config view for a waypoint: on the ambient sample, pick the shop's waypoint and
// see its main_internal listener with a chain per Service it serves (the L7 policy on the
// products chain), its inbound-vip clusters, the endpoints reached over HBONE, and a simulated
// request through it.
import { test, expect, type Page } from '@playwright/test';
import { openSample } from './samples.ts';
import { openView } from './views.ts';

async function loadAmbientSample(page: Page): Promise<void> {
  await openSample(page, 'Ambient shop', 'waypoint.yaml');
}

test('the shop waypoint: main_internal chains per Service, inbound-vip clusters, HBONE endpoints', async ({ page }) => {
  await loadAmbientSample(page);
  const panel = await openView(page, 'proxy');
  const picker = panel.getByTestId('proxy-picker');
  const option = picker.locator('option', { hasText: '(waypoint)' });
  await expect(option).toHaveCount(1);
  await expect(option).toContainText('.shop');
  await picker.selectOption((await option.getAttribute('value'))!);
  await expect(panel.getByTestId('proxy-synthetic')).toContainText('derived');

  // Listeners: istioctl's --waypoint view.
  await panel.getByTestId('proxy-tab-listeners').click();
  const listeners = panel.getByTestId('proxy-table-listeners');
  await expect(listeners.locator('th')).toHaveText(['LISTENER', 'CHAIN', 'MATCH', 'DESTINATION']);
  const products = listeners.getByTestId('proxy-row').filter({ hasText: 'inbound-vip|80|http|products.shop.svc.cluster.local' });
  await expect(products).toHaveCount(1);
  await expect(products).toContainText('envoy://main_internal');
  await expect(products).toContainText(/ip=[\d.]+ -> port=80/);
  await expect(listeners.getByTestId('proxy-row').filter({ hasText: 'envoy://connect_terminate' })).toHaveCount(1);
  await expect(listeners.getByTestId('proxy-row').filter({ hasText: 'inbound-vip|9090|http|cart.shop.svc.cluster.local' })).toHaveCount(1);

  // The products chain carries the DENY policy that targets the products Service.
  await products.click();
  await expect(panel.getByTestId('proxy-json')).toContainText('envoy.filters.http.rbac');
  await expect(panel.getByTestId('proxy-sources')).toContainText('AuthorizationPolicy shop/products-read-only');

  // Clusters: inbound-vip per service port; HBONE plumbing; no BlackHole.
  await panel.getByTestId('proxy-tab-clusters').click();
  const clusters = panel.getByTestId('proxy-table-clusters');
  const vip = clusters.getByTestId('proxy-row').filter({ hasText: 'products.shop.svc.cluster.local' });
  await expect(vip).toHaveCount(1);
  await expect(vip).toContainText('inbound-vip');
  await expect(vip).toContainText('http');
  for (const name of ['main_internal', 'encap', 'connect_originate'])
    await expect(clusters.getByTestId('proxy-row').filter({ hasText: name })).not.toHaveCount(0);
  await expect(clusters.getByTestId('proxy-row').filter({ hasText: 'BlackHoleCluster' })).toHaveCount(0);

  // Endpoints: the ambient products pods through connect_originate (HBONE).
  await panel.getByTestId('proxy-tab-endpoints').click();
  const eps = panel.getByTestId('proxy-table-endpoints').getByTestId('proxy-row').filter({ hasText: 'inbound-vip|80|http|products.shop.svc.cluster.local' });
  await expect(eps).toHaveCount(2);
  await expect(eps.first()).toContainText('envoy://connect_originate/');

  // Simulate a request through the waypoint: main_internal's matcher picks the products chain.
  await panel.getByTestId('proxy-tab-simulate').click();
  await panel.getByTestId('sim-method').selectOption('GET');
  await panel.getByTestId('sim-host').fill('products.shop.svc.cluster.local');
  await panel.getByTestId('sim-port').fill('80');
  await panel.getByTestId('sim-path').fill('/items');
  await panel.getByTestId('sim-run').click();
  const result = panel.getByTestId('sim-result');
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result.getByTestId('sim-step-filterChain')).toContainText('inbound-vip|80|http|products.shop.svc.cluster.local');
  await expect(result.getByTestId('sim-step-cluster')).toContainText('inbound-vip|80|http|products.shop.svc.cluster.local');

  // POST is denied by the L7 policy on the products Service.
  await panel.getByTestId('sim-method').selectOption('POST');
  await panel.getByTestId('sim-run').click();
  await expect(result).toHaveAttribute('data-ok', 'false');
  await expect(result).toContainText('shop/products-read-only');
});
