// The page treats a link's content as hostile: the Content-Security-Policy holds (and Monaco's
// workers still load), no request leaves our origin whatever panel is used, script and markup
// payloads in a shared workspace stay text, and broken or hostile links give an error page.
import { test, expect, type Page } from '@playwright/test';
import { deflateRawSync } from 'node:zlib';
import { encodeShareFragment, SHARE_PREFIX } from '../src/core/share/link.ts';
import { toBase64Url } from '../src/core/share/bytes.ts';

async function ready(page: Page): Promise<void> {
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
  await expect(page.getByTestId('last-analysis')).toBeVisible();
}

test('the built page has a strict CSP, Monaco workers load under it, and no request leaves the origin', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const requests: string[] = [];
  const violations: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  await page.goto('./');
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("connect-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  await ready(page);
  expect(await page.locator('script:not([src])').count()).toBe(0);

  // Monaco's own worker runs under the policy: YAML folding and bracket matching need it,
  // and completion lists come back.
  await page.locator('[data-testid="file-item"][data-path="networking.yaml"]').click();
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+Space');
  await expect(page.locator('.monaco-editor .suggest-widget')).toBeVisible();
  await page.keyboard.press('Escape');

  // Every panel and dialog.
  for (const tab of ['proxy', 'certs', 'dataplane', 'share']) await page.getByTestId(`inspector-tab-${tab}`).click();
  await page.getByTestId('problem-row').first().click();
  await page.getByTestId('filter-text').fill('host');
  await page.getByTestId('share-button').click();
  await expect(page.getByTestId('share-link')).toBeVisible();
  await page.getByTestId('modal-close').click();
  await page.getByTestId('review-button').click();
  await page.getByTestId('pin-baseline').click();
  await expect(page.getByTestId('review-summary')).toBeVisible();
  await page.getByTestId('view-close').click();
  await page.getByTestId('workspace-menu-button').click();
  const download = page.waitForEvent('download');
  await page.getByTestId('ws-export-zip').click();
  await download;
  await page.getByTestId('samples-button').click();
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('sample-item').last().click();
  await ready(page);
  await page.reload();
  await ready(page);

  const foreign = requests.filter((u) => !u.startsWith('blob:') && !u.startsWith('data:') && new URL(u).origin !== origin);
  expect(foreign).toEqual([]);
  expect(requests.length).toBeGreaterThan(5);
  expect(violations).toEqual([]);
});

const PAYLOADS = [
  '<script>window.__xss=1</script>',
  '"><img src=x onerror="window.__xss=2">',
  "'><svg/onload=window.__xss=3>",
  'javascript:window.__xss=4',
  '<iframe src="javascript:window.__xss=5"></iframe>',
  '{{constructor.constructor("window.__xss=6")()}}',
  '<a href="javascript:window.__xss=7">x</a>',
  '<style>@import "http://evil.example/x.css";</style>',
  '\u2028<script>window.__xss=8</script>',
];

function xssWorkspace(): string {
  const files = PAYLOADS.map((p, i) => ({
    path: `${p}-${i}.yaml`,
    text: [
      'apiVersion: networking.istio.io/v1',
      'kind: VirtualService',
      'metadata:',
      `  name: ${JSON.stringify(p)}`,
      '  namespace: default',
      '  labels:',
      `    app: ${JSON.stringify(p)}`,
      '  annotations:',
      `    note: ${JSON.stringify(p)}`,
      `    sidecar.istio.io/inject: ${JSON.stringify(p)}`,
      'spec:',
      '  hosts:',
      `  - ${JSON.stringify(p)}`,
      '  http:',
      '  - route:',
      '    - destination:',
      `        host: ${JSON.stringify(p)}`,
      '',
    ].join('\n'),
  }));
  return encodeShareFragment({ files, title: PAYLOADS[1], openTabs: files.map((f) => f.path), view: { file: files[1]!.path, line: 4 } });
}

test('script and markup payloads in a shared workspace stay text', async ({ page }) => {
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /__xss|evil\.example/.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('./');
  await ready(page);
  const scriptsBefore = await page.locator('script').count();
  // Pasted into the address bar of an open app: the fragment changes, the app opens the link.
  await page.goto(`./#${xssWorkspace()}`);
  await expect(page.getByTestId('review-banner')).toBeVisible();
  await ready(page);
  // The payloads are on screen, as text.
  await expect(page.getByTestId('file-item').first()).toContainText('<script>');
  await expect(page.getByTestId('review-banner')).toContainText('"><img src=x');
  await expect(page.getByTestId('problem-row').first()).toBeVisible();
  await page.getByTestId('inspector-tab-share').click();
  await page.getByTestId('review-button').click();
  await page.getByTestId('view-close').click();
  await page.getByTestId('file-item').nth(3).click();
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.locator('script').count()).toBe(scriptsBefore);
  expect(await page.locator('iframe, object, embed, svg[onload], img[onerror]').count()).toBe(0);
  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
});

test('broken and hostile links give an error page, never a blank one, and the tab stays responsive', async ({ page }) => {
  const good = encodeShareFragment({ files: [{ path: 'a.yaml', text: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n'.repeat(40) }] });
  const bomb =
    SHARE_PREFIX + toBase64Url(Uint8Array.from([0x4d, 1, 0, 0, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x04, ...deflateRawSync(Buffer.alloc(16 * 1024 * 1024))]));
  const liar = SHARE_PREFIX + toBase64Url(Uint8Array.from([0x4d, 1, 0, 0, 0, 0, 0x80, 0x08, ...deflateRawSync(Buffer.alloc(16 * 1024 * 1024))]));
  const cases: Array<[string, string, RegExp]> = [
    ['truncated', good.slice(0, Math.floor(good.length / 2)), /incomplete|cut off/i],
    ['corrupt', good.slice(0, 40) + (good[40] === 'A' ? 'B' : 'A') + good.slice(41), /damaged/i],
    ['bad characters', good.slice(0, 30) + '!$' + good.slice(32), /changed on the way|cannot be part/i],
    ['bomb', bomb, /too large|more than/i],
    ['bomb that lies about its size', liar, /damaged|more than/i],
    ['newer version', SHARE_PREFIX + toBase64Url(Uint8Array.from([0x4d, 9, 0, 0, 0, 0, 1, 0])), /newer/i],
  ];
  expect(bomb.length).toBeLessThan(40_000);
  for (const [name, frag, msg] of cases) {
    await page.goto('about:blank');
    await page.goto(`./#${frag}`);
    const err = page.getByTestId('link-error');
    await expect(err, name).toBeVisible();
    await expect(page.getByTestId('link-error-message'), name).toHaveText(msg);
    expect(await page.evaluate(() => 6 * 7), name).toBe(42);
  }
  await page.getByTestId('link-error-home').click();
  await ready(page);
  await expect(page.getByTestId('link-error')).toHaveCount(0);
});
