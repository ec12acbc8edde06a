/**
 * Small ones a person trips over: a schedule that runs Monday to Friday is named "Weekdays at 09:00", not as a weekly
 * one; a Paris-time schedule's next runs are shown in Paris time, on the form and on the dashboard; every checkbox
 * sits on the line of its own label (never alone above it) and has one, on each screen the test visits (axe too).
 */
import type { Page } from '@playwright/test';
import { axeCheck, expect, stepHeading, test, windowShots } from '../support/app';
import { packInvoices } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

/**
 * Every visible checkbox (switches too) has a label, and the label is on its line: the box's middle lies within the
 * label's height, or the box is inside the label. Answers the checkboxes that fail, by id or name.
 */
/** What the check reads of a box and its labels (the e2e project is typed without the DOM). */
interface Placed {
  getBoundingClientRect(): { top: number; bottom: number; width: number; height: number };
}
interface CheckboxElement extends Placed {
  id: string;
  name: string;
  outerHTML: string;
  labels: ArrayLike<Placed & { contains(other: unknown): boolean }> | null;
  getAttribute(name: string): string | null;
}

async function checkboxesOffTheirLabel(page: Page): Promise<string[]> {
  return page.locator('input[type="checkbox"]').evaluateAll((boxes) =>
    boxes.flatMap((element) => {
      const box = element as unknown as CheckboxElement;
      const rect = box.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) return [];
      const name = box.id || box.name || box.outerHTML.slice(0, 80);
      const labels = Array.from(box.labels ?? []);
      if (labels.length === 0) return box.getAttribute('aria-label') ? [] : [`${name}: no label`];
      const middle = rect.top + rect.height / 2;
      const onLine = labels.some((label) => {
        const around = label.getBoundingClientRect();
        return label.contains(box) || (middle >= around.top && middle <= around.bottom);
      });
      return onLine ? [] : [`${name}: not on its label's line`];
    }),
  );
}

async function expectLabelledCheckboxes(page: Page, where: string) {
  expect(await checkboxesOffTheirLabel(page), where).toEqual([]);
  await axeCheck(page, where);
}

test('a weekday schedule is named so, and its next runs are in its own time zone, on the form and the dashboard', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'Use this template: Market monitor' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Apply template market-monitor' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel(/^companies/).fill('Acme');
  await page.getByLabel(/^cron/).fill('0 9 * * 1-5');
  await page.getByLabel(/^timezone/).fill('Europe/Paris');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 3 of 5: What it may use')).toBeVisible();
  await expectLabelledCheckboxes(page, 'template access');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 4 of 5: What would start it')).toBeVisible();
  const main = page.getByRole('main');
  await expect(main).toContainText('Weekdays at 09:00 (Europe/Paris)');
  // 2026-01-01 is a Thursday: 09:00 in Paris (GMT+1 in winter) that day, then Friday, then Monday.
  const times = main.locator('.next-times time');
  await expect(times).toHaveCount(3);
  await expect(times.nth(0)).toHaveAttribute('datetime', '2026-01-01T08:00:00.000Z');
  await expect(times.nth(0)).toContainText(/Thu.*09:00.*GMT\+1/);
  await expect(times.nth(2)).toContainText(/Mon.*09:00.*GMT\+1/);
  await page.getByRole('checkbox', { name: 'Arm weekly when the agent is made' }).check();
  await expectLabelledCheckboxes(page, 'template triggers');
  await windowShots(page, main.locator('.schedule').first(), 'schedule-weekdays-paris');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();

  const agent = page.getByRole('article', { name: /Market monitor: Acme/ });
  const weekly = agent.getByRole('listitem').filter({ hasText: 'weekly (on a schedule)' });
  await expect(weekly).toContainText('Weekdays at 09:00 (Europe/Paris)');
  // The next run in the schedule's own zone, not in this computer's (UTC here).
  const nextRun = weekly.locator('time').first();
  await expect(nextRun).toHaveAttribute('datetime', '2026-01-01T08:00:00.000Z');
  await expect(nextRun).toContainText(/09:00.*GMT\+1/);
  // The trigger host's next fire, in the same zone.
  await expect(weekly.getByRole('group', { name: 'Live status of weekly' })).toContainText(/Next at .*09:00.*GMT\+1/);
  await expectLabelledCheckboxes(page, 'dashboard');
  await windowShots(page, weekly, 'dashboard-next-run-paris');
});

test('every checkbox of the package form sits beside its label', async ({ page, app }) => {
  await app.open(packInvoices().path);
  await expect(stepHeading(page, 'Step 1 of 4: What this package is')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 2 of 4: What it asks to use')).toBeVisible();
  await expectLabelledCheckboxes(page, 'package access');
  const ledger = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('checkbox', { name: /mcp:ledger\/lookup$/ }) });
  await windowShots(page, ledger, 'access-checkbox-beside-label');
  await page.setViewportSize({ width: 800, height: 600 });
  await expectLabelledCheckboxes(page, 'package access at 800×600');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 3 of 4: What would start it')).toBeVisible();
  await expectLabelledCheckboxes(page, 'package triggers at 800×600');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await expectLabelledCheckboxes(page, 'settings at 800×600');
});
