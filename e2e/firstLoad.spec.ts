// A first visit, as a person sees it: the Problems list fills before anything else heavy
// loads; the editor area shows the file's text at once (read-only, "Loading editor…"), and
// the real editor takes over after the first diagnostics and can be typed in.
import { test, expect, type Page } from '@playwright/test';

/** Records on the page's clock when the first Problems row entered the page. */
async function watchFirstRow(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __firstRowAt?: number };
    new MutationObserver((_, observer) => {
      if (w.__firstRowAt === undefined && document.querySelector('[data-testid="problem-row"]')) {
        w.__firstRowAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

test.describe('first load', () => {
  test('the Problems list comes first, the file text shows at once, and the editor follows', async ({ page }) => {
    // Hold the editor's script until we have looked at the page without it.
    let releaseEditor!: () => void;
    const editorHeld = new Promise<void>((resolve) => (releaseEditor = resolve));
    let editorAsked = false;
    await page.route(/\/MonacoEditor-[^/]*\.js$/, async (route) => {
      editorAsked = true;
      await editorHeld;
      await route.continue();
    });

    await page.goto('./');
    const rows = page.getByTestId('problem-row');
    await expect(rows.filter({ hasText: 'IST0101' }).filter({ hasText: 'Referenced host not found' }).first()).toBeVisible();
    await expect(rows.filter({ hasText: 'reviews2' })).toHaveCount(1);

    // The editor area shows the open file's text, read-only, and says the editor is on its way.
    const placeholder = page.getByTestId('editor-placeholder');
    await expect(placeholder).toBeVisible();
    await expect(page.getByTestId('tab')).toHaveAttribute('data-path', 'networking.yaml');
    await expect(page.getByTestId('editor-placeholder-text')).toContainText('kind: VirtualService');
    await expect(page.getByTestId('editor-placeholder-text')).toContainText('host: reviews2');
    await expect(page.getByTestId('editor-placeholder-text')).toHaveAttribute('aria-readonly', 'true');
    await expect(placeholder).toContainText('Loading editor…');
    await expect(page.locator('.monaco-editor')).toHaveCount(0);
    // The page asked for the editor once the diagnostics were in, without being told to.
    await expect.poll(() => editorAsked).toBe(true);

    releaseEditor();
    await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
    await expect(placeholder).toHaveCount(0);
    // The first error is shown in the editor (asked for before the editor existed).
    await expect(page.locator('.monaco-editor .squiggly-error').first()).toBeVisible();

    // And it can be typed in: a wrong host becomes a new problem row.
    const line = page.locator('.monaco-editor .view-line').filter({ hasText: 'host: reviews2' });
    await line.click();
    await page.keyboard.press('End');
    await page.keyboard.type('x');
    await expect(page.locator('.monaco-editor .view-lines')).toContainText('host: reviews2x');
    await expect(rows.filter({ hasText: 'reviews2x' })).toHaveCount(1);
    await expect(rows.filter({ hasText: '"reviews2"' })).toHaveCount(0);
  });

  test('a problem clicked before the editor has loaded is shown in it once it has', async ({ page }) => {
    let releaseEditor!: () => void;
    const editorHeld = new Promise<void>((resolve) => (releaseEditor = resolve));
    await page.route(/\/MonacoEditor-[^/]*\.js$/, async (route) => {
      await editorHeld;
      await route.continue();
    });
    await page.goto('./');
    // istioctl puts IST0162 on line 100; a click selects the field on line 103.
    const row = page.getByTestId('problem-row').filter({ hasText: 'IST0162' });
    await expect(row.getByTestId('problem-location')).toHaveText('networking.yaml:100');
    await expect(page.getByTestId('editor-placeholder')).toBeVisible();
    await row.click();

    releaseEditor();
    await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
    await expect(page.getByTestId('cursor-position')).toHaveText(/^Ln 103, Col \d+$/);
    await expect(page.locator('.monaco-editor .view-line').filter({ hasText: 'number: 9000' })).toBeInViewport();
  });

  test('no editor script is requested before the first Problems row is on the page', async ({ page }) => {
    await watchFirstRow(page);
    const requests: Array<{ url: string; at: number }> = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script' || /\.js(\?|$)/.test(r.url())) requests.push({ url: r.url(), at: Date.now() });
    });

    await page.goto('./');
    await expect(page.getByTestId('problem-row').first()).toBeVisible();
    // Monaco loads after them: wait for it, so every script the page asks for is in the list.
    await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
    const firstRowAt = await page.evaluate(() => (window as unknown as { __firstRowAt?: number }).__firstRowAt ?? null);
    expect(firstRowAt).not.toBeNull();

    // The page's own clock says when each script was asked for.
    const started = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => ({ url: e.name, start: e.startTime })));
    const startOf = (url: string) => started.find((s) => s.url === url)?.start;
    // A script is Monaco's if its text sets up Monaco (the editor API's environment hook).
    const isMonaco = async (url: string) => {
      const res = await page.request.get(url);
      return (await res.text()).includes('MonacoEnvironment');
    };

    const monaco: string[] = [];
    const beforeRow: string[] = [];
    for (const r of requests) {
      if (!r.url.startsWith('http')) continue;
      if (!(await isMonaco(r.url))) continue;
      monaco.push(r.url);
      const start = startOf(r.url);
      if (start === undefined || start < firstRowAt!) beforeRow.push(`${r.url} at ${start}`);
    }
    // The check sees Monaco at all (so its absence before the row means something)…
    expect(monaco.length).toBeGreaterThan(0);
    // …and none of it was asked for before the first row.
    expect(beforeRow, `Monaco requested before the first problem row (at ${firstRowAt} ms)`).toEqual([]);
    // Nor was it the timeout that let it in: the first results did.
    expect(await page.evaluate(() => window.__meshWorkbench?.firstResults().reason)).toBe('results');
  });
});
