/**
 * A long step keeps its actions in view: on a package with many tools, the Access step's Next stays
 * on screen at 800×600 while the person scrolls through the list, and Tab through the rows never
 * hides the focused row behind it.
 */
import { join } from 'node:path';
import { manyToolName, manyToolsManifest, manyToolsModule } from '../../test/helpers/many-tools';
import { expect, test } from '../support/app';
import { REPO_ROOT } from '../support/electron-binary';
import { packFileSet } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z', viewport: { width: 800, height: 600 } });

function packManyTools(count: number): string {
  const files: Record<string, string> = { 'apollia.toml': manyToolsManifest('many-tools', count) };
  for (let i = 0; i < count; i++) files[`tools/${manyToolName(i)}.py`] = manyToolsModule(manyToolName(i));
  return packFileSet(files, 'many-tools-1.0.0.apo').path;
}

test('the Access step of a package with many tools keeps Next in view while scrolling', async ({ page, app }) => {
  test.slow();
  await app.open(packManyTools(60));
  await expect(page.getByRole('heading', { level: 1, name: 'Install many-tools' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Step 2 of 4: What it asks to use' })).toBeVisible();
  const next = page.getByRole('button', { name: 'Next' });
  await expect(next).toBeInViewport();
  await page.mouse.wheel(0, 2500);
  await expect(next).toBeInViewport();
  // The window as it is (not the full page): where the gallery goes when refreshed, else the ignored folder.
  await page.screenshot({ path: join(process.env['E2E_SCREENSHOTS_DIR'] ?? join(REPO_ROOT, 'test-results', 'screenshots'), 'wizard-actions-in-view-800x600.png') });
  // A row reached with Tab is not hidden behind the actions.
  const row = page
    .getByRole('group', { name: /What Operator may use/ })
    .getByRole('checkbox')
    .nth(30);
  await row.focus();
  await expect(row).toBeInViewport();
  const [rowBox, navBox] = await Promise.all([row.boundingBox(), next.boundingBox()]);
  expect((rowBox?.y ?? 0) + (rowBox?.height ?? 0)).toBeLessThanOrEqual(navBox?.y ?? 0);
});
