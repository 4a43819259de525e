// The inspector says what the analysis assumed: pods derived from Deployments (in its
// Workloads list), and the analyzers skipped because the files hold no object of a kind they need.
import { test, expect } from '@playwright/test';
import { analysisReady } from './ready.ts';

const NAMESPACE = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n  labels:\n    istio-injection: enabled\n';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: cart
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels: {app: cart}
  template:
    metadata:
      labels: {app: cart, version: v1}
    spec:
      containers:
      - name: cart
        image: example.org/cart:1
`;

test('uploaded Deployments show as derived pods, and skipped analyzers say what to add', async ({ page }) => {
  await page.goto('./');
  await analysisReady(page);
  // Remove the sample's files, then upload a namespace and a Deployment without pods.
  while ((await page.getByTestId('file-item').count()) > 0) {
    const first = page.getByTestId('file-item').first();
    const count = await page.getByTestId('file-item').count();
    await first.hover();
    await first.getByRole('button', { name: /^Delete/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete file' }).click();
    await expect(page.getByTestId('file-item')).toHaveCount(count - 1);
  }
  await page.getByTestId('upload-input').setInputFiles([
    { name: 'namespace.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(NAMESPACE) },
    { name: 'cart.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(DEPLOYMENT) },
  ]);
  // The inspector lists the workloads (from the worker's workloads query): two pods derived
  // from the Deployment, with the sidecar the namespace's injection label gives them, and the
  // assumed ingress gateway.
  const workloads = page.getByTestId('workloads');
  await expect(workloads).toContainText('Workloads (3)');
  await expect(page.getByTestId('workloads-summary')).toContainText('3 with an Istio proxy');
  await expect(page.getByTestId('workloads-summary')).toContainText('2 derived from controllers');
  await expect(workloads.locator('[data-testid="workload-row"][data-derived="true"]')).toHaveCount(2);
  await expect(workloads.getByTestId('workload-row').filter({ hasText: 'istio-ingressgateway-dummypod' })).toContainText('assumed ingress gateway');
  const first = workloads.locator('[data-testid="workload-row"][data-derived="true"]').first();
  await expect(first).toContainText(/shop\/cart-[a-z0-9]{10}-[a-z0-9]{5}/);
  await expect(first).toContainText('sidecar');
  await expect(first).toContainText('derived from Deployment shop/cart');
  await expect(first).toContainText('spiffe://cluster.local/ns/shop/sa/default');
  const skipped = page.getByTestId('skipped-analyzers');
  await expect(skipped).toContainText('Skipped analyzers');
  await expect(skipped).toContainText('Services');
  await expect(skipped).toContainText('virtualservice.DestinationHostAnalyzer');
});
