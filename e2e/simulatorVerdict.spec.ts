// The request simulator's verdict, as the platform engineer of issue "views with room" met it:
// Bookinfo with mistakes, where the reviews VirtualService sends 20% of requests to subset v3
// and the reviews DestinationRule does not define v3. Istio still routes to
// outbound|9080|v3|reviews.bookinfo.svc.cluster.local but creates no such cluster, so Envoy's
// router finds no cluster and answers 503 with response flag NC for that share. The verdict
// sits above the steps and names the subset and the DestinationRule; the failing step is
// marked; step numbers of two digits are whole.
import { test, expect } from '@playwright/test';
import { openView } from './views.ts';
import { missingSubsetWorkspace, V3 } from './missingSubset.ts';

test('a 20% route to a subset no DestinationRule defines: the verdict on top names subset v3 and DestinationRule bookinfo/reviews', async ({ page }) => {
  await page.setViewportSize({ width: 1500, height: 1000 });
  await missingSubsetWorkspace(page);

  // Proxy config for the productpage sidecar, which calls reviews.
  const panel = await openView(page, 'proxy');
  const picker = panel.getByTestId('proxy-picker');
  const productpage = await picker.locator('option', { hasText: 'productpage-v1' }).getAttribute('value');
  await picker.selectOption(productpage!);
  await panel.getByTestId('proxy-tab-routes').click();
  await expect(panel.getByTestId('proxy-table-routes').getByTestId('proxy-row').filter({ hasText: 'reviews.bookinfo.svc.cluster.local:9080' })).toContainText(
    `${V3} 20%`,
  );

  // Simulate GET /reviews/1 to reviews:9080, typed in as a person would.
  await panel.getByTestId('proxy-tab-simulate').click();
  await panel.getByTestId('sim-method').selectOption('GET');
  await panel.getByTestId('sim-host').click();
  await page.keyboard.type('reviews');
  await panel.getByTestId('sim-port').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('9080');
  await panel.getByTestId('sim-path').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('/reviews/1');
  await panel.getByTestId('sim-run').click();

  const result = panel.getByTestId('sim-result');
  const verdict = result.getByTestId('sim-verdict');
  // The verdict: 20% fail with 503 NC, at the v3 cluster, because subset v3 is not in DestinationRule bookinfo/reviews.
  await expect(verdict).toHaveAttribute('data-outcome', 'partial');
  await expect(verdict.getByTestId('sim-verdict-summary')).toHaveText('Fails for 20% of requests (503)');
  await expect(verdict.getByTestId('sim-verdict-status')).toHaveText('503');
  await expect(verdict.getByTestId('sim-verdict-flag')).toHaveText(['NC']);
  await expect(verdict.getByTestId('sim-verdict-cause')).toHaveText([
    `20% of requests get 503 NC: subset v3 is not defined in DestinationRule bookinfo/reviews, so Istio creates no cluster ${V3}`,
  ]);
  await expect(verdict).not.toContainText('no service');

  // It comes first, above the steps, and is on screen without scrolling.
  const firstStep = result.locator('.sim-step').first();
  expect((await verdict.boundingBox())!.y).toBeLessThan((await firstStep.boundingBox())!.y);
  await expect(verdict).toBeInViewport();

  // The failing step, the v3 cluster, is in the verdict too, marked as failing, on screen as it is.
  const failingInVerdict = verdict.getByTestId('sim-verdict-step');
  await expect(failingInVerdict).toHaveText(`step 10: cluster ${V3} (20%)`);
  await expect(failingInVerdict).toHaveClass(/\bsim-step-failing\b/);
  await expect(failingInVerdict).toHaveAttribute('data-status', 'fail');
  await expect(failingInVerdict).toBeInViewport({ ratio: 1 });

  // In the list of steps it is step 10, marked as failing (class, data-status, the word "failed").
  const v3Step = result.getByTestId('sim-step-cluster').filter({ hasText: V3 });
  await expect(v3Step).toHaveClass(/\bsim-step-failing\b/);
  await expect(v3Step).toHaveAttribute('data-status', 'fail');
  await expect(v3Step).toContainText('failed');
  await expect(v3Step).toContainText('subset v3 is not defined in DestinationRule bookinfo/reviews');
  const color = await v3Step.locator('.sim-kind').evaluate((el) => getComputedStyle(el).color);
  const muted = await result
    .getByTestId('sim-step-listener')
    .locator('.sim-kind')
    .evaluate((el) => getComputedStyle(el).color);
  expect(color).not.toBe(muted);
  await expect(v3Step.getByTestId('sim-step-num')).toHaveText('10.');
  // The verdict's step takes you to it.
  await failingInVerdict.click();
  await expect(v3Step).toBeInViewport({ ratio: 1 });
  await expect(v3Step).toBeFocused();
  // The v1 cluster is not failing.
  await expect(result.getByTestId('sim-step-cluster').filter({ hasText: 'outbound|9080|v1|' })).toHaveAttribute('data-status', 'ok');

  // Step numbers from 10 on are whole: not clipped by their box, nor by the result's left edge.
  const nums = result.getByTestId('sim-step-num');
  expect(await nums.count()).toBeGreaterThanOrEqual(10);
  const ten = nums.nth(9);
  await expect(ten).toHaveText('10.');
  const fit = await ten.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(fit.client).toBeGreaterThan(0);
  expect(fit.scroll).toBeLessThanOrEqual(fit.client);
  const numBox = (await ten.boundingBox())!;
  const resultBox = (await result.boundingBox())!;
  expect(numBox.x).toBeGreaterThanOrEqual(resultBox.x);
  await page.screenshot({ path: test.info().outputPath('simulator-verdict.png') });
});
