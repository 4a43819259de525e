// The inspector's Workloads list comes from the analysis worker (a `workloads` query) and
// follows edits made in the editor; edits reach the worker as content changes and survive a
// reload.
import { test, expect, type Page } from '@playwright/test';
import { editorReady } from './ready.ts';

async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await editorReady(page);
  await expect(page.getByTestId('last-analysis')).toBeVisible();
}

function workloadRow(page: Page, text: string) {
  return page.getByTestId('workloads').getByTestId('workload-row').filter({ hasText: text });
}

async function openFileAtTop(page: Page, path: string): Promise<void> {
  await page.locator(`[data-testid="file-item"][data-path="${path}"]`).click();
  await expect(page.getByTestId('tab').filter({ hasText: path })).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('ControlOrMeta+Home');
  await expect(page.getByTestId('cursor-position')).toHaveText('Ln 1, Col 1');
}

test('the Workloads list shows each pod with its identity, and follows a multi-cursor edit and its undo', async ({ page }) => {
  await openApp(page);
  const workloads = page.getByTestId('workloads');
  // Six Bookinfo pods from pods.yaml, and the assumed ingress gateway.
  await expect(workloads).toContainText('Workloads (7)');
  await expect(workloadRow(page, 'bookinfo/reviews-')).toHaveCount(3);
  for (const row of await workloadRow(page, 'bookinfo/reviews-').all()) {
    await expect(row).toContainText('spiffe://cluster.local/ns/bookinfo/sa/bookinfo-reviews');
    await expect(row).toContainText('sidecar');
  }

  // The same worker answers other typed queries, e.g. which pods a Service selects.
  const reviews = await page.evaluate(() => window.__meshWorkbench!.query('services', { text: 'reviews.bookinfo' }));
  expect(reviews.items.map((s) => `${s.kind} ${s.namespace}/${s.name} ${s.hosts.join(',')}`)).toEqual([
    'Service bookinfo/reviews reviews.bookinfo.svc.cluster.local',
  ]);
  expect(reviews.items[0]!.pods.total).toBe(3);

  // Rename the reviews service account in all three pods at once (one edit, three changes).
  await openFileAtTop(page, 'pods.yaml');
  await page.keyboard.press('ControlOrMeta+F');
  const findInput = page.locator('.monaco-editor .find-widget textarea, .monaco-editor .find-widget input').first();
  await expect(findInput).toBeFocused();
  await findInput.fill('serviceAccountName: bookinfo-reviews');
  await page.keyboard.press('Escape');
  await page.keyboard.press('ControlOrMeta+Shift+L');
  await page.keyboard.type('serviceAccountName: critic');
  await expect
    .poll(() => page.evaluate(() => (window.__meshWorkbench?.editor?.value('pods.yaml')?.match(/serviceAccountName: critic\n/g) ?? []).length))
    .toBe(3);

  for (const row of await workloadRow(page, 'bookinfo/reviews-').all()) await expect(row).toContainText('spiffe://cluster.local/ns/bookinfo/sa/critic');
  // The other pods kept theirs: the worker applied the changes at the right places.
  await expect(workloadRow(page, 'bookinfo/productpage-')).toContainText('spiffe://cluster.local/ns/bookinfo/sa/bookinfo-productpage');
  await expect(workloadRow(page, 'bookinfo/details-')).toContainText('spiffe://cluster.local/ns/bookinfo/sa/bookinfo-details');
  await expect(workloadRow(page, 'bookinfo/ratings-')).toContainText('spiffe://cluster.local/ns/bookinfo/sa/bookinfo-ratings');

  // Undo goes to the worker the same way (typing is undone in steps: a word at a time).
  const original = () =>
    page.evaluate(() => (window.__meshWorkbench?.editor?.value('pods.yaml')?.match(/serviceAccountName: bookinfo-reviews\n/g) ?? []).length);
  for (let i = 0; i < 5 && (await original()) < 3; i++) await page.keyboard.press('ControlOrMeta+Z');
  expect(await original()).toBe(3);
  for (const row of await workloadRow(page, 'bookinfo/reviews-').all())
    await expect(row).toContainText('spiffe://cluster.local/ns/bookinfo/sa/bookinfo-reviews');

  // A workload's name opens its pod in the editor.
  await page.locator('[data-testid="file-item"][data-path="networking.yaml"]').click();
  await workloadRow(page, 'bookinfo/details-')
    .getByRole('button', { name: /^bookinfo\/details-/ })
    .click();
  await expect(page.getByTestId('tab').filter({ hasText: 'pods.yaml' })).toHaveAttribute('aria-selected', 'true');
  const line = await page.evaluate(() => {
    const text = window.__meshWorkbench?.editor?.value('pods.yaml') ?? '';
    const lines = text.split('\n');
    // The document of the details pod starts after the `---` before its name.
    const at = lines.findIndex((l) => l.includes('name: details-v1-'));
    let start = at;
    while (start > 0 && lines[start - 1] !== '---') start--;
    return start + 1;
  });
  await expect(page.getByTestId('cursor-position')).toHaveText(new RegExp(`^Ln ${line}, `));
});

