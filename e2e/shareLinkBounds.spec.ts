// Share links within bounds, as a person meets them: a link that lists thousands of removed
// secret values shows a short list (the count, the first 50 rows, "and N more"); a crafted link
// whose list of removed values is malformed opens the link error page, not a blank or broken
// one; and a link shared with the pinned baseline and "keep secrets" carries only the chosen
// files on its "before" side.
import { test, expect, type Page } from '@playwright/test';
import { decodeShareFragment, encodeShareFragment, type RedactedItem } from '../src/core/share/link.ts';
import { editorReady } from './ready.ts';

async function openApp(page: Page, url = './'): Promise<void> {
  await page.goto(url);
  await editorReady(page);
  await expect(page.getByTestId('last-analysis')).toBeVisible();
}

const secretsFile = { path: 'secrets.yaml', text: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n' };

test('a link listing 5,000 removed values: the banner counts them all and shows 50 rows, then "and 4,950 more"', async ({ page }) => {
  const redacted: RedactedItem[] = Array.from({ length: 5000 }, (_, i) => ({
    file: 'secrets.yaml',
    line: i + 1,
    what: `Secret shop/db-${i} stringData["password"]`,
  }));
  const frag = encodeShareFragment({ files: [secretsFile], title: 'many secrets', redacted });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openApp(page, `./#${frag}`);
  const banner = page.getByTestId('review-banner');
  await expect(banner).toContainText('many secrets');
  const summary = page.getByTestId('review-redacted-summary');
  await expect(summary).toHaveText('5,000 secret values were removed before sharing');
  // Collapsed, nothing of the list is shown.
  await expect(page.getByTestId('review-redacted-item').first()).toBeHidden();
  await summary.click();
  const rows = page.getByTestId('review-redacted-item');
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toHaveText('secrets.yaml:1 — Secret shop/db-0 stringData["password"]');
  await expect(rows.last()).toHaveText('secrets.yaml:50 — Secret shop/db-49 stringData["password"]');
  await expect(page.getByTestId('review-redacted-more')).toHaveText('and 4,950 more');
  expect(errors).toEqual([]);
});

test('a crafted link whose removed-values list names a file that is not text opens the link error page', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Made with the real encoder from a state a type check would refuse: `file` is an object
  // whose toString is not a function (String() of it throws), then a number.
  const crafted: Array<[string, unknown]> = [
    ['an object without a usable toString', { toString: null, valueOf: null }],
    ['a number', 7],
  ];
  for (const [name, file] of crafted) {
    const frag = encodeShareFragment({ files: [secretsFile], redacted: [{ file: file as string, line: 1, what: 'private key' }] });
    await page.goto('about:blank');
    await page.goto(`./#${frag}`);
    const err = page.getByTestId('link-error');
    await expect(err, name).toBeVisible();
    await expect(err, name).toHaveAttribute('data-code', 'corrupt');
    await expect(err.locator('h1'), name).toHaveText('This link is damaged');
    await expect(page.getByTestId('link-error-message'), name).toHaveText(
      'The link is damaged: its list of removed secrets is malformed (entry 1 has no file name). Ask for the link again.',
    );
    await expect(page.getByTestId('review-banner'), name).toHaveCount(0);
  }
  await page.getByTestId('link-error-home').click();
  await expect(page.getByTestId('link-error')).toHaveCount(0);
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  expect(errors).toEqual([]);
});

test('sharing with the pinned baseline and "keep secrets": the before side holds only the chosen files', async ({ page }) => {
  await openApp(page);
  const key = ['-----BEGIN PRIVATE KEY-----', 'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSECRETSECRET', '-----END PRIVATE KEY-----'].join('\n');
  const secret = [
    'apiVersion: v1',
    'kind: Secret',
    'metadata:',
    '  name: shop-cert',
    '  namespace: bookinfo',
    'stringData:',
    '  password: hunter2',
    '  key.pem: |',
    ...key.split('\n').map((l) => `    ${l}`),
    '',
  ].join('\n');
  await page.getByTestId('upload-input').setInputFiles([{ name: 'secret.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(secret) }]);
  await expect(page.locator('[data-testid="file-item"][data-path="secret.yaml"]')).toBeVisible();
  const workspaceFiles = await page.getByTestId('file-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
  expect(workspaceFiles).toContain('networking.yaml');

  // Pin every file as the baseline.
  await page.getByTestId('review-button').click();
  await page.getByTestId('pin-baseline').click();
  await expect(page.getByTestId('unpin-baseline')).toBeVisible();
  await page.getByTestId('view-close').click();

  await page.getByTestId('share-button').click();
  const dialog = page.getByTestId('share-dialog');
  await expect(dialog.getByTestId('share-before')).toBeChecked();
  await dialog.locator('[data-testid="share-file"][data-path="networking.yaml"]').uncheck();
  await dialog.getByTestId('share-keep-secrets').click();
  await page.getByRole('dialog', { name: 'Share private keys and Secret values?' }).getByRole('button', { name: 'Share secrets' }).click();
  await expect(dialog.getByTestId('share-keep-secrets')).toBeChecked();

  const decoded = async () => {
    const link = await dialog.getByTestId('share-link').inputValue();
    return decodeShareFragment(link.slice(link.indexOf('#')));
  };
  const kept = await decoded();
  const beforePaths = (kept.before ?? []).map((f) => f.path).sort();
  expect(kept.files.map((f) => f.path)).not.toContain('networking.yaml');
  expect(beforePaths).not.toContain('networking.yaml');
  expect(beforePaths).toEqual(workspaceFiles.filter((p) => p !== 'networking.yaml').sort());
  // Secrets kept: on both sides as they are, and no list of removed values.
  expect(kept.before!.find((f) => f.path === 'secret.yaml')!.text).toContain('hunter2');
  expect(kept.files.find((f) => f.path === 'secret.yaml')!.text).toContain('SECRETSECRET');
  expect(kept.redacted).toBeUndefined();

  // Secrets removed again: the same files on the before side, redacted.
  await dialog.getByTestId('share-keep-secrets').uncheck();
  const redacted = await decoded();
  expect((redacted.before ?? []).map((f) => f.path).sort()).toEqual(beforePaths);
  const beforeSecret = redacted.before!.find((f) => f.path === 'secret.yaml')!.text;
  expect(beforeSecret).not.toContain('hunter2');
  expect(beforeSecret).not.toContain('SECRETSECRET');
  expect(redacted.redacted?.length).toBeGreaterThan(0);
  // The list of removed values names the before side's too, and the dialog shows them.
  expect(redacted.redacted!.filter((r) => r.what.startsWith('before: ') && r.file === 'secret.yaml').length).toBeGreaterThan(0);
  await expect(dialog.getByTestId('redacted-item').filter({ hasText: 'before: Secret bookinfo/shop-cert stringData["password"]' })).toHaveCount(1);
});
