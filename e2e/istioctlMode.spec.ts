// The inspector's "istioctl file mode" checkbox: the analysis then reports what
// istioctl analyze --use-kube=false reports. Its reader takes no Services from the files, so
// the analyzer that needs them (virtualservice.DestinationHostAnalyzer) is skipped, and it makes
// no CRD-schema findings.
import { test, expect } from '@playwright/test';
import { analysisReady } from './ready.ts';

const FILES = `apiVersion: v1
kind: Service
metadata:
  name: reviews
spec:
  ports:
  - name: http
    port: 9080
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: reviews
spec:
  hosts: [reviews]
  http:
  - route:
    - destination:
        host: ratings
---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: reviews
spec:
  host: reviews
  trafficPolicy:
    connectionPool:
      tcp:
        maxConnections: "100"
`;

test('ticking istioctl file mode hides the findings istioctl does not make; unticking brings them back', async ({ page }) => {
  await page.goto('./');
  await analysisReady(page);
  while ((await page.getByTestId('file-item').count()) > 0) {
    const first = page.getByTestId('file-item').first();
    const count = await page.getByTestId('file-item').count();
    await first.hover();
    await first.getByRole('button', { name: /^Delete/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete file' }).click();
    await expect(page.getByTestId('file-item')).toHaveCount(count - 1);
  }
  await page.getByTestId('upload-input').setInputFiles([{ name: 'mesh.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(FILES) }]);
  const rows = page.getByTestId('problem-row');
  const missingHost = rows.filter({ hasText: 'Referenced host not found: "ratings"' });
  const schema = rows.filter({ hasText: 'maxConnections' });
  await expect(missingHost).toHaveCount(1);
  await expect(schema).toHaveCount(1);

  const box = page.getByTestId('istioctl-mode');
  await expect(box).not.toBeChecked();
  await box.check();
  await expect(missingHost).toHaveCount(0);
  await expect(schema).toHaveCount(0);
  await expect(page.getByTestId('skipped-analyzers')).toContainText('virtualservice.DestinationHostAnalyzer');
  await expect(page.getByTestId('skipped-analyzers')).toContainText('istioctl reads no Namespaces, Services, Pods, Nodes, Secrets from files');

  await box.uncheck();
  await expect(missingHost).toHaveCount(1);
  await expect(schema).toHaveCount(1);
});
