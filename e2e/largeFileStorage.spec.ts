// A large file is stored in IndexedDB as a Blob (encoded a piece at a time, not as one huge
// string): it survives a reload with the same text, and so does an edit made to it.
import { test, expect, type Page } from '@playwright/test';
import { editorReady } from './ready.ts';

const fileItem = (page: Page, path: string) => page.locator(`[data-testid="file-item"][data-path="${path}"]`);

/** About 12 MB of small ConfigMaps (with some non-ASCII text). */
function clusterDump(): string {
  const docs: string[] = [];
  let length = 0;
  for (let i = 0; length < 12 * 1024 * 1024; i++) {
    const doc = `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n  namespace: ns-${i % 50}\ndata:\n  note: "café ${i} ☕"\n  value: "${'x'.repeat(60)}"\n`;
    docs.push(doc);
    length += doc.length;
  }
  return docs.join('');
}

/** Length, start, middle and end of a file's text in the editor (null while it has no model). */
function editorText(page: Page, path: string) {
  return page.evaluate((p) => {
    const v = window.__meshWorkbench?.editor?.value(p);
    if (v == null) return null;
    const mid = v.length >> 1;
    return { length: v.length, head: v.slice(0, 300), middle: v.slice(mid, mid + 300), tail: v.slice(-300) };
  }, path);
}

function summary(text: string) {
  const mid = text.length >> 1;
  return { length: text.length, head: text.slice(0, 300), middle: text.slice(mid, mid + 300), tail: text.slice(-300) };
}

/** What the stored record holds for `path`: a Blob's size, or a text's length. */
function storedForm(page: Page, path: string) {
  return page.evaluate(
    (p) =>
      new Promise<{ blob?: number; text?: number } | null>((resolve) => {
        const req = indexedDB.open('mesh-workbench');
        req.onsuccess = () => {
          const all = req.result.transaction('workspaces').objectStore('workspaces').getAll();
          all.onsuccess = () => {
            for (const w of all.result as Array<{ files: Array<{ path: string; text?: string; blob?: Blob }> }>) {
              const f = w.files.find((x) => x.path === p);
              if (f) return resolve(f.blob instanceof Blob ? { blob: f.blob.size } : { text: f.text?.length ?? 0 });
            }
            resolve(null);
          };
        };
      }),
    path,
  );
}

test('a 12 MB file is stored as a Blob and survives reloads, with an edit', async ({ page }) => {
  const big = clusterDump();
  await page.goto('./');
  await editorReady(page);
  const status = page.getByTestId('save-status');

  await page.getByTestId('upload-input').setInputFiles([{ name: 'big.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(big) }]);
  await expect(fileItem(page, 'big.yaml')).toBeVisible();
  await expect.poll(() => editorText(page, 'big.yaml'), { timeout: 60_000 }).toEqual(summary(big));
  await expect(status).toHaveAttribute('data-status', 'saved', { timeout: 60_000 });
  await expect.poll(() => storedForm(page, 'big.yaml')).toEqual({ blob: Buffer.byteLength(big) });

  await page.reload();
  await editorReady(page);
  await expect(fileItem(page, 'big.yaml')).toHaveAttribute('title', /big\.yaml · 12\.\d MB/, { timeout: 60_000 });
  await fileItem(page, 'big.yaml').click();
  await expect.poll(() => editorText(page, 'big.yaml'), { timeout: 60_000 }).toEqual(summary(big));

  // An edit at the end of the file.
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('# edited é');
  const edited = `${big}# edited é`;
  await expect.poll(() => editorText(page, 'big.yaml')).toEqual(summary(edited));
  await expect(status).not.toHaveAttribute('data-status', 'saved');
  await expect(status).toHaveAttribute('data-status', 'saved', { timeout: 60_000 });
  await expect.poll(() => storedForm(page, 'big.yaml')).toEqual({ blob: Buffer.byteLength(edited) });

  await page.reload();
  await editorReady(page);
  await fileItem(page, 'big.yaml').click();
  await expect.poll(() => editorText(page, 'big.yaml'), { timeout: 60_000 }).toEqual(summary(edited));
  await expect(page.getByTestId('notice')).toHaveCount(0);
});
