// Waiting for the workbench by its named readiness signals (src/ui/debug.ts sets them on <html>),
// never for a fixed time. On a busy machine the first analysis and the editor's chunk can take
// far longer than an ordinary step, so these waits are long and say what did not arrive.
import { expect, type Page } from '@playwright/test';

/** Long enough for a 2-core machine running another build beside the tests. */
export const READY_TIMEOUT_MS = 120_000;

/** The first analysis result (or a failure) has reached the page. */
export async function analysisReady(page: Page): Promise<void> {
  await expect(
    page.locator('html'),
    `the first analysis result did not reach the page within ${READY_TIMEOUT_MS / 1000} s (html[data-analysis="ready"])`,
  ).toHaveAttribute('data-analysis', 'ready', { timeout: READY_TIMEOUT_MS });
}

/** The first analysis is in and Monaco is mounted, showing text. */
export async function editorReady(page: Page): Promise<void> {
  await analysisReady(page);
  await expect(
    page.locator('html'),
    `the editor (Monaco) was not mounted within ${READY_TIMEOUT_MS / 1000} s of the first results (html[data-editor="ready"])`,
  ).toHaveAttribute('data-editor', 'ready', { timeout: READY_TIMEOUT_MS });
  await expect(page.locator('.monaco-editor .view-lines').first()).toBeVisible();
}
