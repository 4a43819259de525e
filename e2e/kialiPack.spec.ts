// The Kiali pack in the app: on the ambient sample, Kiali's KIA0109 (an L7 AuthorizationPolicy in
// an ambient namespace whose workloads no waypoint serves) shows in the Problems list and as a
// squiggle on the policy, whose hover names Kiali's check; unticking "Kiali's checks" under
// Assumed inputs removes it, and ticking it again brings it back.
import { test, expect } from '@playwright/test';
import { openSample } from './samples.ts';
import { editorReady } from './ready.ts';

test("the ambient sample shows Kiali's KIA0109 on the L7 policy without a waypoint; turning the pack off removes it", async ({ page }) => {
  await openSample(page, 'Ambient shop', 'policies.yaml');
  const rows = page.getByTestId('problem-row');
  const l7NoWaypoint = rows.filter({ hasText: 'KIA0109' });
  await expect(l7NoWaypoint).toHaveCount(1);
  await expect(l7NoWaypoint).toContainText('L7 AuthorizationPolicy in Ambient namespace requires waypoint enrollment');
  await expect(l7NoWaypoint).toContainText('client/curl-read-only');

  // In the editor: a squiggle on the policy's name, and the hover names Kiali's check.
  await l7NoWaypoint.click();
  await editorReady(page);
  const line = page.locator('.monaco-editor .view-line').filter({ hasText: 'name: curl-read-only' });
  await expect(line).toBeVisible();
  await expect(page.locator('.monaco-editor .squiggly-warning').first()).toBeVisible();
  await line.locator('span', { hasText: 'curl-read-only' }).last().hover();
  const hover = page.locator('.monaco-hover').filter({ hasText: 'KIA0109' });
  await expect(hover).toBeVisible();
  await expect(hover).toContainText("Kiali's check authorizationpolicy.ambient.l7nowaypoint");

  // The toggle: off removes every KIA finding, on brings them back.
  const box = page.getByTestId('kiali-pack');
  await expect(box).toBeChecked();
  await box.uncheck();
  await expect(l7NoWaypoint).toHaveCount(0);
  await expect(rows.filter({ hasText: /KIA\d{4}/ })).toHaveCount(0);
  await box.check();
  await expect(l7NoWaypoint).toHaveCount(1);
});
