// Shared by the specs that start from the workspace of issue "views with room": Bookinfo with
// mistakes, the reviews DestinationRule without subset v3, and the reviews VirtualService
// sending 80% to v1 and 20% to v3, typed in the editor as a person would.
import { expect, type Page } from '@playwright/test';
import { openSample } from './samples.ts';

/** The cluster Istio routes the 20% to, which it never creates (no subset v3). */
export const V3 = 'outbound|9080|v3|reviews.bookinfo.svc.cluster.local';

export async function fileText(page: Page, path: string): Promise<string> {
  return page.evaluate((p) => window.__meshWorkbench?.editor?.value(p) ?? '', path);
}

/** Puts the cursor at the end of the first line of `path` that `match` accepts (after `from`), with the keyboard. */
export async function goToLine(page: Page, path: string, match: (line: string) => boolean, from = 0): Promise<void> {
  const lines = (await fileText(page, path)).split('\n');
  const index = lines.findIndex((l, i) => i >= from && match(l));
  expect(index, `a line of ${path}`).toBeGreaterThanOrEqual(0);
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
}

export async function openFile(page: Page, path: string): Promise<void> {
  await page.locator(`[data-testid="file-item"][data-path="${path}"]`).click();
  await expect(page.getByTestId('tab').filter({ hasText: path })).toHaveAttribute('aria-selected', 'true');
}

/** Loads Bookinfo with mistakes and edits it into the missing-subset workspace (edits bottom up). */
export async function missingSubsetWorkspace(page: Page): Promise<void> {
  await openSample(page, 'Bookinfo with mistakes', 'networking.yaml');
  // The reviews DestinationRule defines v1 and v2 only…
  await openFile(page, 'destination-rules.yaml');
  await goToLine(page, 'destination-rules.yaml', (l) => l === '    - name: v3');
  await page.keyboard.press('Home');
  await page.keyboard.press('Home');
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Delete');
  await expect.poll(() => fileText(page, 'destination-rules.yaml')).not.toContain('v3');

  // …and the reviews VirtualService sends 80% to v1 and 20% to v3.
  await openFile(page, 'networking.yaml');
  const start = (await fileText(page, 'networking.yaml')).split('\n').indexOf('  name: reviews');
  await goToLine(page, 'networking.yaml', (l) => l.trim() === 'weight: 25', start);
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('20');
  await goToLine(page, 'networking.yaml', (l) => l.trim() === 'host: reviews2', start);
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Enter');
  await page.keyboard.type('subset: v3');
  await goToLine(page, 'networking.yaml', (l) => l.trim() === 'weight: 75', start);
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('80');
  await expect
    .poll(() => fileText(page, 'networking.yaml'))
    .toContain(
      '        - destination:\n            host: reviews\n            subset: v1\n          weight: 80\n        - destination:\n            host: reviews\n            subset: v3\n          weight: 20\n',
    );
}
