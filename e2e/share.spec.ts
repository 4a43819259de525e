// Persistence, share links and review, as a person uses them: typing then reloading at once,
// sharing a workspace and opening the link in another browser, redaction of a Secret's
// private key, a link made by the first version of the format, and the review summary.
import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { editorReady } from './ready.ts';

async function openApp(page: Page, url = './'): Promise<void> {
  await page.goto(url);
  await editorReady(page);
  await expect(page.getByTestId('last-analysis')).toBeVisible();
}

async function goToText(page: Page, path: string, text: string): Promise<void> {
  await page.locator(`[data-testid="file-item"][data-path="${path}"]`).click();
  await expect(page.getByTestId('tab').filter({ hasText: path })).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('ControlOrMeta+F');
  await page.locator('.monaco-editor .find-widget textarea, .monaco-editor .find-widget input').first().fill(text);
  await page.keyboard.press('Escape');
  await page.keyboard.press('End');
}

async function problems(page: Page): Promise<string[]> {
  const rows = page.getByTestId('problem-row');
  const out: string[] = [];
  for (const r of await rows.all()) out.push(((await r.innerText()) ?? '').replace(/\s+/g, ' ').trim());
  return out.sort();
}

const editorText = (page: Page, path: string) => page.evaluate((p) => window.__meshWorkbench?.editor?.value(p) ?? null, path);

test('typed text survives a reload made right after typing', async ({ page }) => {
  await openApp(page);
  await goToText(page, 'networking.yaml', 'host: reviews2');
  await page.keyboard.type('-kept');
  // No waiting for the save: reload at once.
  await page.reload();
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  await expect(page.getByTestId('problem-row').filter({ hasText: 'Referenced host not found: "reviews2-kept"' })).toHaveCount(1);
});

test('named workspaces: create, rename, switch back, delete', async ({ page }) => {
  await openApp(page);
  const select = page.getByTestId('workspace-select');
  await expect(select.locator('option')).toHaveCount(1);
  await page.getByTestId('workspace-menu-button').click();
  await page.getByTestId('ws-new').click();
  const create = page.getByRole('dialog', { name: 'New workspace' });
  await create.getByRole('textbox', { name: 'Name' }).fill('Scratch');
  await create.getByRole('button', { name: 'Create workspace' }).click();
  await expect(select.locator('option:checked')).toHaveText('Scratch');
  await expect(page.getByTestId('file-item')).toHaveCount(0);
  await page.getByTestId('workspace-menu-button').click();
  await page.getByTestId('ws-rename').click();
  const rename = page.getByRole('dialog', { name: 'Rename workspace' });
  await rename.getByRole('textbox', { name: 'Name' }).fill('Scratch 2');
  await rename.getByRole('button', { name: 'Rename', exact: true }).click();
  await expect(select.locator('option:checked')).toHaveText('Scratch 2');
  // The first visit's workspace is named after the sample it holds.
  await select.selectOption({ label: 'Bookinfo with mistakes' });
  await expect(page.locator('[data-testid="file-item"][data-path="networking.yaml"]')).toBeVisible();
  await select.selectOption({ label: 'Scratch 2' });
  await expect(page.getByTestId('file-item')).toHaveCount(0);
  await page.getByTestId('workspace-menu-button').click();
  await page.getByTestId('ws-delete').click();
  await page
    .getByRole('dialog', { name: /^Delete workspace/ })
    .getByRole('button', { name: 'Delete workspace' })
    .click();
  await expect(select.locator('option')).toHaveCount(1);
  await expect(page.locator('[data-testid="file-item"][data-path="networking.yaml"]')).toBeVisible();
});

