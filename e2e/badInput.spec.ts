// Bad input never takes the tab down: each gets a clear message at its line, the rest of
// the workspace keeps its diagnostics, and the page keeps answering clicks and typing.
import { test, expect, type Page } from '@playwright/test';
import { pasteIntoNewFile } from './editorPaste.ts';
import { editorReady } from './ready.ts';

async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await editorReady(page);
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  await expect(page.getByTestId('problem-row').first()).toBeVisible();
}

/** The page still reacts to a person: the Problems text filter narrows the list and clears again. */
async function expectResponsive(page: Page): Promise<void> {
  const rows = page.getByTestId('problem-row');
  await page.getByTestId('filter-text').fill('reviews2');
  await expect(rows).toHaveCount(1);
  await page.getByTestId('filter-text').fill('');
  await expect(rows.first()).toBeVisible();
}

test.describe('bad input', () => {
  test.beforeEach(async ({ context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });

  test('a "billion laughs" alias bomb is rejected with a clear message', async ({ page }) => {
    await openApp(page);
    const others = await page.getByTestId('problem-row').count();
    const bomb = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: lol',
      'data:',
      '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      '  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      '  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      '  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      '  e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      '  f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
      '  g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
      '  h: [*g,*g,*g,*g,*g,*g,*g,*g,*g]',
      '',
    ].join('\n');
    await pasteIntoNewFile(page, bomb);
    const row = page.getByTestId('problem-row').filter({ hasText: 'untitled-1.yaml' });
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute('data-level', 'Error');
    await expect(row).toContainText('billion laughs');
    await expect(row.getByTestId('problem-location')).toHaveText('untitled-1.yaml:1');
    await expect(page.getByTestId('problem-row')).toHaveCount(others + 1);
    await expectResponsive(page);
  });

  test('a 20 MB paste is analyzed in the background while the page stays usable', async ({ page }) => {
    test.setTimeout(180_000);
    await openApp(page);
    const doc = (i: number) =>
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: svc-${i}\n  namespace: bulk\nspec:\n  selector:\n    app: svc-${i}\n  ports:\n  - name: http\n    port: 80\n    targetPort: 8080\n`;
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 20 * 1024 * 1024; i++) {
      const d = doc(i);
      parts.push(d);
      size += d.length + 4;
    }
    await pasteIntoNewFile(page, parts.join('---\n'));
    const note = page.getByTestId('problem-row').filter({ hasText: 'untitled-1.yaml' });
    await expect(note).toContainText('Large file (20.0 MB)', { timeout: 120_000 });
    await expect(note).toHaveAttribute('data-level', 'Info');
    // The sample's findings are still there, and the page answers.
    await expect(page.getByTestId('problem-row').filter({ hasText: 'reviews2' })).toHaveCount(1);
    await expectResponsive(page);
    await page.locator('[data-testid="file-item"][data-path="networking.yaml"]').click();
    await expect(page.locator('.monaco-editor .view-lines')).toContainText('VirtualService');
  });

  test('a label kubectl would read as a number is pointed out with the text to quote, and quoting it clears the error', async ({ page }) => {
    await openApp(page);
    const deployment = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: web',
      '  namespace: bookinfo',
      'spec:',
      '  selector:',
      '    matchLabels: {app: web}',
      '  template:',
      '    metadata:',
      '      labels: {app: web, version: 1.0}',
      '    spec:',
      '      containers: [{name: web, image: web}]',
      '',
    ].join('\n');
    await pasteIntoNewFile(page, deployment);
    const row = page.getByTestId('problem-row').filter({ hasText: 'kubectl rejects this Deployment' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('spec.template.metadata.labels.version must be a string');
    await expect(row).toContainText('Quote it: "1.0"');
    await expect(row.getByTestId('problem-location')).toHaveText('untitled-1.yaml:11');
    // The person quotes the value: the error goes.
    await page.locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.evaluate((t) => navigator.clipboard.writeText(t), deployment.replace('version: 1.0', 'version: "1.0"'));
    await page.keyboard.press('ControlOrMeta+V');
    await expect(page.getByTestId('problem-row').filter({ hasText: 'kubectl rejects' })).toHaveCount(0);
    await expectResponsive(page);
  });
});
