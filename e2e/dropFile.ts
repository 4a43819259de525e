// Dropping a file from disk onto the app, as a person drags one from their file manager: the
// file goes through a file input (Playwright streams it from disk, whatever its size) and is
// then dropped on the window in a DataTransfer, the way the browser delivers a real drop.
import type { Page } from '@playwright/test';

export async function dropFileFromDisk(page: Page, path: string): Promise<void> {
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'e2e-drop-source';
    input.hidden = true;
    document.body.append(input);
  });
  await page.locator('#e2e-drop-source').setInputFiles(path);
  await page.evaluate(() => {
    const input = document.getElementById('e2e-drop-source') as HTMLInputElement;
    const file = input.files?.[0];
    input.remove();
    if (!file) throw new Error('no file to drop');
    // When the drop happens (page time): what came before it is the harness filling the input.
    (window as unknown as { __dropAt?: number }).__dropAt = performance.now();
    const data = new DataTransfer();
    data.items.add(file);
    for (const type of ['dragenter', 'dragover', 'drop']) {
      window.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  });
}
