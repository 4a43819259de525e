// Route tests in the Proxy config tab: the Bookinfo sample's route-test file runs and passes;
// after the reviews weights are edited, the split test fails with the reason, and its name
// leads to the test's line in the file.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { openSample } from './samples.ts';
import { openView } from './views.ts';

async function loadBookinfo(page: Page): Promise<void> {
  await openSample(page, /^Bookinfo(?! with)/, 'route-tests.yaml');
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
}

/** Back to the view after the editor showed a file (its tab beside the files). */
async function showView(page: Page): Promise<void> {
  await page.locator('[data-testid="view-tab"][data-view="proxy"]').click();
  await expect(page.getByTestId('view-proxy')).toBeVisible();
}

async function cursorLine(page: Page): Promise<number> {
  const cursor = await page.getByTestId('cursor-position').textContent();
  return Number(/^Ln (\d+)/.exec(cursor ?? '')?.[1]);
}

test('run the Bookinfo route tests, see them pass, break the reviews split and see which test fails and why', async ({ page }) => {
  await loadBookinfo(page);
  const panel = await openView(page, 'proxy');
  await panel.getByTestId('proxy-tab-routeTests').click();
  const view = panel.getByTestId('route-tests');
  await expect(view.getByTestId('route-tests-file')).toHaveValue('route-tests.yaml');
  await view.getByTestId('route-tests-run').click();

  const summary = view.getByTestId('route-tests-summary');
  await expect(summary).toHaveText('5 passed, 5 total');
  const rows = view.getByTestId('route-test');
  await expect(rows).toHaveCount(5);
  await expect(rows.filter({ has: page.locator('[data-passed="false"]') })).toHaveCount(0);
  await expect(view.locator('[data-testid="route-test"][data-passed="true"]')).toHaveCount(5);
  await expect(rows.first()).toContainText('reviews is split 75/25 between v1 and v2');

  // Edit the reviews VirtualService beside the view: 75/25 becomes 50/50.
  await panel.getByTestId('view-split').click();
  await page.locator('[data-testid="file-item"][data-path="networking.yaml"]').click();
  await expect(page.getByTestId('tab').filter({ hasText: 'networking.yaml' })).toHaveAttribute('aria-selected', 'true');
  const text = await page.evaluate(() => window.__meshWorkbench?.editor?.value('networking.yaml') ?? '');
  const lines = text.split('\n');
  const weightLine = lines.findIndex((l) => l.trim() === 'weight: 75') + 1;
  expect(weightLine).toBeGreaterThan(0);
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 1; i < weightLine; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('50');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('50');
  await expect.poll(() => page.evaluate(() => (window.__meshWorkbench?.editor?.value('networking.yaml') ?? '').match(/weight: 50\n/g)?.length ?? 0)).toBe(2);

  // The results follow the edit: the split test fails, with the weights it got.
  await expect(summary).toHaveText('1 failed, 4 passed, 5 total');
  const failed = view.locator('[data-testid="route-test"][data-passed="false"]');
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText('reviews is split 75/25 between v1 and v2');
  await expect(failed.getByTestId('route-test-reason').first()).toContainText('outbound|9080|v1|reviews.bookinfo.svc.cluster.local 50%');
  await expect(failed.getByTestId('route-test-reason').first()).toContainText('from productpage-v1');
  // The results, failure included, have no serious or critical accessibility problem.
  const axe = await new AxeBuilder({ page }).include('[data-testid="route-tests"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // Its name opens the test file at the test.
  await failed.getByRole('button', { name: 'reviews is split 75/25 between v1 and v2' }).click();
  await expect(page.getByTestId('tab').filter({ hasText: 'route-tests.yaml' })).toHaveAttribute('aria-selected', 'true');
  const tests = await page.evaluate(() => window.__meshWorkbench?.editor?.value('route-tests.yaml') ?? '');
  const testLine = tests.split('\n').findIndex((l) => l.includes('description: reviews is split')) + 1;
  await expect.poll(() => cursorLine(page)).toBe(testLine);
});

const POLICY = `# Only productpage may read reviews, and nobody may DELETE.
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata:
  name: reviews-readers
  namespace: bookinfo
spec:
  selector:
    matchLabels:
      app: reviews
  action: ALLOW
  rules:
    - from:
        - source:
            principals: ["cluster.local/ns/bookinfo/sa/bookinfo-productpage"]
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata:
  name: no-delete
  namespace: bookinfo
spec:
  selector:
    matchLabels:
      app: reviews
  action: DENY
  rules:
    - to:
        - operation:
            methods: ["DELETE"]
`;

test('the simulator gives the RBAC verdict at the destination and links to the policy responsible', async ({ page }) => {
  await loadBookinfo(page);
  await page.getByTestId('upload-input').setInputFiles([{ name: 'authz.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(POLICY) }]);
  await expect(page.locator('[data-testid="file-item"][data-path="authz.yaml"]')).toBeVisible();
  const panel = await openView(page, 'proxy');
  const picker = panel.getByTestId('proxy-picker');
  const simulateFrom = async (who: string, method: string) => {
    await showView(page);
    const id = await picker.locator('option', { hasText: who }).first().getAttribute('value');
    await picker.selectOption(id!);
    await panel.getByTestId('proxy-tab-simulate').click();
    await panel.getByTestId('sim-method').selectOption(method);
    await panel.getByTestId('sim-host').fill('reviews');
    await panel.getByTestId('sim-port').fill('9080');
    await panel.getByTestId('sim-path').fill('/reviews/1');
    await panel.getByTestId('sim-run').click();
    return panel.getByTestId('sim-result');
  };

  // productpage reads reviews: allowed by the ALLOW policy, over mTLS with its identity.
  let result = await simulateFrom('productpage-v1', 'GET');
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result.getByTestId('sim-step-rbac').first()).toContainText('RBAC allowed by AuthorizationPolicy bookinfo/reviews-readers');
  await expect(result.getByTestId('sim-step-rbac').first()).toContainText('spiffe://cluster.local/ns/bookinfo/sa/bookinfo-productpage');

  // A DELETE is denied by the DENY policy; the step opens the policy's rule.
  result = await simulateFrom('productpage-v1', 'DELETE');
  await expect(result).toHaveAttribute('data-ok', 'false');
  await expect(result.getByTestId('sim-failure')).toHaveText('RBAC: access denied');
  const deny = result.getByTestId('sim-step-rbac').first();
  await expect(deny).toContainText('denied by AuthorizationPolicy bookinfo/no-delete');
  await deny.getByRole('button').click();
  await expect(page.getByTestId('tab').filter({ hasText: 'authz.yaml' })).toHaveAttribute('aria-selected', 'true');
  const rule = POLICY.split('\n').findIndex((l, i, all) => l.trim() === '- to:' && all.slice(0, i).some((x) => x.includes('name: no-delete'))) + 1;
  await expect.poll(() => cursorLine(page)).toBe(rule);

  // ratings calling reviews has another identity: no ALLOW rule matches.
  result = await simulateFrom('ratings-v1', 'GET');
  await expect(result.getByTestId('sim-failure')).toHaveText('RBAC: access denied');
  await expect(result.getByTestId('sim-step-rbac').first()).toContainText('no rule of the ALLOW policy bookinfo/reviews-readers matches');
});