test('typing into a file reaches the analysis, and the typed text survives a reload', async ({ page }) => {
  await openApp(page);
  await openFileAtTop(page, 'networking.yaml');
  await page.keyboard.press('ControlOrMeta+F');
  const findInput = page.locator('.monaco-editor .find-widget textarea, .monaco-editor .find-widget input').first();
  await findInput.fill('host: reviews2');
  await page.keyboard.press('Escape');
  await page.keyboard.press('End');
  await page.keyboard.type('-typed');
  const row = page.getByTestId('problem-row').filter({ hasText: 'Referenced host not found: "reviews2-typed"' });
  await expect(row).toHaveCount(1);
  // The old message is gone: the worker's copy is the editor's.
  await expect(page.getByTestId('problem-row').filter({ hasText: 'Referenced host not found: "reviews2"' })).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  await expect(page.getByTestId('problem-row').filter({ hasText: 'Referenced host not found: "reviews2-typed"' })).toHaveCount(1);
  await page.locator('[data-testid="file-item"][data-path="networking.yaml"]').click();
  await expect.poll(() => page.evaluate(() => window.__meshWorkbench?.editor?.value('networking.yaml')?.includes('host: reviews2-typed\n'))).toBe(true);
});

test('after many kinds of edits, the problems are those of a fresh analysis of the same text', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openApp(page);
  await openFileAtTop(page, 'networking.yaml');
  const problems = async () => (await page.getByTestId('problem-row').allTextContents()).sort();
  // Moves, deletions, multi-cursor typing, a multi-line paste, undo and redo: each goes to the
  // worker as content changes.
  await page.keyboard.press('ControlOrMeta+F');
  const findInput = page.locator('.monaco-editor .find-widget textarea, .monaco-editor .find-widget input').first();
  await findInput.fill('host: reviews');
  await page.keyboard.press('Escape');
  await page.keyboard.press('ControlOrMeta+Shift+L');
  await page.keyboard.type('host: ratingz');
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.press('Alt+ArrowUp');
  await page.keyboard.press('Alt+ArrowUp');
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('ControlOrMeta+Shift+K');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ControlOrMeta+Alt+ArrowDown');
  await page.keyboard.press('ControlOrMeta+Alt+ArrowDown');
  await page.keyboard.type('# é€😀 ');
  await page.keyboard.press('Escape');
  await page.evaluate(
    (t) => navigator.clipboard.writeText(t),
    '---\napiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: pasted\n  namespace: bookinfo\nspec:\n  hosts: [pasted]\n  http:\n  - route:\n    - destination:\n        host: nowhere\n',
  );
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ControlOrMeta+V');
  await page.keyboard.press('ControlOrMeta+Z');
  await page.keyboard.press('ControlOrMeta+Shift+Z');
  await expect.poll(() => page.evaluate(() => window.__meshWorkbench?.editor?.value('networking.yaml')?.includes('host: nowhere'))).toBe(true);
  // Let the debounced sync go out, then wait for its analysis.
  await page.waitForTimeout(500);
  await expect
    .poll(() =>
      page.evaluate(() => {
        const a = window.__meshWorkbench!.analysis();
        return a.requestedVersion > 0 && a.resultVersion === a.requestedVersion && !a.running;
      }),
    )
    .toBe(true);
  await expect(page.getByTestId('problem-row').filter({ hasText: '"ratingz"' }).first()).toBeVisible();
  const before = await problems();
  expect(before.length).toBeGreaterThan(3);

  // A reload analyzes the saved text from scratch: the same problems, at the same lines.
  await page.reload();
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  await expect.poll(problems).toEqual(before);
});
