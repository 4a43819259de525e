// Schema validation and editing help, used as a person would: typing an invalid duration and a
// misspelt field puts the API server's message on that token; completion offers the TLS modes
// inside trafficPolicy.tls.mode; hovering a field explains it.
import { test, expect, type Page, type Locator } from '@playwright/test';
import { pasteIntoNewFile } from './editorPaste.ts';
import { editorReady } from './ready.ts';

const MANIFEST = [
  'apiVersion: networking.istio.io/v1',
  'kind: VirtualService',
  'metadata:',
  '  name: reviews',
  'spec:',
  '  hosts: [reviews]',
  '  http:',
  '  - timeout: 5s',
  '    route:',
  '    - destination:',
  '        host: reviews',
  '---',
  'apiVersion: networking.istio.io/v1',
  'kind: DestinationRule',
  'metadata:',
  '  name: reviews',
  'spec:',
  '  host: reviews',
  '  trafficPolicy:',
  '    tls:',
  '',
].join('\n');

const FILE = 'untitled-1.yaml';

async function openWithManifest(page: Page): Promise<void> {
  await page.goto('./');
  await editorReady(page);
  await expect(page.getByTestId('last-analysis')).toBeVisible();
  await pasteIntoNewFile(page, MANIFEST);
  await expect.poll(() => editorText(page)).toBe(MANIFEST);
}

function editorText(page: Page): Promise<string | null> {
  return page.evaluate((p) => window.__meshWorkbench?.editor?.value(p) ?? null, FILE);
}

function markers(page: Page) {
  return page.evaluate((p) => window.__meshWorkbench?.editor?.markers(p) ?? [], FILE);
}

function editorLine(page: Page, text: string): Locator {
  return page.locator('.monaco-editor .view-line').filter({ hasText: text });
}

/** Puts the cursor at the end of the (first) line showing `text`. */
async function endOf(page: Page, text: string): Promise<void> {
  await editorLine(page, text).first().click();
  await page.keyboard.press('End');
}

/** 1-based line of `text` in the file, and the columns it spans. */
async function place(page: Page, text: string): Promise<{ line: number; col: number; endCol: number }> {
  const lines = ((await editorText(page)) ?? '').split('\n');
  const i = lines.findIndex((l) => l.includes(text));
  const col = (lines[i] as string).indexOf(text) + 1;
  return { line: i + 1, col, endCol: col + text.length };
}

test.describe('schema validation and editing help', () => {
  test.beforeEach(async ({ context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });

  test("an invalid duration and an unknown field get the API server's message on their token", async ({ page }) => {
    await openWithManifest(page);
    // Edit the timeout into something that is not a duration.
    await endOf(page, 'timeout: 5s');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('5 seconds');
    // Add a misspelt field under the destination.
    await endOf(page, 'host: reviews');
    await page.keyboard.press('Enter');
    await page.keyboard.type('subsetz: v1');
    await expect.poll(async () => (await editorText(page))?.includes('        subsetz: v1')).toBe(true);

    const durationMsg =
      "spec.http[0].timeout: Invalid value: \"string\": type conversion error from 'string' to 'google.protobuf.Duration' evaluating rule: must be a valid duration greater than 1ms";
    const unknownMsg = 'unknown field "spec.http[0].route[0].destination.subsetz"';
    await expect.poll(async () => (await markers(page)).map((m) => m.message).join('\n')).toContain(durationMsg);
    await expect.poll(async () => (await markers(page)).map((m) => m.message).join('\n')).toContain(unknownMsg);
    const all = await markers(page);
    const duration = all.find((m) => m.message.includes(durationMsg));
    const unknown = all.find((m) => m.message.includes(unknownMsg));
    const value = await place(page, '5 seconds');
    const key = await place(page, 'subsetz');
    // Each squiggle covers the token it is about.
    expect(duration).toMatchObject({ line: value.line, severity: 'Error' });
    expect(duration!.col).toBeLessThanOrEqual(value.col);
    expect(duration!.endCol).toBeGreaterThanOrEqual(value.endCol);
    expect(unknown).toMatchObject({ line: key.line, severity: 'Error' });
    expect(unknown!.col).toBeLessThanOrEqual(key.col);
    expect(unknown!.endCol).toBeGreaterThanOrEqual(key.endCol);
    // The Problems list shows them as what the API server refuses (our code; istioctl never reports them).
    const rows = page.getByTestId('problem-row').filter({ hasText: 'MWB-API-SERVER-REJECTS' });
    await expect(rows.filter({ hasText: 'must be a valid duration greater than 1ms' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'subsetz' })).toHaveCount(1);
  });

  test('completion offers ISTIO_MUTUAL inside trafficPolicy.tls.mode', async ({ page }) => {
    await openWithManifest(page);
    await endOf(page, '    tls:');
    // Enter indents the new line under `tls:` (Monaco's YAML rules).
    await page.keyboard.press('Enter');
    await page.keyboard.type('mode: ');
    await page.keyboard.press('Control+Space');
    const widget = page.locator('.suggest-widget');
    await expect(widget).toBeVisible();
    const item = widget.getByRole('listitem', { name: 'ISTIO_MUTUAL, Enum Member' });
    await expect(item).toBeVisible();
    await expect(widget.getByRole('listitem', { name: 'SIMPLE, Enum Member' })).toBeVisible();
    await item.click();
    await expect.poll(() => editorText(page)).toMatch(/\n {4}tls:\n {6}mode: ISTIO_MUTUAL\n?$/);
  });

  test('completion offers the fields of the mapping under the cursor', async ({ page }) => {
    await openWithManifest(page);
    await endOf(page, '    tls:');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+Space');
    const widget = page.locator('.suggest-widget');
    await expect(widget.getByRole('listitem', { name: /^credentialName\b/ })).toBeVisible();
  });

  test('hovering spec.http[].timeout shows its help', async ({ page }) => {
    await openWithManifest(page);
    const line = editorLine(page, 'timeout: 5s');
    await line.locator('span', { hasText: 'timeout' }).first().hover();
    const hover = page.locator('.monaco-hover').filter({ hasText: 'Timeout for the whole HTTP request' });
    await expect(hover).toBeVisible();
    await expect(hover).toContainText('timeout: duration');
  });
});
