/**
 * At 200% zoom (a 1180×820 window is 590×410 CSS pixels) the sidebar folds into a bar above the screen, so the
 * screen keeps the whole width; the nav and the open tabs stay reachable, by keyboard too.
 */
import { packInvoices } from '../support/packages';
import { axeCheck, expect, expectNoHorizontalScroll, shot, test } from '../support/app';

test.use({ viewport: { width: 590, height: 410 }, deviceScaleFactor: 2 });

test('at 200% the sidebar is a bar above the screen, and the screen has the width', async ({ page, app }) => {
  await app.open(packInvoices().path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
  const main = await page.getByRole('main').boundingBox();
  const header = await page.locator('.app-header').boundingBox();
  expect(main?.x).toBe(0);
  expect(main?.width).toBe(590);
  expect((header?.y ?? 0) + (header?.height ?? 0)).toBeLessThanOrEqual(main?.y ?? 0);
  // The bar stays short: the verdict still shows without scrolling.
  expect(header?.height).toBeLessThan(130);
  await expect(page.getByRole('button', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close invoices-1.2.0.apo' })).toBeVisible();
  await expectNoHorizontalScroll(page, 'the folded sidebar');
  await shot(page, 'narrow-1-sidebar-folded');
  await axeCheck(page, 'the folded sidebar');
});
