// End-to-end tests that use the workbench the way a person does: click, type, look.
import { test, expect, type Page, type Locator } from '@playwright/test';
import { pasteIntoNewFile } from './editorPaste.ts';

const SAMPLE_FILES = ['platform.yaml', 'bookinfo.yaml', 'networking.yaml', 'destination-rules.yaml', 'pods.yaml'];

async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.getByTestId('file-item')).toHaveCount(SAMPLE_FILES.length);
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
  // First analysis finished.
  await expect(page.getByTestId('last-analysis')).toBeVisible();
}

function fileItem(page: Page, path: string): Locator {
  return page.locator(`[data-testid="file-item"][data-path="${path}"]`);
}

function problemRows(page: Page): Locator {
  return page.getByTestId('problem-row');
}

/** Puts the cursor at the start of the active file by clicking into it and pressing Ctrl+Home. */
async function focusEditorTop(page: Page): Promise<void> {
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('ControlOrMeta+Home');
  await expect(page.getByTestId('cursor-position')).toHaveText('Ln 1, Col 1');
}

/** Selects the first occurrence of `text` after the cursor using the editor's Find widget. */
async function findAndSelect(page: Page, text: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+F');
  const findInput = page.locator('.monaco-editor .find-widget textarea, .monaco-editor .find-widget input').first();
  await expect(findInput).toBeFocused();
  await findInput.fill(text);
  await page.keyboard.press('Escape');
  // Typing into Find selects the first match after the cursor; Escape keeps that selection.
  await expect(page.locator('.monaco-editor .find-widget.visible')).toHaveCount(0);
}

async function cursorLine(page: Page): Promise<number> {
  const t = (await page.getByTestId('cursor-position').textContent()) ?? '';
  const m = /Ln (\d+), Col (\d+)/.exec(t);
  expect(m, `cursor position text "${t}"`).not.toBeNull();
  return Number(m![1]);
}

