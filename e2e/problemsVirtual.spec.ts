// A long Problems list (3,000 problems) is windowed: the count shows them all, only the rows
// in view (and a few more) are in the page, and every row is still reachable by scrolling, by
// the keyboard (End, Home, arrows) and by a click that opens the editor at its line.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { analysisReady, editorReady } from './ready.ts';
import { newWorkspace } from './newWorkspace.ts';

const COUNT = 3000;

/**
 * A Service (so the host analyzer runs) and COUNT VirtualServices, each routing to a host no
 * Service has: one IST0101 "Referenced host not found" each. VirtualService vs-i's
 * `host: missing-i` is on line 22 + 13 × i (the Service takes lines 1–9, each VirtualService
 * document 13 lines from its `---`).
 */
function manyVirtualServices(): string {
  let text = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: present\n  namespace: default\nspec:\n  ports:\n  - name: http\n    port: 80\n';
  for (let i = 0; i < COUNT; i++) {
    text += `---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: vs-${i}
  namespace: default
spec:
  hosts:
  - vs-${i}.example.com
  http:
  - route:
    - destination:
        host: missing-${i}
`;
  }
  return text;
}

const hostLine = (i: number) => 22 + 13 * i;

/** The row of VirtualService vs-i's problem (the rows sort by line, so vs-i is row i). */
function problemRow(page: Page, i: number) {
  return page.getByTestId('problem-row').filter({ hasText: `Referenced host not found: "missing-${i}"` });
}

async function openManyProblems(page: Page): Promise<void> {
  await page.goto('./');
  await analysisReady(page);
  // A workspace of its own, so the list holds only the uploaded file's problems.
  await newWorkspace(page, 'Many problems');
  await page.getByTestId('upload-input').setInputFiles([{ name: 'many.yaml', mimeType: 'application/x-yaml', buffer: Buffer.from(manyVirtualServices()) }]);
  await expect(page.getByTestId('problems-count')).toHaveText(String(COUNT));
  await expect(problemRow(page, 0)).toBeVisible();
}

test('3,000 problems: all counted, few rendered, the last one reached by scrolling, End/Home and a click', async ({ page }) => {
  await openManyProblems(page);
  const rows = page.getByTestId('problem-row');
  // The table tells assistive tech its full size (3,000 rows and the header row).
  await expect(page.getByTestId('problems-table')).toHaveAttribute('aria-rowcount', String(COUNT + 1));
  await expect(problemRow(page, 0)).toHaveAttribute('aria-rowindex', '2');
  expect(await rows.count()).toBeLessThan(200);
  await expect(page.getByText(/narrow the filters/)).toHaveCount(0);

  // Keyboard: into the list from the editor with F6, then End, Home and the arrows.
  await editorReady(page);
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('F6');
  await expect(problemRow(page, 0)).toBeFocused();
  await page.keyboard.press('End');
  await expect(problemRow(page, COUNT - 1)).toBeFocused();
  await expect(problemRow(page, COUNT - 1)).toBeInViewport();
  await expect(problemRow(page, COUNT - 1)).toHaveAttribute('aria-rowindex', String(COUNT + 1));
  await page.keyboard.press('ArrowUp');
  await expect(problemRow(page, COUNT - 2)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(problemRow(page, 0)).toBeFocused();
  await expect(problemRow(page, COUNT - 1)).toHaveCount(0);
  await page.keyboard.press('ArrowDown');
  await expect(problemRow(page, 1)).toBeFocused();
  // Page Down moves a page of rows and keeps the focused row in view.
  await page.keyboard.press('PageDown');
  const paged = page.locator('[data-testid="problem-row"]:focus');
  await expect(paged).toBeInViewport();
  expect(Number(await paged.getAttribute('aria-rowindex'))).toBeGreaterThan(3);
  expect(await rows.count()).toBeLessThan(200);

  // The mouse wheel down to the end of the list: the last problem's row shows, the first is gone.
  const focusedAt = Number(await paged.getAttribute('aria-rowindex'));
  await problemRow(page, 0).hover();
  await page.mouse.wheel(0, COUNT * 40);
  await expect(problemRow(page, COUNT - 1)).toBeInViewport();
  await expect(problemRow(page, COUNT - 1).getByTestId('problem-location')).toHaveText(`many.yaml:${hostLine(COUNT - 1)}`);
  await expect(problemRow(page, 0)).toHaveCount(0);
  expect(await rows.count()).toBeLessThan(200);
  // The row that had focus keeps it, out of view, and the arrows go on from it.
  await expect(page.locator('[data-testid="problem-row"]:focus')).toHaveAttribute('aria-rowindex', String(focusedAt));
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('[data-testid="problem-row"]:focus')).toHaveAttribute('aria-rowindex', String(focusedAt + 1));
  await expect(page.locator('[data-testid="problem-row"]:focus')).toBeInViewport();
  await page.mouse.wheel(0, COUNT * 40);
  await expect(problemRow(page, COUNT - 1)).toBeInViewport();

  // A click on a row near the end opens the file at its line.
  const deep = problemRow(page, COUNT - 3);
  await expect(deep).toBeInViewport();
  await deep.click();
  await expect(page.getByTestId('cursor-position')).toHaveText(new RegExp(`^Ln ${hostLine(COUNT - 3)}, Col \\d+$`));
});

