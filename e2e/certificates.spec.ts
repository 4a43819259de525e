// The Certificates view, used as an operator would: paste the cacerts files, see the chain
// verify; paste a key that is not the CA's, see it on the CA's card; open a gateway whose
// credential expired and see the error in the editor and in the view; generate a test PKI
// and inspect it. The view opens in the main area from the inspector's summary.
import { generateKeyPairSync } from 'node:crypto';
import { test, expect, type Page, type Locator, type APIRequestContext } from '@playwright/test';
import { openSample } from './samples.ts';
import { openView } from './views.ts';
import { analysisReady } from './ready.ts';

const CACERTS = ['ca-cert.pem', 'ca-key.pem', 'cert-chain.pem', 'root-cert.pem'];

async function openCertificates(page: Page): Promise<void> {
  await page.goto('./');
  await analysisReady(page);
  const view = await openView(page, 'certs');
  await expect(view.getByTestId('certs-panel')).toBeVisible();
}

/** Pastes `text` into the tab under a file name, as a person copying a file would. */
async function paste(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId('certs-paste-name').fill(name);
  await page.getByTestId('certs-paste').fill(text);
  await page.getByTestId('certs-inspect').click();
  await expect(page.getByTestId('certs-clear')).toContainText(name);
}

async function sampleFile(request: APIRequestContext, name: string): Promise<string> {
  const res = await request.get(`samples/certificates/cacerts/${name}`);
  expect(res.ok()).toBe(true);
  return res.text();
}

function scenario(page: Page, kind: string): Locator {
  return page.locator(`[data-testid="certs-scenario"][data-kind="${kind}"]`);
}

function card(page: Page, subject: string): Locator {
  return page.getByTestId('certs-card').filter({ has: page.getByTestId('certs-subject').filter({ hasText: subject }) });
}

