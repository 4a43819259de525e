// Workspace identity (#31): the title bar and the browser tab name the open workspace, a
// sample opens as a workspace of its own (the one before it stays as it was), and the
// workspace menu asks its questions in the app's own dialogs, never the browser's.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { analysisReady } from './ready.ts';

async function openApp(page: Page): Promise<string[]> {
  // Any native confirm/prompt would be a regression: note it (and dismiss it so nothing hangs).
  const native: string[] = [];
  page.on('dialog', (d) => {
    native.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto('./');
  await analysisReady(page);
  return native;
}

const title = (page: Page) => page.getByTestId('workspace-title');
const workspaces = (page: Page) => page.getByTestId('workspace-select');
const fileItem = (page: Page, path: string) => page.locator(`[data-testid="file-item"][data-path="${path}"]`);

async function workspaceMenu(page: Page, item: RegExp): Promise<void> {
  await page.getByTestId('workspace-menu-button').click();
  await page.getByTestId('workspace-menu').getByRole('menuitem', { name: item }).click();
}

async function newWorkspace(page: Page, name: string): Promise<void> {
  await workspaceMenu(page, /^New workspace/);
  const dialog = page.getByRole('dialog', { name: 'New workspace' });
  const field = dialog.getByRole('textbox', { name: 'Name' });
  await expect(field).toBeFocused();
  await field.fill(name);
  await field.press('Enter');
  await expect(dialog).toHaveCount(0);
}

test('the title bar and the tab name the open workspace: new, rename, switch back', async ({ page }) => {
  const native = await openApp(page);
  await expect(title(page)).toHaveText('Bookinfo with mistakes');
  await expect(page).toHaveTitle('Bookinfo with mistakes · Mesh Workbench');

  await newWorkspace(page, 'Staging');
  await expect(title(page)).toHaveText('Staging');
  await expect(page).toHaveTitle('Staging · Mesh Workbench');
  await expect(workspaces(page).locator('option:checked')).toHaveText('Staging');
  await expect(page.getByTestId('file-item')).toHaveCount(0);
  // Focus is back on the menu button the dialog was opened from.
  await expect(page.getByTestId('workspace-menu-button')).toBeFocused();

  // A name already taken is refused in the dialog, which stays open.
  await workspaceMenu(page, /^Rename workspace/);
  const rename = page.getByRole('dialog', { name: 'Rename workspace' });
  const field = rename.getByRole('textbox', { name: 'Name' });
  await expect(field).toHaveValue('Staging');
  await field.fill('Bookinfo with mistakes');
  await field.press('Enter');
  await expect(rename.getByRole('alert')).toHaveText('A workspace named Bookinfo with mistakes already exists.');
  await field.fill('Staging mesh');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(rename).toHaveCount(0);
  await expect(title(page)).toHaveText('Staging mesh');
  await expect(page).toHaveTitle('Staging mesh · Mesh Workbench');

  await workspaces(page).selectOption({ label: 'Bookinfo with mistakes' });
  await expect(title(page)).toHaveText('Bookinfo with mistakes');
  await expect(page).toHaveTitle('Bookinfo with mistakes · Mesh Workbench');
  await expect(fileItem(page, 'networking.yaml')).toBeVisible();

  // A reload keeps the tab's workspace and its name.
  await workspaces(page).selectOption({ label: 'Staging mesh' });
  await page.reload();
  await expect(title(page)).toHaveText('Staging mesh');
  expect(native).toEqual([]);
});

test('a sample opens as a new workspace; the one before keeps its files', async ({ page }) => {
  const native = await openApp(page);
  await newWorkspace(page, 'Staging');
  await page
    .getByTestId('upload-input')
    .setInputFiles([
      { name: 'staging.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: staging\n') },
    ]);
  await expect(fileItem(page, 'staging.yaml')).toBeVisible();
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');

  await page.getByTestId('samples-button').click();
  await page.getByTestId('sample-item').filter({ hasText: 'Certificates' }).click();
  await expect(title(page)).toHaveText('Certificates');
  await expect(page).toHaveTitle('Certificates · Mesh Workbench');
  await expect(fileItem(page, 'gateway.yaml')).toBeVisible();
  await expect(fileItem(page, 'staging.yaml')).toHaveCount(0);
  await expect(workspaces(page).locator('option')).toHaveText(['Bookinfo with mistakes', 'Certificates', 'Staging']);

  // The same sample again: another workspace, with a name of its own.
  await page.getByTestId('samples-button').click();
  await page.getByTestId('sample-item').filter({ hasText: 'Certificates' }).click();
  await expect(title(page)).toHaveText('Certificates (2)');

  await workspaces(page).selectOption({ label: 'Staging' });
  await expect(title(page)).toHaveText('Staging');
  await expect(fileItem(page, 'staging.yaml')).toBeVisible();
  await expect(page.getByTestId('file-item')).toHaveCount(1);
  expect(native).toEqual([]);
});

test('deleting a workspace asks in the app; Escape keeps it, the labelled button deletes it', async ({ page }) => {
  const native = await openApp(page);
  await newWorkspace(page, 'Scratch');

  await workspaceMenu(page, /^Delete workspace/);
  const ask = page.getByRole('dialog', { name: 'Delete workspace "Scratch"?' });
  await expect(ask).toBeVisible();
  await expect(ask).toHaveAttribute('aria-modal', 'true');
  // The safe answer has focus; the destructive one says what it does.
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expect(ask.getByRole('button', { name: 'Delete workspace' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(page.getByTestId('workspace-menu-button')).toBeFocused();
  await expect(workspaces(page).locator('option')).toHaveCount(2);
  await expect(title(page)).toHaveText('Scratch');

  await workspaceMenu(page, /^Delete workspace/);
  await ask.getByRole('button', { name: 'Delete workspace' }).click();
  await expect(ask).toHaveCount(0);
  await expect(workspaces(page).locator('option')).toHaveCount(1);
  await expect(title(page)).toHaveText('Bookinfo with mistakes');
  await expect(fileItem(page, 'networking.yaml')).toBeVisible();
  expect(native).toEqual([]);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the delete dialog passes axe in the ${scheme} theme (its warning-coloured button included)`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openApp(page);
    await workspaceMenu(page, /^Delete workspace/);
    const ask = page.getByRole('dialog', { name: /^Delete workspace/ });
    await expect(ask).toBeVisible();
    const results = await new AxeBuilder({ page }).include('[data-testid="delete-workspace-dialog"]').analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(ask).toHaveCount(0);
  });
}