test('the windowed table passes axe: its spacer rows are hidden, its rows carry their places', async ({ page }) => {
  await openManyProblems(page);
  await problemRow(page, 0).hover();
  await page.mouse.wheel(0, 100 * 28);
  await expect(problemRow(page, 100)).toBeInViewport();
  const results = await new AxeBuilder({ page }).include('[data-testid="problems"]').analyze();
  expect(results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('a filter on the long list starts it again from the top', async ({ page }) => {
  await openManyProblems(page);
  await problemRow(page, 0).hover();
  await page.mouse.wheel(0, COUNT * 40);
  await expect(problemRow(page, COUNT - 1)).toBeInViewport();
  // "missing-1" matches missing-1, missing-10…19, missing-100…199 and missing-1000…1999:
  // 1 + 10 + 100 + 1000 = 1,111 rows, still a windowed list, shown from its first row.
  await page.getByTestId('filter-text').fill('"missing-1');
  await expect(page.getByTestId('problems-table')).toHaveAttribute('aria-rowcount', String(1111 + 1));
  await expect(problemRow(page, 1)).toBeInViewport();
  await expect(problemRow(page, 1)).toHaveAttribute('aria-rowindex', '2');
  // A filter that leaves a short list renders it all, as before (no row counts).
  await page.getByTestId('filter-text').fill('"missing-29');
  await expect(page.getByTestId('problem-row')).toHaveCount(111);
  await expect(page.getByTestId('problems-table')).not.toHaveAttribute('aria-rowcount');
});

test('scrolled with no row chosen, the long list is entered at the first row in view, not above it', async ({ page }) => {
  await openManyProblems(page);
  await editorReady(page);
  await problemRow(page, 0).hover();
  await page.mouse.wheel(0, 500 * 28);
  await expect(problemRow(page, 0)).toHaveCount(0);
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('F6');
  const focused = page.locator('[data-testid="problem-row"]:focus');
  await expect(focused).toBeInViewport();
  const at = Number(await focused.getAttribute('aria-rowindex'));
  expect(at).toBeGreaterThan(100);
  // The first row in view: the row at the top edge below the sticky header, where the one
  // before it (rendered, above the view) is under the header or scrolled out.
  const header = (await page.getByTestId('problems-table').locator('thead th').first().boundingBox())!;
  const row = (await focused.boundingBox())!;
  const before = (await page.locator(`tr.problem-row[aria-rowindex="${at - 1}"]`).boundingBox())!;
  const headerBottom = header.y + header.height;
  expect(row.y + row.height).toBeGreaterThan(headerBottom);
  expect(row.y).toBeLessThanOrEqual(headerBottom + 1);
  expect(before.y + before.height).toBeLessThanOrEqual(headerBottom + 1);
});
