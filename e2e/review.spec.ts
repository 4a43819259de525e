// A shared link as its reader uses it: the workspace is read-only everywhere (no Fix, no
// Suppress, no typing, no new file, rename, delete or sample), "Copy to my workspaces" saves
// exactly what was shared, and a CA whose key was redacted before sharing is not reported as
// refused by istiod: the key is "redacted in this link".
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { test, expect, type Page } from '@playwright/test';
import * as x509 from '@peculiar/x509';
import { encodeShareFragment } from '../src/core/share/link.ts';
import { redact } from '../src/core/share/redact.ts';
import { encodePem } from '../src/core/pki/pem.ts';
import { cacertsSecretYaml } from '../src/core/pki/generate.ts';
import { openView } from './views.ts';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const READ_ONLY = 'This is a shared link, read-only. Use "Copy to my workspaces" to edit it.';

/** A VirtualService routing to a host that does not exist: IST0101, with the fix "Change host to "reviews"". */
const REVIEWS = [
  'apiVersion: v1',
  'kind: Service',
  'metadata:',
  '  name: reviews',
  '  namespace: default',
  'spec:',
  '  selector:',
  '    app: reviews',
  '  ports:',
  '  - name: http',
  '    port: 9080',
  '---',
  'apiVersion: networking.istio.io/v1',
  'kind: VirtualService',
  'metadata:',
  '  name: reviews',
  '  namespace: default',
  'spec:',
  '  hosts:',
  '  - reviews',
  '  http:',
  '  - route:',
  '    - destination:',
  '        host: reviews2',
  '',
].join('\n');
const NAMESPACE = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: default\n';

const editorText = (page: Page, path: string) => page.evaluate((p) => window.__meshWorkbench?.editor?.value(p) ?? null, path);

async function openLink(page: Page, files: { path: string; text: string }[], title: string, open: string): Promise<void> {
  const frag = encodeShareFragment({ files, title, openTabs: [open] });
  await page.goto(`./#${frag}`);
  await expect(page.getByTestId('review-banner')).toContainText('read-only');
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
  await expect(page.getByTestId('last-analysis')).toBeVisible();
}

test('a shared link is read-only: no fix, no suppression, no typing, no new file; the copy holds exactly what was shared', async ({ page }) => {
  await openLink(
    page,
    [
      { path: 'reviews.yaml', text: REVIEWS },
      { path: 'namespace.yaml', text: NAMESPACE },
    ],
    'Review mode',
    'reviews.yaml',
  );
  await expect.poll(() => editorText(page, 'reviews.yaml')).toBe(REVIEWS);
  const row = page.getByTestId('problem-row').filter({ hasText: 'IST0101' }).filter({ hasText: 'reviews2' });
  await expect(row).toHaveCount(1);

  // The Problems row offers neither Fix nor Suppress.
  await expect(row.getByTestId('fix-button')).toHaveCount(0);
  await expect(row.getByTestId('suppress-button')).toHaveCount(0);

  // Nor does the command palette, at the problem (the row puts the cursor on it).
  await row.click();
  await expect(page.getByTestId('cursor-position')).toHaveText(/^Ln 24, /);
  await page.getByTestId('palette-button').click();
  await page.getByTestId('palette-input').fill('>Go to file');
  await expect(page.getByTestId('palette-item')).toHaveCount(1);
  await page.getByTestId('palette-input').fill('>Change host');
  await expect(page.getByTestId('palette-item')).toHaveCount(0);
  await page.getByTestId('palette-input').fill('>Suppress');
  await expect(page.getByTestId('palette-item')).toHaveCount(0);
  await page.getByTestId('palette-input').fill('>New file');
  await expect(page.getByTestId('palette-item')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('command-palette')).toHaveCount(0);

  // Typing in the editor changes nothing; Monaco says why.
  await page.locator('.monaco-editor .view-line').filter({ hasText: 'host: reviews2' }).click();
  await page.keyboard.type('zzz');
  await page.keyboard.press('Enter');
  await expect(page.locator('.monaco-editor-overlaymessage')).toContainText(READ_ONLY);
  expect(await editorText(page, 'reviews.yaml')).toBe(REVIEWS);

  // Ctrl+S does not claim that the link is kept in this browser.
  await page.keyboard.press('ControlOrMeta+S');
  await expect(page.getByTestId('notice').filter({ hasText: 'This is a shared link: nothing of it is saved in this browser' })).toHaveCount(1);

  // No new file (Alt+N), no rename or delete, no upload, no sample: the app says why.
  await page.keyboard.press('Alt+N');
  await expect(page.getByTestId('notice').filter({ hasText: READ_ONLY })).toHaveCount(1);
  await expect(page.getByTestId('file-item')).toHaveCount(2);
  await expect(page.getByTestId('new-file')).toHaveCount(0);
  await expect(page.getByTestId('upload-button')).toHaveCount(0);
  const file = page.locator('[data-testid="file-item"][data-path="namespace.yaml"]');
  await expect(file.getByTestId('rename-file')).toHaveCount(0);
  await expect(file.getByTestId('delete-file')).toHaveCount(0);
  await file.click({ button: 'right' });
  const menu = page.getByTestId('file-menu');
  await expect(menu).toBeVisible();
  await expect(menu).toContainText('Download namespace.yaml');
  await expect(menu).not.toContainText('Rename');
  await expect(menu).not.toContainText('Delete');
  await page.keyboard.press('Escape');
  await file.focus();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('file-item')).toHaveCount(2);
  await expect(page.getByTestId('samples-button')).toBeDisabled();
  expect(await editorText(page, 'reviews.yaml')).toBe(REVIEWS);
  expect(await editorText(page, 'namespace.yaml')).toBe(NAMESPACE);

  // Copy to my workspaces: a workspace of my own with the shared text, byte for byte, where
  // the fix is offered (so it was there all along, only not in the read-only view).
  await page.getByTestId('copy-to-workspaces').click();
  await expect(page.getByTestId('review-banner')).toHaveCount(0);
  await expect(page.getByTestId('workspace-select').locator('option:checked')).toHaveText('Shared: Review mode');
  await expect(page.getByTestId('file-item')).toHaveCount(2);
  await expect.poll(() => editorText(page, 'reviews.yaml')).toBe(REVIEWS);
  await page.locator('[data-testid="file-item"][data-path="namespace.yaml"]').click();
  await expect.poll(() => editorText(page, 'namespace.yaml')).toBe(NAMESPACE);
  const copied = page.getByTestId('problem-row').filter({ hasText: 'IST0101' }).filter({ hasText: 'reviews2' });
  await expect(copied.getByTestId('fix-button')).toBeVisible();
  await expect(copied.getByTestId('suppress-button')).toHaveCount(1);
});

