// The Proxy config view in the main area (issue #31), as a platform engineer uses it next to
// istioctl: the Routes table shows all of istioctl's columns without scrolling the page at
// 1400×900 and at 1024×768; one click on a route shows its JSON beside or below it; each
// sub-tab keeps its own selected row, filter and scroll (also after a reload); the keyboard
// moves through rows; a route that sends 20% of requests to a subset the DestinationRule lacks
// is marked with its 503 NC share, a Service without pods with 503 UH; header matches
// istioctl's MATCH omits are shown under it.
import { test, expect, type Page, type Locator } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { openSample } from './samples.ts';
import { openView } from './views.ts';
import { fileText, missingSubsetWorkspace, V3 } from './missingSubset.ts';

const REVIEWS_VHOST = 'reviews.bookinfo.svc.cluster.local:9080';

/** Opens the view on the productpage sidecar's Routes. */
async function productpageRoutes(page: Page): Promise<Locator> {
  const view = await openView(page, 'proxy');
  const picker = view.getByTestId('proxy-picker');
  const productpage = await picker.locator('option', { hasText: 'productpage-v1' }).getAttribute('value');
  await picker.selectOption(productpage!);
  await view.getByTestId('proxy-tab-routes').click();
  await expect(view.getByTestId('proxy-table-routes').getByTestId('proxy-row').first()).toBeVisible();
  return view;
}

for (const size of [
  { width: 1400, height: 900 },
  { width: 1024, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`at ${size.width}×${size.height}: istioctl's route columns fit, one click shows a route's JSON, the 20% route to a missing subset is marked 503 NC, and each sub-tab keeps its own open row`, async ({
    page,
  }) => {
    // The workspace is edited in a wide window (below 1,100 px the file list is a drawer), then the window takes its size.
    await page.setViewportSize({ width: 1400, height: 900 });
    await missingSubsetWorkspace(page);
    const view = await productpageRoutes(page);
    // The inspector's summary counts the rows that fail requests.
    await expect(page.getByTestId('proxy-summary').getByTestId('proxy-summary-findings')).toHaveText(/^\d+ rows? failing requests$/);
    await page.setViewportSize(size);
    const table = view.getByTestId('proxy-table-routes');

    // Every istioctl column, then ours; all on screen, no sideways scrolling of the page or the table.
    await expect(table.locator('th')).toHaveText(['NAME', 'VHOST NAME', 'DOMAINS', 'MATCH', 'VIRTUAL SERVICE', 'ROUTE TO']);
    const box = (await table.locator('xpath=..').boundingBox())!;
    for (const th of await table.locator('th').all()) {
      await expect(th).toBeVisible();
      const b = (await th.boundingBox())!;
      expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width + 1);
    }
    const page_ = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, client: document.scrollingElement!.clientWidth }));
    expect(page_.scroll).toBeLessThanOrEqual(page_.client);
    const fit = await table.evaluate((el) => ({ table: el.scrollWidth, container: el.parentElement!.clientWidth }));
    expect(fit.table).toBeLessThanOrEqual(fit.container);

    // The reviews route is marked: 503 NC for the 20% that goes to subset v3.
    const reviews = table.getByTestId('proxy-row').filter({ hasText: REVIEWS_VHOST });
    await expect(reviews).toHaveCount(1);
    await expect(reviews).toContainText(`${V3} 20%`);
    const finding = reviews.getByTestId('proxy-row-finding');
    await expect(finding).toHaveText(/Problem: 503 NC \(no cluster\) for 20% of requests/);
    await expect(finding).toHaveAttribute('data-flag', 'NC');

    // One click: the row is selected and its JSON, findings and sources show beside or below it, on screen.
    await reviews.click();
    await expect(reviews).toHaveAttribute('aria-selected', 'true');
    const json = view.getByTestId('proxy-json');
    await expect(json).toContainText('"weightedClusters"');
    await expect(json).toContainText(V3);
    await expect(json).toBeInViewport();
    await expect(reviews).toBeInViewport();
    await expect(view.getByTestId('proxy-detail-finding')).toContainText('503 NC (no cluster) for 20% of requests');
    await expect(view.getByTestId('proxy-detail-finding')).toContainText('Istio routes to subset v3 of reviews.bookinfo.svc.cluster.local');
    await expect(view.getByTestId('proxy-sources')).toContainText('VirtualService bookinfo/reviews');
    // The detail pane is not inside the table: beside it in a view of 1,100 px or more, else below it.
    await expect(table.getByTestId('proxy-json')).toHaveCount(0);
    const tableBox = (await table.locator('xpath=..').boundingBox())!;
    const detailBox = (await view.getByTestId('proxy-detail').boundingBox())!;
    const viewWidth = (await view.getByTestId('proxy-config').boundingBox())!.width;
    if (viewWidth >= 1100) expect(detailBox.x).toBeGreaterThanOrEqual(tableBox.x + tableBox.width);
    else expect(detailBox.y).toBeGreaterThanOrEqual(tableBox.y + tableBox.height);
    await page.screenshot({ path: test.info().outputPath(`proxy-view-${size.width}.png`) });
    // No serious or critical accessibility problem, in either theme.
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const axe = await new AxeBuilder({ page }).include('[data-testid="view-proxy"]').analyze();
      expect(
        axe.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${colorScheme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // Sub-tabs keep their own open row at this size too: Clusters opens one of its own, and
    // back on Routes the reviews route is still the open one (and Clusters' row, on return).
    await view.getByTestId('proxy-tab-clusters').click();
    await expect(view.locator('[data-testid="proxy-row"][aria-selected="true"]')).toHaveCount(0);
    const cluster = view
      .getByTestId('proxy-table-clusters')
      .getByTestId('proxy-row')
      .filter({ hasText: 'reviews.bookinfo.svc.cluster.local' })
      .filter({ hasText: 'v1' })
      .first();
    await cluster.click();
    await expect(cluster).toHaveAttribute('aria-selected', 'true');
    await view.getByTestId('proxy-tab-routes').click();
    await expect(reviews).toHaveAttribute('aria-selected', 'true');
    await expect(view.getByTestId('proxy-json')).toContainText(V3);
    await view.getByTestId('proxy-tab-clusters').click();
    await expect(cluster).toHaveAttribute('aria-selected', 'true');
    await view.getByTestId('proxy-tab-routes').click();

    // The finding leads to the VirtualService that made the route.
    await finding.getByRole('button').click();
    await expect(page.getByTestId('tab').filter({ hasText: 'networking.yaml' })).toHaveAttribute('aria-selected', 'true');
    const cursor = await page.getByTestId('cursor-position').textContent();
    const line = Number(/^Ln (\d+)/.exec(cursor ?? '')?.[1]);
    const lines = (await fileText(page, 'networking.yaml')).split('\n');
    const vsStart = lines.indexOf('  name: reviews') + 1;
    expect(line).toBeGreaterThan(vsStart);
    expect(line).toBeLessThan(vsStart + lines.slice(vsStart).indexOf('---') + 1);
  });
}