test.describe('Certificates', () => {
  test("the inspector's tab sums up the workspace's certificates and opens the view beside the files", async ({ page }) => {
    await openSample(page, 'Certificates', 'gateway.yaml');
    await page.getByTestId('inspector-tab-certs').click();
    // The sample's gateway credential has expired: its error is counted in the summary.
    await expect(page.getByTestId('certs-summary-counts')).toContainText(/Workspace: \d+ certificates?/);
    await expect(page.getByTestId('certs-summary-panel')).toContainText(/[1-9]\d* errors?/);
    const open = page.getByTestId('open-view-certs');
    await expect(open).toHaveText('Open Certificates');
    await open.click();
    const view = page.getByTestId('view-certs');
    await expect(view).toBeVisible();
    await expect(page.getByTestId('view-tab').filter({ hasText: 'Certificates' })).toHaveAttribute('aria-selected', 'true');
    // The whole view is in the main area, none of it in the inspector.
    await expect(view.getByTestId('certs-panel')).toBeVisible();
    await expect(page.getByTestId('certs-panel')).toHaveCount(1);
    // It uses the main area's width and scrolls inside it.
    const viewBox = (await view.boundingBox())!;
    const panelBox = (await view.getByTestId('certs-panel').boundingBox())!;
    expect(panelBox.width).toBeGreaterThan(viewBox.width * 0.85);
  });

  test('pasting the sample cacerts files shows a verified chain', async ({ page, request }) => {
    await openCertificates(page);
    for (const f of CACERTS) await paste(page, f, await sampleFile(request, f));

    const ca = scenario(page, 'plugin-ca');
    await expect(ca).toHaveAttribute('data-ok', 'true');
    await expect(ca.getByTestId('certs-verdict')).toHaveText('istiod would load this plug-in CA');
    await expect(ca.getByTestId('certs-step').filter({ hasText: 'key matches the signing cert' })).toHaveAttribute('data-status', 'pass');
    // The chain: the root on top, the intermediate under it, the link between them checked.
    const chain = ca.getByTestId('certs-chain');
    await expect(chain.getByTestId('certs-chain-verdict')).toHaveText('verified');
    await expect(chain.getByTestId('certs-chain-node')).toHaveText([/trust anchor\s+Root CA/, /leaf\s+Intermediate CA/]);
    await expect(chain.getByTestId('certs-chain-link')).toHaveAttribute('data-status', 'ok');
    await expect(chain.getByTestId('certs-chain-go')).toContainText('verified');
    // A card per certificate, with who issued it, its key and when it expires.
    await expect(page.getByTestId('certs-card')).toHaveCount(2);
    const inter = card(page, 'Intermediate CA');
    await expect(inter.locator('.certs-issuer')).toContainText('O=Istio, CN=Root CA');
    await expect(inter).toContainText('EC P-256');
    await expect(inter.getByTestId('certs-expires')).toContainText(/expires in \d+ years/);
    await expect(inter.getByTestId('certs-card-finding').filter({ hasText: 'KEY_MISMATCH' })).toHaveCount(0);
    // The key is described, never shown.
    await expect(page.getByTestId('certs-key')).toContainText('matches');
    await expect(page.getByTestId('certs-panel')).not.toContainText('MIG');
  });

  test('a key that does not match shows the key-mismatch error on the CA certificate card', async ({ page, request }) => {
    await openCertificates(page);
    for (const f of ['ca-cert.pem', 'cert-chain.pem', 'root-cert.pem']) await paste(page, f, await sampleFile(request, f));
    // Someone else's P-256 key, pasted as the CA key.
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await paste(page, 'ca-key.pem', other);

    const ca = scenario(page, 'plugin-ca');
    await expect(ca).toHaveAttribute('data-ok', 'false');
    await expect(ca.getByTestId('certs-verdict')).toContainText('the cert does not match the key');
    await expect(ca.getByTestId('certs-step').filter({ hasText: 'key matches the signing cert' })).toHaveAttribute('data-status', 'fail');
    // On the intermediate's card (the certificate the key should belong to), not the root's.
    const mismatch = card(page, 'Intermediate CA').getByTestId('certs-card-finding').filter({ hasText: 'KEY_MISMATCH' });
    await expect(mismatch).toHaveCount(1);
    await expect(mismatch).toContainText('does not match');
    await expect(card(page, 'Root CA').getByTestId('certs-card-finding').filter({ hasText: 'KEY_MISMATCH' })).toHaveCount(0);
    await expect(page.getByTestId('certs-key')).toContainText('KEY_MISMATCH');
  });

  test('a Gateway whose credential expired shows the error in the editor and in the Certificates view', async ({ page }) => {
    await openSample(page, 'Certificates', 'gateway.yaml');

    // In the editor: IST0161 on the Gateway's credentialName.
    const row = page.getByTestId('problem-row').filter({ hasText: 'IST0161' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('shop-gateway');
    await row.click();
    const line = page.locator('.monaco-editor .view-line').filter({ hasText: 'credentialName: shop-credential' });
    await expect(line).toBeVisible();
    await expect(page.locator('.monaco-editor .squiggly-error').first()).toBeVisible();
    await line.locator('span', { hasText: 'shop-credential' }).last().hover();
    await expect(page.locator('.monaco-hover').filter({ hasText: 'The credential referenced by the Gateway shop-gateway' })).toBeVisible();

    // In the Certificates view: the credential's check fails with the same code, and why.
    await openView(page, 'certs');
    const gw = scenario(page, 'gateway-credential');
    await expect(gw).toHaveAttribute('data-ok', 'false');
    await expect(gw.getByTestId('certs-verdict')).toContainText('IST0161');
    await expect(gw.getByTestId('certs-verdict')).toContainText('expired');
    await expect(gw.getByTestId('certs-step').filter({ hasText: 'IST0161 on Gateway istio-system/shop-gateway' })).toHaveAttribute('data-status', 'fail');
    const server = card(page, 'shop.example.com');
    await expect(server.getByTestId('certs-expires')).toContainText('expired');
    await expect(server.getByTestId('certs-card-finding').filter({ hasText: 'CERT_EXPIRED' })).toHaveCount(1);
    // The workspace's cacerts Secret is checked too, and is fine.
    await expect(scenario(page, 'plugin-ca')).toHaveAttribute('data-ok', 'true');
  });

  test('generate a test PKI and inspect it', async ({ page }) => {
    await openCertificates(page);
    await page.getByTestId('certs-generate').click();
    await page.getByTestId('certs-generate-run').click();
    await expect(page.getByTestId('certs-generate-download').filter({ hasText: 'cluster1/cacerts.yaml' })).toBeVisible();
    await expect(page.getByTestId('certs-generate-download').filter({ hasText: 'cluster2/ca-cert.pem' })).toBeVisible();
    await page.getByTestId('certs-generate-inspect').click();

    const ca = scenario(page, 'plugin-ca');
    await expect(ca).toHaveAttribute('data-ok', 'true');
    await expect(ca.getByTestId('certs-chain-verdict')).toHaveText('verified');
    // The workloads carry SPIFFE identities, broken down.
    const sleep = page.getByTestId('certs-spiffe').filter({ hasText: 'spiffe://cluster.local/ns/default/sa/sleep' }).first();
    await expect(sleep).toContainText('service account sleep');
    await expect(
      page.getByTestId('certs-chain').filter({ hasText: 'spiffe://cluster.local/ns/default/sa/httpbin' }).first().getByTestId('certs-chain-verdict'),
    ).toHaveText('verified');
    // The agent's side of the CA flow: the CSRs, decoded, carry the identities they ask for.
    await expect(page.getByTestId('certs-csr').filter({ hasText: 'requested SANs URI:spiffe://cluster.local/ns/default/sa/sleep' })).toContainText(
      'signature valid',
    );

    // Broken on purpose: the CA key belongs to no certificate.
    await page.getByTestId('certs-clear').click();
    await page.getByTestId('certs-generate').click();
    await page.getByTestId('certs-generate-break').selectOption('wrong-key');
    await page.getByTestId('certs-generate-run').click();
    await expect(page.getByTestId('certs-generate-broken')).toContainText('belongs to no certificate');
    await page.getByTestId('certs-generate-inspect').click();
    await expect(scenario(page, 'plugin-ca')).toHaveAttribute('data-ok', 'false');
    await expect(card(page, 'Intermediate CA').getByTestId('certs-card-finding').filter({ hasText: 'KEY_MISMATCH' })).toHaveCount(1);
  });
});
