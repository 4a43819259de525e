// A fresh, empty workspace made the way a person makes one: the workspace menu's "New
// workspace…", a name typed into its dialog, Enter.
import type { Page } from '@playwright/test';

export async function newWorkspace(page: Page, name: string): Promise<void> {
  await page.getByTestId('workspace-menu-button').click();
  await page
    .getByTestId('workspace-menu')
    .getByRole('menuitem', { name: /^New workspace/ })
    .click();
  const field = page.getByRole('dialog', { name: 'New workspace' }).getByRole('textbox', { name: 'Name' });
  await field.fill(name);
  await field.press('Enter');
}