test.describe('Mesh Workbench', () => {
  test('loads the default sample and lists its problems', async ({ page }) => {
    await openApp(page);
    // The window title names the loaded sample, as the title bar does.
    await expect(page).toHaveTitle('Bookinfo with mistakes · Mesh Workbench');
    for (const f of SAMPLE_FILES) await expect(fileItem(page, f)).toBeVisible();
    await expect(page.getByTestId('tab')).toHaveAttribute('data-path', 'networking.yaml');
    // The mistakes sample has problems, and the Problems panel lists them.
    await expect(problemRows(page).first()).toBeVisible();
    await expect(problemRows(page).filter({ hasText: 'IST0101' }).filter({ hasText: 'reviews2' })).toHaveCount(1);
    // The Proxy config tab lists the proxies and generates nothing until one is picked.
    await page.getByTestId('inspector-tab-proxy').click();
    await expect(page.getByTestId('proxy-choose')).toContainText('Pick a sidecar, gateway or waypoint');
  });

  test('typing a wrong host marks the line and lists IST0101', async ({ page }) => {
    await openApp(page);
    await fileItem(page, 'networking.yaml').click();
    await focusEditorTop(page);
    await findAndSelect(page, 'host: reviews');
    await page.keyboard.type('host: reviewz');
    const line = await cursorLine(page);
    expect(line).toBeGreaterThan(1);

    // The host message (a subset on that route is reported separately).
    const row = problemRows(page).filter({ hasText: 'IST0101' }).filter({ hasText: 'Referenced host not found: "reviewz"' });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('problem-location')).toHaveText(`networking.yaml:${line}`);

    // The editor shows an error squiggle, and the marker sits on that line.
    await expect(page.locator('.monaco-editor .squiggly-error').first()).toBeVisible();
    await expect
      .poll(() =>
        page.evaluate(() =>
          window.__meshWorkbench?.editor
            ?.markers()
            .filter((m) => m.message.includes('host not found: "reviewz"'))
            .map((m) => `${m.severity}@${m.line}`),
        ),
      )
      .toEqual([`Error@${line}`]);
  });

  test('clicking a problem moves the cursor to the field', async ({ page }) => {
    await openApp(page);
    await fileItem(page, 'networking.yaml').click();
    await focusEditorTop(page);
    await findAndSelect(page, 'host: reviews');
    await page.keyboard.type('host: reviewz');
    const line = await cursorLine(page);
    // The host message (a subset on that route is reported separately).
    const row = problemRows(page).filter({ hasText: 'IST0101' }).filter({ hasText: 'Referenced host not found: "reviewz"' });
    await expect(row).toHaveCount(1);

    // Move away (another file, top of file), then click the row.
    await fileItem(page, 'bookinfo.yaml').click();
    await expect(page.getByTestId('tab').filter({ hasText: 'bookinfo.yaml' })).toHaveAttribute('aria-selected', 'true');
    await row.click();
    await expect(page.getByTestId('tab').filter({ hasText: 'networking.yaml' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('cursor-position')).toHaveText(new RegExp(`^Ln ${line}, Col \\d+$`));
    // The editor has focus: typing goes into the file at the field.
    await expect(page.locator('.monaco-editor').first()).toHaveClass(/\bfocused\b/);
  });

  test("a file that starts with --- lists istioctl's line, and the tooltip and a click give the field's", async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openApp(page);
    const text = [
      '---',
      'apiVersion: networking.istio.io/v1',
      'kind: VirtualService',
      'metadata:',
      '  name: edge',
      '  namespace: bookinfo',
      'spec:',
      '  hosts:',
      '  - edge.example.com',
      '  gateways:',
      '  - missing-gateway',
      '  http:',
      '  - route:',
      '    - destination:',
      '        host: productpage',
      '',
    ].join('\n');
    await pasteIntoNewFile(page, text);
    const fieldLine = text.split('\n').indexOf('  - missing-gateway') + 1;
    const row = problemRows(page).filter({ hasText: 'Referenced gateway not found: "missing-gateway"' });
    await expect(row).toHaveCount(1);
    // istioctl's reader keeps the leading --- in the document it counts lines in: one further down.
    const location = row.getByTestId('problem-location');
    await expect(location).toHaveText(`untitled-1.yaml:${fieldLine + 1}`);
    await expect(location).toHaveAttribute('title', `istioctl prints line ${fieldLine + 1}; the field starts on line ${fieldLine}`);
    await fileItem(page, 'bookinfo.yaml').click();
    await row.click();
    await expect(page.getByTestId('cursor-position')).toHaveText(new RegExp(`^Ln ${fieldLine}, Col \\d+$`));
  });

  test('uploading files adds them to the workspace, and they survive a reload', async ({ page }) => {
    await openApp(page);
    const yaml = [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: extra',
      '  namespace: bookinfo',
      'spec:',
      '  ports:',
      '    - name: http',
      '      port: 80',
      '',
    ].join('\n');
    await page.getByTestId('upload-input').setInputFiles([
      { name: 'extra.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(yaml) },
      { name: 'blob.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0, 0, 0, 3, 4]) },
    ]);
    await expect(fileItem(page, 'extra.yaml')).toBeVisible();
    await expect(fileItem(page, 'blob.bin')).toBeVisible();
    await expect(page.getByTestId('file-item')).toHaveCount(SAMPLE_FILES.length + 2);

    // The binary file is not opened in the editor: a notice says why.
    await fileItem(page, 'blob.bin').click();
    await expect(page.getByTestId('file-notice')).toContainText('binary');
    await expect(problemRows(page).filter({ hasText: 'blob.bin' }).first()).toBeVisible();

    // The text file opens in the editor.
    await fileItem(page, 'extra.yaml').click();
    await expect(page.getByTestId('file-notice')).toHaveCount(0);
    await expect(page.locator('.monaco-editor .view-lines')).toContainText('name: extra');

    await page.waitForTimeout(600); // persistence is debounced
    await page.reload();
    await expect(fileItem(page, 'extra.yaml')).toBeVisible();
    await expect(page.getByTestId('file-item')).toHaveCount(SAMPLE_FILES.length + 2);
  });

  test('a pasted document with a YAML syntax error is reported at its line', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openApp(page);
    const otherRows = problemRows(page).filter({ hasNotText: 'untitled-1.yaml' });
    await expect(otherRows.first()).toBeVisible();
    const before = await otherRows.count();

    await page.getByTestId('new-file').click();
    await expect(fileItem(page, 'untitled-1.yaml')).toBeVisible();
    await expect(page.getByTestId('tab').filter({ hasText: 'untitled-1.yaml' })).toHaveAttribute('aria-selected', 'true');

    const broken = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: broken', '  labels: [unclosed', 'data:', '  key: value', ''].join('\n');
    await page.locator('.monaco-editor .view-lines').click();
    // Paste it, as a person would (Ctrl+V from the clipboard).
    await page.evaluate((t) => navigator.clipboard.writeText(t), broken);
    await page.keyboard.press('ControlOrMeta+V');
    await expect(page.locator('.monaco-editor .view-lines')).toContainText('labels: [unclosed');

    const row = problemRows(page).filter({ hasText: 'untitled-1.yaml' });
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute('data-level', 'Error');
    await expect(row).toContainText(/syntax/i);
    const loc = (await row.getByTestId('problem-location').textContent()) ?? '';
    const errLine = Number(/untitled-1\.yaml:(\d+)/.exec(loc)?.[1]);
    expect(errLine).toBeGreaterThanOrEqual(5);
    expect(errLine).toBeLessThanOrEqual(6);
    // The other files' problems are still listed.
    await expect(otherRows).toHaveCount(before);
    // The editor marks the error on that line.
    await expect.poll(() => page.evaluate(() => window.__meshWorkbench?.editor?.markers().map((m) => `${m.severity}@${m.line}`))).toEqual([`Error@${errLine}`]);

    // Clicking it moves the cursor to that line.
    await page.keyboard.press('ControlOrMeta+Home');
    await expect(page.getByTestId('cursor-position')).toHaveText('Ln 1, Col 1');
    await row.click();
    await expect(page.getByTestId('cursor-position')).toHaveText(new RegExp(`^Ln ${errLine}, `));
  });

  test('follows a dark colour scheme, live', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await openApp(page);
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const luminance = (c: string) => {
      const [r, g, b] = (c.match(/\d+/g) ?? ['0', '0', '0']).map(Number) as [number, number, number];
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    };
    expect(luminance(await bg())).toBeGreaterThan(0.8);
    await expect(page.locator('.monaco-editor').first()).toHaveClass(/\bvs\b/);

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(async () => luminance(await bg())).toBeLessThan(0.2);
    await expect(page.locator('.monaco-editor').first()).toHaveClass(/vs-dark/);
    const editorBg = await page
      .locator('.monaco-editor .monaco-editor-background')
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(luminance(editorBg)).toBeLessThan(0.2);
  });

  test('toggling the placeholder gateway and level filters', async ({ page }) => {
    await openApp(page);
    const checkbox = page.getByTestId('include-placeholders');
    await expect(checkbox).toBeChecked();
    await expect(page.getByTestId('assumptions')).toContainText(/placeholder/i);
    const placeholderNote = page
      .getByTestId('assumptions')
      .locator('li')
      .filter({ hasText: /placeholder/i });
    await expect(placeholderNote).toHaveCount(1);
    await checkbox.uncheck();
    await expect(placeholderNote).toHaveCount(0);
    await checkbox.check();
    await expect(placeholderNote).toHaveCount(1);

    await expect(problemRows(page).first()).toBeVisible();
    const errors = problemRows(page).and(page.locator('[data-level="Error"]'));
    await expect(errors.first()).toBeVisible();
    await page.getByTestId('filter-error').click();
    await expect(errors).toHaveCount(0);
    await page.getByTestId('filter-error').click();
    await expect(errors.first()).toBeVisible();
  });

  test('the Samples menu loads the clean bookinfo mesh', async ({ page }) => {
    await openApp(page);
    await expect(problemRows(page).first()).toBeVisible();
    page.once('dialog', (d) => void d.accept());
    await page.getByTestId('samples-button').click();
    await page
      .getByTestId('sample-item')
      .filter({ hasText: /^Bookinfo(?! with)/ })
      .click();
    await expect(page.getByTestId('problems-empty')).toHaveText('No problems found in the workspace.');
    await expect(problemRows(page)).toHaveCount(0);
    await expect(page.getByTestId('status-error')).toHaveText('0');
  });

  test('a file over 5 MB is saved too (IndexedDB) and survives a reload', async ({ page }) => {
    await openApp(page);
    const line = '# padding line to make this file large enough to skip persistence ...........\n';
    const big = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  namespace: bookinfo\n' + line.repeat(Math.ceil((5.5 * 1024 * 1024) / line.length));
    await page.getByTestId('upload-input').setInputFiles([{ name: 'big.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(big) }]);
    await expect(fileItem(page, 'big.yaml')).toBeVisible();
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
    await page.reload();
    await expect(fileItem(page, 'big.yaml')).toBeVisible();
    await expect(fileItem(page, 'big.yaml')).toHaveAttribute('title', /big\.yaml · 5\.5 MB/);
    await expect(page.getByTestId('notice')).toHaveCount(0);
  });

  test('panes can be resized by dragging the splitters', async ({ page }) => {
    await openApp(page);
    const left = page.getByRole('complementary', { name: 'Workspace' });
    const before = (await left.boundingBox())!.width;
    const handle = (await page.getByTestId('splitter-left').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + 200);
    await page.mouse.down();
    await page.mouse.move(handle.x + 100, handle.y + 200, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await left.boundingBox())!.width).toBeGreaterThan(before + 80);

    const problems = page.getByTestId('problems');
    const h0 = (await problems.boundingBox())!.height;
    const bar = (await page.getByTestId('splitter-bottom').boundingBox())!;
    await page.mouse.move(bar.x + 300, bar.y + bar.height / 2);
    await page.mouse.down();
    await page.mouse.move(bar.x + 300, bar.y - 100, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await problems.boundingBox())!.height).toBeGreaterThan(h0 + 80);
  });
});