test('each sub-tab keeps its own selected row and filter, after a reload too; arrows, Home, End and Enter work on the rows', async ({ page }) => {
  await openSample(page, /^Bookinfo(?! with)/, 'networking.yaml');
  const view = await productpageRoutes(page);
  const routes = view.getByTestId('proxy-table-routes').getByTestId('proxy-row');

  // Routes: the third row is opened, and the table scrolled down with the mouse wheel.
  await routes.nth(2).click();
  await expect(routes.nth(2)).toHaveAttribute('aria-selected', 'true');
  const routeJson = await view.getByTestId('proxy-json').textContent();
  const scroller = view.getByTestId('proxy-pane-routes').locator('.pc-table-scroll');
  await routes.nth(1).hover();
  await page.mouse.wheel(0, 120);
  await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  const scrolled = await scroller.evaluate((el) => el.scrollTop);

  // Clusters: nothing is open there; open the reviews v2 cluster and filter.
  await view.getByTestId('proxy-tab-clusters').click();
  const clusters = view.getByTestId('proxy-table-clusters').getByTestId('proxy-row');
  await expect(clusters.first()).toBeVisible();
  await expect(view.locator('[data-testid="proxy-row"][aria-selected="true"]')).toHaveCount(0);
  await expect(view.getByTestId('proxy-detail-empty')).toBeVisible();
  await view.getByTestId('proxy-filter').fill('reviews');
  const v2 = clusters.filter({ hasText: 'v2' }).first();
  await v2.click();
  await expect(view.getByTestId('proxy-json')).toContainText('outbound|9080|v2|reviews.bookinfo.svc.cluster.local');

  // Back to Routes: its own row is still the open one, scrolled as it was, with no filter.
  await view.getByTestId('proxy-tab-routes').click();
  await expect(routes.nth(2)).toHaveAttribute('aria-selected', 'true');
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(scrolled);
  await expect(view.getByTestId('proxy-json')).toHaveText(routeJson!);
  await expect(view.getByTestId('proxy-filter')).toHaveValue('');

  // The keyboard: down moves the selection, End goes to the last row, Home to the first.
  await routes.nth(2).focus();
  await page.keyboard.press('ArrowDown');
  await expect(routes.nth(3)).toHaveAttribute('aria-selected', 'true');
  await expect(routes.nth(3)).toBeFocused();
  await page.keyboard.press('End');
  await expect(routes.last()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Home');
  await expect(routes.first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(routes.nth(2)).toHaveAttribute('aria-selected', 'true');

  // After a reload the view comes back with each table as it was.
  await page.reload();
  const again = page.getByTestId('view-proxy');
  await expect(again).toBeVisible();
  await expect(again.getByTestId('proxy-table-routes').getByTestId('proxy-row').nth(2)).toHaveAttribute('aria-selected', 'true');
  await again.getByTestId('proxy-tab-clusters').click();
  await expect(again.getByTestId('proxy-filter')).toHaveValue('reviews');
  await expect(again.locator('[data-testid="proxy-row"][aria-selected="true"]')).toContainText('v2');

  // Enter on a route opens the config line that made it.
  await again.getByTestId('proxy-tab-routes').click();
  const reviews = again.getByTestId('proxy-table-routes').getByTestId('proxy-row').filter({ hasText: REVIEWS_VHOST });
  await reviews.click();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tab').filter({ hasText: 'networking.yaml' })).toHaveAttribute('aria-selected', 'true');
});

test("header conditions istioctl's MATCH leaves out are shown under it, so two productpage routes no longer look alike", async ({ page }) => {
  await openSample(page, /^Bookinfo(?! with)/, 'networking.yaml');
  // The reporter's canary: requests of user jason to productpage get a shorter timeout.
  const vs = [
    'apiVersion: networking.istio.io/v1',
    'kind: VirtualService',
    'metadata:',
    '  name: productpage-canary',
    '  namespace: bookinfo',
    'spec:',
    '  hosts: [productpage]',
    '  http:',
    '  - match:',
    '    - headers:',
    '        end-user:',
    '          exact: jason',
    '    timeout: 2s',
    '    route:',
    '    - destination: {host: productpage}',
    '  - route:',
    '    - destination: {host: productpage}',
    '',
  ].join('\n');
  await page.getByTestId('upload-input').setInputFiles([{ name: 'productpage-jason.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(vs) }]);
  await expect(page.locator('[data-testid="file-item"][data-path="productpage-jason.yaml"]')).toBeVisible();
  const view = await productpageRoutes(page);
  const rows = view.getByTestId('proxy-table-routes').getByTestId('proxy-row').filter({ hasText: 'productpage.bookinfo.svc.cluster.local:9080' });
  await expect(rows).toHaveCount(2);
  // istioctl prints /* for both; the header condition is under the first one's MATCH.
  await expect(rows.nth(0).locator('td').nth(3)).toContainText('/*');
  await expect(rows.nth(1).locator('td').nth(3)).toHaveText('/*');
  await expect(rows.nth(0).getByTestId('proxy-match-extra')).toHaveText('header end-user = jason');
  await expect(rows.nth(1).getByTestId('proxy-match-extra')).toHaveCount(0);
  // The filter finds the routes by their condition (the productpage virtual host is in more than one route config).
  const all = await view.getByTestId('proxy-table-routes').getByTestId('proxy-row').count();
  await view.getByTestId('proxy-filter').fill('jason');
  const found = view.getByTestId('proxy-table-routes').getByTestId('proxy-row');
  await expect(found.first()).toBeVisible();
  expect(await found.count()).toBeLessThan(all);
  await expect(found.filter({ hasNot: page.getByText('header end-user = jason') })).toHaveCount(0);
  await expect(found.filter({ hasText: 'productpage.bookinfo.svc.cluster.local:9080' })).toHaveCount(1);
});

test('a Service no pod backs: its cluster and route are marked 503 UH, and Endpoints says which cluster has none', async ({ page }) => {
  await openSample(page, /^Bookinfo(?! with)/, 'networking.yaml');
  const orders =
    'apiVersion: v1\nkind: Service\nmetadata:\n  name: orders\n  namespace: bookinfo\nspec:\n  selector:\n    app: orders\n  ports:\n  - name: http\n    port: 8080\n';
  await page.getByTestId('upload-input').setInputFiles([{ name: 'orders.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(orders) }]);
  await expect(page.locator('[data-testid="file-item"][data-path="orders.yaml"]')).toBeVisible();
  const view = await productpageRoutes(page);
  const cluster = 'outbound|8080||orders.bookinfo.svc.cluster.local';

  const route = view.getByTestId('proxy-table-routes').getByTestId('proxy-row').filter({ hasText: 'orders.bookinfo.svc.cluster.local:8080' });
  await expect(route.getByTestId('proxy-row-finding')).toHaveText(/503 UH \(no healthy upstream\) for 100% of requests/);

  await view.getByTestId('proxy-tab-clusters').click();
  const row = view.getByTestId('proxy-table-clusters').getByTestId('proxy-row').filter({ hasText: 'orders.bookinfo.svc.cluster.local' });
  await expect(row.getByTestId('proxy-row-finding')).toHaveText(/503 UH: no healthy upstream/);
  await row.click();
  await expect(view.getByTestId('proxy-detail-finding')).toContainText('EDS cluster with no endpoint');
  // Other clusters have their pods: not marked.
  await expect(
    view.getByTestId('proxy-table-clusters').getByTestId('proxy-row').filter({ hasText: 'reviews.bookinfo' }).getByTestId('proxy-row-finding'),
  ).toHaveCount(0);

  await view.getByTestId('proxy-tab-endpoints').click();
  await expect(view.getByTestId('proxy-table-note')).toContainText(
    `1 EDS cluster has no endpoint, so requests to it get 503 UH (no healthy upstream): ${cluster}`,
  );
  await expect(view.getByTestId('proxy-table-endpoints').getByTestId('proxy-row').filter({ hasText: cluster })).toHaveCount(0);
});
