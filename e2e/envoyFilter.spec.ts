// An EnvoyFilter in the Proxy config view: a Lua filter inserted before the router of the
// productpage sidecar's inbound HTTP shows in its listener with the patch that put it there,
// "What changes" lists the listener it changed, and a mistyped listener name makes the patch
// apply to no proxy, which the Problems list says at the patch's match.
import { test, expect, type Page } from '@playwright/test';
import { openSample } from './samples.ts';
import { openView } from './views.ts';
import { pasteIntoNewFile } from './editorPaste.ts';

const envoyFilter = (listener: string) => `apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata:
  name: lua-productpage
  namespace: bookinfo
spec:
  workloadSelector:
    labels:
      app: productpage
  configPatches:
  - applyTo: HTTP_FILTER
    match:
      context: SIDECAR_INBOUND
      listener:
        name: ${listener}
        filterChain:
          filter:
            name: envoy.filters.network.http_connection_manager
            subFilter:
              name: envoy.filters.http.router
    patch:
      operation: INSERT_BEFORE
      value:
        name: envoy.filters.http.lua
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua
          default_source_code:
            inline_string: "function envoy_on_request(h) h:headers():add('x-lua', '1') end"
`;

async function showView(page: Page): Promise<void> {
  await page.locator('[data-testid="view-tab"][data-view="proxy"]').click();
  await expect(page.getByTestId('view-proxy')).toBeVisible();
}

test.describe('EnvoyFilter', () => {
  test.beforeEach(async ({ context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });

  test('a Lua filter before the router on productpage: shown with its patch, listed in What changes; a mistyped listener applies to no proxy', async ({
    page,
  }) => {
    await openSample(page, /^Bookinfo(?! with)/, 'networking.yaml');
    await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
    const panel = await openView(page, 'proxy');
    const picker = panel.getByTestId('proxy-picker');
    const productpage = await picker.locator('option', { hasText: 'productpage-v1' }).getAttribute('value');
    await picker.selectOption(productpage!);
    // Pin the config before the EnvoyFilter as the baseline of What changes.
    await panel.getByTestId('proxy-tab-changes').click();
    await panel.getByTestId('changes-pin').click();
    await expect(panel.getByTestId('changes-none')).toBeVisible();

    // Back to the editor, where a new file opens.
    await page.getByTestId('tab').filter({ hasText: 'networking.yaml' }).click();
    await pasteIntoNewFile(page, envoyFilter('virtualInbound'));
    await expect.poll(() => page.evaluate(() => window.__meshWorkbench?.editor?.value('untitled-1.yaml') ?? '')).toContain('envoy.filters.http.lua');
    await showView(page);

    // What changes: the inbound listener, with the Lua filter among its changed fields.
    const changed = panel.locator('[data-testid="change-row"][data-type="listener"][data-change="changed"]').filter({ hasText: 'virtualInbound' });
    await expect(changed).toBeVisible();
    await expect(changed).toContainText('envoy.filters.http.lua');

    // Listeners: the inbound listener's JSON holds the filter, and its sources name the patch.
    await panel.getByTestId('proxy-tab-listeners').click();
    // The inbound chain to productpage's port (istioctl's row: 15006, Trans: tls; Addr: *:9080; mTLS is STRICT here).
    const inbound = panel
      .getByTestId('proxy-table-listeners')
      .getByTestId('proxy-row')
      .filter({ hasText: '15006' })
      .filter({ hasText: 'Addr: *:9080' })
      .first();
    await inbound.click();
    await expect(panel.getByTestId('proxy-json')).toContainText('envoy.filters.http.lua');
    await expect(panel.getByTestId('proxy-sources')).toContainText('EnvoyFilter bookinfo/lua-productpage, patch 0');

    // No problem about the patch while it applies.
    const noProxy = page.getByTestId('problem-row').filter({ hasText: 'applies to no proxy' });
    await expect(noProxy).toHaveCount(0);

    // A mistyped listener name: the patch changes nothing, and the Problems list says so at its match.
    await page.getByTestId('tab').filter({ hasText: 'untitled-1.yaml' }).click();
    const text = await page.evaluate(() => window.__meshWorkbench?.editor?.value('untitled-1.yaml') ?? '');
    const nameLine = text.split('\n').findIndex((l) => l.includes('name: virtualInbound')) + 1;
    await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
    await page.keyboard.press('ControlOrMeta+Home');
    for (let i = 1; i < nameLine; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    for (let i = 0; i < 'ound'.length; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('ond');
    await expect.poll(() => page.evaluate(() => window.__meshWorkbench?.editor?.value('untitled-1.yaml') ?? '')).toContain('name: virtualInbond\n');
    await expect(noProxy).toHaveCount(1);
    await expect(noProxy).toContainText('MWB-ENVOYFILTER-NO-PROXY');
    await expect(noProxy).toContainText('"virtualInbond"');
    await showView(page);
    await panel.getByTestId('proxy-tab-changes').click();
    await expect(panel.getByTestId('changes-none')).toBeVisible();
  });
});