test('uploading a file with an existing name asks before replacing it', async ({ page }) => {
  await openApp(page);
  const before = await page.getByTestId('file-item').count();
  await page.getByTestId('upload-input').setInputFiles([{ name: 'platform.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from('kind: ConfigMap\n') }]);
  const ask = page.getByRole('dialog', { name: 'Replace platform.yaml?' });
  await expect(ask).toContainText('A file named platform.yaml is already in the workspace');
  await ask.getByRole('button', { name: 'Keep both' }).click();
  await expect(page.locator('[data-testid="file-item"][data-path="platform (2).yaml"]')).toBeVisible();
  await expect(page.getByTestId('file-item')).toHaveCount(before + 1);
  expect((await editorText(page, 'platform.yaml')) ?? (await page.evaluate(() => 'store'))).not.toBe('kind: ConfigMap\n');
});

test('share a workspace, open the link in another browser: the same problems, read-only', async ({ page, browser }) => {
  await openApp(page);
  await goToText(page, 'networking.yaml', 'host: details');
  await page.keyboard.type('-shared');
  await expect(page.getByTestId('problem-row').filter({ hasText: '"details-shared"' })).toHaveCount(1);
  const mine = await problems(page);
  await page.getByTestId('share-button').click();
  const dialog = page.getByTestId('share-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('share-size')).toHaveAttribute('data-verdict', 'ok');
  const link = await dialog.getByTestId('share-link').inputValue();
  expect(link).toMatch(/#share=[A-Za-z0-9_-]+$/);
  expect(link.length).toBeLessThan(8192);

  const other = await browser.newContext();
  const p2 = await other.newPage();
  await openApp(p2, link);
  await expect(p2.getByTestId('review-banner')).toContainText('read-only');
  await expect(p2.getByTestId('problem-row').filter({ hasText: '"details-shared"' })).toHaveCount(1);
  // The same problems; a read-only link offers no Fix on them (the row text loses the button's).
  expect(await problems(p2)).toEqual(mine.map((row) => row.replace(' Fix ', ' ')));
  await expect(p2.getByTestId('fix-button')).toHaveCount(0);
  await p2.bringToFront();
  // Read-only: typing changes nothing.
  await p2.locator('.monaco-editor').first().click();
  await p2.keyboard.type('zzz');
  expect(await editorText(p2, 'networking.yaml')).not.toContain('zzz');
  // Forking it makes it the reader's own workspace.
  await p2.getByTestId('copy-to-workspaces').click();
  await expect(p2.getByTestId('review-banner')).toHaveCount(0);
  await expect(p2.getByTestId('workspace-select').locator('option:checked')).toContainText('Shared');
  await expect(p2.getByTestId('problem-row').filter({ hasText: '"details-shared"' })).toHaveCount(1);
  await other.close();
});

test('sharing redacts a Secret with a private key, and lists what it removed', async ({ page, browser }) => {
  await openApp(page);
  const key = ['-----BEGIN PRIVATE KEY-----', 'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSECRETSECRET', '-----END PRIVATE KEY-----', ''].join('\n');
  const secret = [
    'apiVersion: v1',
    'kind: Secret',
    'metadata:',
    '  name: shop-cert',
    '  namespace: bookinfo',
    'type: kubernetes.io/tls',
    'data:',
    `  tls.key: ${Buffer.from(key).toString('base64')}`,
    'stringData:',
    '  password: hunter2',
    '  key.pem: |',
    ...key
      .trimEnd()
      .split('\n')
      .map((l) => `    ${l}`),
    '',
  ].join('\n');
  await page.getByTestId('upload-input').setInputFiles([{ name: 'secret.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(secret) }]);
  await expect(page.locator('[data-testid="file-item"][data-path="secret.yaml"]')).toBeVisible();
  await page.getByTestId('share-button').click();
  const dialog = page.getByTestId('share-dialog');
  const items = dialog.getByTestId('redacted-item');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText('secret.yaml:8 — Secret bookinfo/shop-cert data["tls.key"]');
  await expect(items.nth(1)).toContainText('stringData["password"]');
  const link = await dialog.getByTestId('share-link').inputValue();

  const other = await browser.newContext();
  const p2 = await other.newPage();
  await openApp(p2, link);
  await p2.getByTestId('review-redacted-summary').click();
  await expect(p2.getByTestId('review-banner')).toContainText('3 secret values were removed before sharing');
  await p2.locator('[data-testid="file-item"][data-path="secret.yaml"]').click();
  await expect.poll(() => editorText(p2, 'secret.yaml')).toContain('password: "REDACTED"');
  const text = (await editorText(p2, 'secret.yaml'))!;
  expect(text).not.toContain('SECRETSECRET');
  expect(text).not.toContain('hunter2');
  expect(text).not.toContain(Buffer.from(key).toString('base64'));
  await other.close();
});

test('a link made with format version 1 opens at the diagnostic it points to', async ({ page }) => {
  const frag = readFileSync('tests/fixtures/share/v1-link.txt', 'utf8').trim();
  await openApp(page, `./${frag}`);
  await expect(page.getByTestId('review-banner')).toContainText('version-1 fixture');
  const linked = page.locator('[data-testid="problem-row"][data-linked="true"]');
  await expect(linked).toHaveCount(1);
  await expect(linked).toContainText('IST0101');
  await expect(linked).toContainText('reviews-v9');
  await expect(page.getByTestId('tab').filter({ hasText: 'reviews.yaml' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('cursor-position')).toHaveText(/^Ln 12, /);
  // The link carries a "before": the review shows what the change did.
  await page.getByTestId('review-show-changes').click();
  await expect(page.getByTestId('diagnostics-added').getByTestId('review-diagnostic').filter({ hasText: 'IST0101' })).toContainText('reviews-v9');
});

test('the review summary lists an added IST0101 after a host is broken', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('review-button').click();
  await page.getByTestId('pin-baseline').click();
  await expect(page.getByTestId('diagnostics-added')).toContainText('Diagnostics added (0)');
  await page.getByTestId('view-close').click();
  await goToText(page, 'networking.yaml', 'host: ratings');
  await page.keyboard.type('-gone');
  await expect(page.getByTestId('problem-row').filter({ hasText: '"ratings-gone"' })).toHaveCount(1);
  await page.getByTestId('review-button').click();
  await page.getByTestId('review-source').selectOption('baseline');
  const added = page.getByTestId('diagnostics-added').getByTestId('review-diagnostic');
  await expect(added.filter({ hasText: 'Referenced host not found: "ratings-gone"' })).toHaveCount(1);
  await expect(added.filter({ hasText: 'Referenced host not found: "ratings-gone"' })).toContainText('IST0101');
  await expect(page.getByTestId('review-file')).toHaveText(['~ networking.yaml']);
  await expect(page.getByTestId('diff-view').locator('.monaco-diff-editor')).toBeVisible();
});
