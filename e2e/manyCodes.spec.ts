// The "Many mistakes" sample: more than 15 different IST codes, each listed at the line
// istioctl would print, and a quick fix applied from the editor.
import { test, expect, type Page } from '@playwright/test';
import { openSample } from './samples.ts';

type Where = { file: string; at: 'field'; anchor?: string; snippet: string } | { file: string; at: 'document'; anchor: string };

/** Code, origin, and where the message belongs in the sample's text. */
const EXPECTED: Array<[string, string, Where]> = [
  ['IST0101', 'VirtualService shop/cart', { file: 'networking.yaml', at: 'field', snippet: 'host: cart-v2' }],
  ['IST0102', 'Namespace legacy', { file: 'platform.yaml', at: 'field', snippet: 'name: legacy' }],
  ['IST0103', 'Pod shop/cart-7d9f8c6b5-abcde', { file: 'platform.yaml', at: 'document', anchor: 'kind: Pod' }],
  ['IST0108', 'Pod shop/cart-7d9f8c6b5-abcde', { file: 'platform.yaml', at: 'document', anchor: 'kind: Pod' }],
  ['IST0109', 'VirtualService shop/cart-canary', { file: 'networking.yaml', at: 'field', snippet: 'name: cart-canary' }],
  ['IST0110', 'Sidecar shop/cart-a', { file: 'networking.yaml', at: 'field', snippet: 'name: cart-a' }],
  ['IST0112', 'VirtualService shop/cart', { file: 'networking.yaml', at: 'field', anchor: 'prefix: /api', snippet: 'host: cart' }],
  ['IST0118', 'Service shop/cart', { file: 'platform.yaml', at: 'field', snippet: 'port: 8080' }],
  ['IST0123', 'Namespace billing', { file: 'platform.yaml', at: 'document', anchor: 'name: billing' }],
  ['IST0127', 'AuthorizationPolicy shop/orders-allow', { file: 'policies.yaml', at: 'document', anchor: 'name: orders-allow' }],
  ['IST0128', 'DestinationRule shop/catalog', { file: 'networking.yaml', at: 'document', anchor: 'kind: DestinationRule' }],
  ['IST0130', 'VirtualService shop/cart', { file: 'networking.yaml', at: 'document', anchor: 'name: cart\n' }],
  ['IST0131', 'VirtualService shop/cart', { file: 'networking.yaml', at: 'document', anchor: 'name: cart\n' }],
  ['IST0132', 'VirtualService shop/storefront', { file: 'networking.yaml', at: 'field', anchor: 'name: storefront', snippet: '- shop-gateway' }],
  ['IST0134', 'ServiceEntry shop/payments-db', { file: 'networking.yaml', at: 'field', snippet: 'name: tcp-postgres' }],
  ['IST0135', 'Pod shop/cart-7d9f8c6b5-abcde', { file: 'platform.yaml', at: 'document', anchor: 'kind: Pod' }],
  ['IST0138', 'Gateway shop/shop-gateway-copy', { file: 'networking.yaml', at: 'field', snippet: 'name: shop-gateway-copy' }],
  ['IST0144', 'Deployment shop/catalog', { file: 'platform.yaml', at: 'document', anchor: 'kind: Deployment' }],
  ['IST0145', 'Gateway shop/shop-gateway-copy', { file: 'networking.yaml', at: 'document', anchor: 'name: shop-gateway-copy' }],
  ['IST0151', 'EnvoyFilter shop/add-header', { file: 'networking.yaml', at: 'document', anchor: 'kind: EnvoyFilter' }],
  ['IST0160', 'Telemetry shop/logs', { file: 'policies.yaml', at: 'document', anchor: 'name: logs' }],
  ['IST0162', 'Gateway shop/shop-gateway-copy', { file: 'networking.yaml', at: 'field', anchor: 'name: shop-gateway-copy', snippet: 'istio: ingressgateway' }],
  ['IST0173', 'DestinationRule shop/catalog', { file: 'networking.yaml', at: 'document', anchor: 'kind: DestinationRule' }],
];

/** 1-based line of `snippet` (at or after `anchor`), or of the first line of the document holding `anchor`. */
function expectedLine(text: string, where: Where): number {
  const lines = text.split('\n');
  const from = where.anchor ? text.indexOf(where.anchor) : 0;
  expect(from, `anchor ${where.anchor}`).toBeGreaterThanOrEqual(0);
  const anchorLine = text.slice(0, from).split('\n').length - 1;
  if (where.at === 'field') {
    const i = lines.findIndex((l, n) => n >= anchorLine && l.includes(where.snippet));
    expect(i, where.snippet).toBeGreaterThanOrEqual(0);
    return i + 1;
  }
  // istioctl's document line: the first line after the `---` that is not empty.
  let start = anchorLine;
  while (start > 0 && lines[start - 1] !== '---') start--;
  while (start < anchorLine && (lines[start] ?? '').trim() === '') start++;
  return start + 1;
}

async function loadSample(page: Page): Promise<void> {
  await openSample(page, 'Many mistakes', 'policies.yaml');
  await expect(page.getByTestId('problem-row').filter({ hasText: 'IST0173' }).first()).toBeVisible();
}

test('the "Many mistakes" sample shows 15+ IST codes, each on the right line, and a quick fix clears one', async ({ page, request }) => {
  await loadSample(page);
  const rows = page.getByTestId('problem-row');
  const codes = new Set(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-code') ?? '')));
  expect([...codes].filter((c) => c.startsWith('IST')).length).toBeGreaterThanOrEqual(15);

  const texts = new Map<string, string>();
  for (const f of ['platform.yaml', 'networking.yaml', 'policies.yaml']) {
    texts.set(f, await (await request.get(`samples/many-mistakes/${f}`)).text());
  }
  for (const [code, origin, where] of EXPECTED) {
    const line = expectedLine(texts.get(where.file)!, where);
    const row = rows
      .filter({ hasText: code })
      .filter({ hasText: origin })
      .filter({ has: page.getByTestId('problem-location').getByText(`${where.file}:${line}`, { exact: true }) });
    await expect(row.first(), `${code} on ${origin} at ${where.file}:${line}`).toBeVisible();
  }

  // Clicking the row puts the cursor on the field; Ctrl+. offers the fix; applying it clears the row.
  const missing = rows.filter({ hasText: 'IST0101' }).filter({ hasText: 'cart-v2' });
  await expect(missing).toHaveCount(1);
  await missing.click();
  await expect(page.getByTestId('cursor-position')).toHaveText(
    new RegExp(`^Ln ${expectedLine(texts.get('networking.yaml')!, { file: 'networking.yaml', at: 'field', snippet: 'host: cart-v2' })}, `),
  );
  await page.keyboard.press('ControlOrMeta+.');
  const fix = page.locator('.action-widget').getByText('Change host to "cart"');
  await expect(fix).toBeVisible();
  await fix.click();
  await expect(missing).toHaveCount(0);
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('host: cart');
});