/** A self-signed CA certificate (CA:TRUE, keyCertSign) and its key, made here and never checked in. */
async function selfSignedCa(): Promise<{ cert: string; key: string }> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '5a17e2',
    name: 'O=Review spec, CN=Review Root CA',
    notBefore: new Date(now - 86400000),
    notAfter: new Date(now + 3650 * 86400000),
    signingAlgorithm: alg,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const key = encodePem('PRIVATE KEY', new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)));
  return { cert: cert.toString('pem') + '\n', key };
}

test('a cacerts Secret whose CA key was redacted before sharing: the key is "redacted in this link", istiod is not said to refuse it', async ({ page }) => {
  const ca = await selfSignedCa();
  // The sharer's cacerts Secret, redacted as the Share dialog redacts it.
  const shared = redact([{ path: 'cacerts.yaml', text: cacertsSecretYaml({ caCert: ca.cert, caKey: ca.key, certChain: ca.cert, rootCert: ca.cert }) }]);
  const keyBody = ca.key.split('\n')[1]!;
  expect(shared.files[0]!.text).not.toContain(Buffer.from(ca.key).toString('base64').slice(0, 40));
  expect(shared.items.map((i) => i.what)).toEqual(['Secret istio-system/cacerts data["ca-key.pem"]']);
  await openLink(page, shared.files, 'Redacted CA', 'cacerts.yaml');
  await expect.poll(() => editorText(page, 'cacerts.yaml')).not.toContain(keyBody);
  const panel = (await openView(page, 'certs')).getByTestId('certs-panel');
  await expect(panel).toBeVisible();
  const plugin = page.locator('[data-testid="certs-scenario"][data-kind="plugin-ca"]');
  await expect(plugin).toHaveAttribute('data-ok', 'true');
  await expect(plugin.getByTestId('certs-verdict')).toContainText('ca-key.pem was redacted in this link');
  await expect(plugin.getByTestId('certs-step').filter({ hasText: 'chain verification' })).toHaveAttribute('data-status', 'pass');
  await expect(plugin.getByTestId('certs-step').filter({ hasText: 'key parse' })).toHaveAttribute('data-status', 'skipped');
  await expect(page.getByTestId('certs-key')).toContainText('key redacted in this link');
  await expect(page.getByTestId('certs-key')).not.toContainText('redacted by Envoy');
  await expect(page.locator('[data-testid="certs-finding"][data-id="KEY_REDACTED_IN_LINK"]')).toHaveCount(1);
  await expect(panel).not.toContainText('istiod would refuse');
  await expect(panel).not.toContainText('KEY_MISMATCH');
});
