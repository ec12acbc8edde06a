/**
 * A long step keeps its actions in view: on a package with many tools the Access step is several
 * windows tall, yet at 800×600 its Next is on screen without scrolling and while the person scrolls,
 * reachable with the keyboard, and a row reached with Tab is never hidden behind the actions. The
 * gallery's full-page pictures draw the actions where they stand in the page, not over the content.
 */
import { join } from 'node:path';
import { axeCheck, expect, SCREENSHOTS, shot, stepHeading, tabTo, test } from '../support/app';
import { packManyTools } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z', viewport: { width: 800, height: 600 } });

const TOOLS = 60;
test('a long Access step at 800×600: Next in view without scrolling, while scrolling, and by keyboard', async ({
  page,
  app,
}) => {
  test.slow();
  await app.open(packManyTools(TOOLS));
  await expect(page.getByRole('heading', { level: 1, name: 'Install many-tools' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 2 of 4: What it asks to use')).toBeFocused();
  const height = await page.locator('html').evaluate((html) => html.scrollHeight);
  // Several windows tall: without the sticky row, Next would be far below the fold.
  expect(height).toBeGreaterThan(4 * 600);

  // In view as the step opens, before any scrolling.
  const next = page.getByRole('button', { name: 'Next' });
  const back = page.getByRole('button', { name: 'Back' });
  await expect(next).toBeInViewport();
  await expect(back).toBeInViewport();
  await page.screenshot({ path: join(SCREENSHOTS, 'wizard-actions-in-view-1-top-800x600.png') });

  // Still in view half-way down.
  await page.mouse.wheel(0, 2500);
  await expect(next).toBeInViewport();
  await page.screenshot({ path: join(SCREENSHOTS, 'wizard-actions-in-view-2-scrolled-800x600.png') });

  // A row reached with Tab is not hidden behind the actions.
  const row = page
    .getByRole('group', { name: /What Operator may use/ })
    .getByRole('checkbox')
    .nth(30);
  await row.focus();
  await expect(row).toBeInViewport();
  const [rowBox, navBox] = await Promise.all([row.boundingBox(), next.boundingBox()]);
  expect((rowBox?.y ?? 0) + (rowBox?.height ?? 0)).toBeLessThanOrEqual(navBox?.y ?? 0);

  // From the step's heading, Tab reaches Next; Enter on it leads on.
  await stepHeading(page, 'Step 2 of 4: What it asks to use').focus();
  await tabTo(page, next, 400);
  await expect(next).toBeInViewport();
  await axeCheck(page, 'long Access step with its actions in view');
  await page.keyboard.press('Enter');
  await expect(stepHeading(page, 'Step 3 of 4: What would start it')).toBeFocused();
});

test('a full-page picture draws the actions where they stand, after the content, then they stick again', async ({
  page,
  app,
}) => {
  test.slow();
  await app.open(packManyTools(TOOLS));
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 2 of 4: What it asks to use')).toBeFocused();
  const nav = page.locator('.wizard-nav');
  const last = page.locator('.wizard-step');
  // While the gallery's helper takes a full-page picture, the row is back in the flow: below the step, not over it.
  await page.locator('html').evaluate((html) => html.setAttribute('data-full-page-capture', ''));
  const [navBox, stepBox] = await Promise.all([nav.boundingBox(), last.boundingBox()]);
  expect(navBox?.y ?? 0).toBeGreaterThanOrEqual((stepBox?.y ?? 0) + (stepBox?.height ?? 0));
  await page.locator('html').evaluate((html) => html.removeAttribute('data-full-page-capture'));

  // The gallery's helper sets the attribute for its picture, then takes it away: each change is noted as it happens.
  await page.locator('html').evaluate((html) => {
    const seen: string[] = [];
    // The browser's MutationObserver (the e2e project is typed without the DOM).
    type Observer = new (callback: () => void) => { observe(target: unknown, options: object): void };
    const MutationObserver = (globalThis as unknown as { MutationObserver: Observer }).MutationObserver;
    new MutationObserver(() => seen.push(html.hasAttribute('data-full-page-capture') ? 'set' : 'removed')).observe(
      html,
      { attributes: true, attributeFilter: ['data-full-page-capture'] },
    );
    Object.assign(html, { captureLog: seen });
  });
  await shot(page, 'wizard-actions-in-view-3-full-page-800x600');
  expect(
    await page.locator('html').evaluate((html) => (html as unknown as { captureLog: string[] }).captureLog),
  ).toEqual(['set', 'removed']);
  // The helper leaves the page as it found it: the actions stick to the window again.
  expect(await page.locator('html').evaluate((html) => html.hasAttribute('data-full-page-capture'))).toBe(false);
  await expect(page.getByRole('button', { name: 'Next' })).toBeInViewport();
});
