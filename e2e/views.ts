// Shared by the specs that use a capability view (Proxy config, Data plane, Certificates,
// Review): it opens in the main area beside the file tabs, from the inspector's summary.
import { expect, type Page, type Locator } from '@playwright/test';

export type ViewId = 'proxy' | 'dataplane' | 'certs' | 'review';

/** Opens a view as a person would: its inspector tab, then "Open … view" in the summary. Returns the view's panel. */
export async function openView(page: Page, id: ViewId): Promise<Locator> {
  await page.getByTestId(`inspector-tab-${id}`).click();
  await page.getByTestId(`open-view-${id}`).click();
  const view = page.getByTestId(`view-${id}`);
  await expect(view).toBeVisible();
  return view;
}
