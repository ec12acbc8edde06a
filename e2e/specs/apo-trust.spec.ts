/**
 * Consent a person can trust at a glance: the verdict comes first and is visible without scrolling
 * at 800×600; a package with Python code claims nothing it cannot know; an update shows a changed
 * publisher first, leaves new access unticked and a changed trigger off; Cancel sits on every step and asks only when something was
 * chosen. Every step is pictured at 1180×820 and at 800×600, and the Overview at 200% zoom.
 *
 * 200% zoom is emulated as Chromium zooms: a 1180×820 window at 200% lays pages out in a 590×410
 * CSS-pixel viewport drawn at two device pixels per CSS pixel. A viewport of 590×410 with
 * deviceScaleFactor 2 gives the same layout, and media queries see it (CSS `zoom` would not).
 */
import type { Page } from '@playwright/test';
import { axeCheck, expect, expectNoHorizontalScroll, shot, snapshot, stepHeading, test } from '../support/app';
import { packFixture, packInvoices, packInvoicesWith } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

/** The verdict's headline is inside the viewport (top and bottom), with no scrolling. */
async function expectHeadlineInView(page: Page, headline: string) {
  const heading = page.getByRole('heading', { level: 3, name: headline });
  await expect(heading).toBeVisible();
  const box = await heading.boundingBox();
  const viewport = page.viewportSize();
  expect(box, 'the headline is laid out').not.toBeNull();
  expect(viewport).not.toBeNull();
  if (!box || !viewport) return;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  expect(await page.locator('html').evaluate((html) => html.ownerDocument.defaultView?.scrollY ?? -1)).toBe(0);
}

const next = (page: Page) => page.getByRole('button', { name: 'Next' }).click();

const HEADLINES: [fixture: string, level: string, headline: string][] = [
  ['invoices', 'High risk', 'Can run programs on this computer and send your data out'],
  ['mailroom', 'High risk', 'Can run programs on this computer that read your personal data'],
  ['diary', 'Needs care', 'Can read your personal data'],
];

test.describe('at 800×600', () => {
  test.use({ viewport: { width: 800, height: 600 } });

  for (const [fixture, level, headline] of HEADLINES) {
    test(`${fixture}: the verdict is the first thing, visible without scrolling`, async ({ page, app }) => {
      await app.open((fixture === 'invoices' ? packInvoices() : packFixture(fixture)).path);
      await expect(stepHeading(page, 'Step 1 of 4: What this package is')).toBeVisible();
      await expectHeadlineInView(page, headline);
      await expect(page.getByRole('region', { name: headline })).toContainText(level);
      await expectNoHorizontalScroll(page, `${fixture} overview at 800×600`);
    });
  }

  test('every step of the invoices form, pictured and scanned', async ({ page, app }) => {
    await app.open(packInvoices().path);
    const steps = ['What this package is', 'What it asks to use', 'What would start it', 'Review and install'];
    for (const [i, name] of steps.entries()) {
      await expect(stepHeading(page, `Step ${i + 1} of 4: ${name}`)).toBeVisible();
      await expectNoHorizontalScroll(page, `step ${i + 1} at 800×600`);
      await snapshot(page, `apo-800x600-${i + 1}-${['overview', 'access', 'triggers', 'review'][i]}`);
      if (i < steps.length - 1) await next(page);
    }
  });
});

test('every step at 1180×820, pictured and scanned', async ({ page, app }) => {
  await app.open(packInvoices().path);
  const names = ['overview', 'access', 'triggers', 'review'];
  for (const [i, name] of names.entries()) {
    await expect(stepHeading(page, new RegExp(`^Step ${i + 1} of 4: `))).toBeVisible();
    await expectNoHorizontalScroll(page, `step ${i + 1} at 1180×820`);
    await snapshot(page, `apo-1180x820-${i + 1}-${name}`);
    if (i < names.length - 1) await next(page);
  }
});

test.describe('at 200% zoom (a 1180×820 window)', () => {
  test.use({ viewport: { width: 590, height: 410 }, deviceScaleFactor: 2 });

  test('the Overview and every step: no horizontal scroll, the verdict first', async ({ page, app }) => {
    await app.open(packInvoices().path);
    await expect(stepHeading(page, 'Step 1 of 4: What this package is')).toBeVisible();
    await expectHeadlineInView(page, 'Can run programs on this computer and send your data out');
    await expectNoHorizontalScroll(page, 'overview at 200%');
    await snapshot(page, 'apo-zoom200-1-overview');
    for (let step = 2; step <= 4; step++) {
      await next(page);
      await expect(stepHeading(page, new RegExp(`^Step ${step} of 4: `))).toBeFocused();
      await expectNoHorizontalScroll(page, `step ${step} at 200%`);
    }
    await shot(page, 'apo-zoom200-4-review');
  });
});

test('a package with no code of its own: what Apollia enforces may say what it cannot do', async ({ page, app }) => {
  await app.open(packFixture('diary').path);
  const enforced = page.getByRole('region', { name: 'What Apollia enforces' });
  await expect(enforced).toContainText('Cannot run code on this computer');
  await expect(enforced).toContainText('Cannot send things outside this computer');
  await expect(page.getByRole('region', { name: 'What the package declares' })).not.toContainText('Cannot');
  await next(page);
  // Autonomy and planning values are explained, the value itself second.
  await expect(page.getByRole('main')).toContainText(
    'Works for a long time on its own without checking in (long_autonomous)',
  );
  await expect(page.getByRole('main')).toContainText('Writes a plan first when a task looks long (auto)');
  await expect(page.getByRole('checkbox', { name: /^Read the user's calendar\s*calendar_read$/ })).toBeChecked();
  await expect(page.getByRole('main')).toContainText(
    'It brings no Python code, no connections to your accounts, no programs or servers, no Python packages.',
  );
  await snapshot(page, 'apo-diary-2-access');
});

test('Cancel on every step closes at once when nothing was chosen', async ({ page, app }) => {
  const invoices = packInvoices();
  for (let step = 1; step <= 4; step++) {
    await app.open(invoices.path);
    await expect(stepHeading(page, 'Step 1 of 4: What this package is')).toBeVisible();
    for (let i = 1; i < step; i++) await next(page);
    await expect(stepHeading(page, new RegExp(`^Step ${step} of 4: `))).toBeVisible();
    const nav = page.locator('.wizard-nav');
    await expect(nav.getByRole('button')).toHaveText([/Back/, /Cancel/, step < 4 ? /Next/ : /Install/]);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Open a package' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('list', { name: 'Opened packages' }),
    ).toHaveCount(0);
  }
  expect(await app.readState()).toBeNull();
});

test('Cancel after a change asks first; Keep going keeps the answer', async ({ page, app }) => {
  await app.open(packInvoices().path);
  await next(page);
  const ledger = page.getByRole('checkbox', { name: /mcp:ledger\/lookup$/ });
  await ledger.uncheck();
  await page.getByRole('button', { name: 'Cancel' }).click();
  const question = page.getByRole('group', { name: /Close this package and forget the answers you changed/ });
  await expect(question).toBeVisible();
  await expect(question.getByRole('button', { name: 'Keep going' })).toBeFocused();
  await snapshot(page, 'apo-cancel-confirm');
  await question.getByRole('button', { name: 'Keep going' }).click();
  await expect(ledger).not.toBeChecked();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Close without installing' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Open a package' })).toBeVisible();
  expect(await app.readState()).toBeNull();
});

test('an update from a lookalike publisher: shown first; new access unticked; a changed trigger stays off', async ({
  page,
  app,
}) => {
  // Install 1.2.0 with everything allowed and the trigger armed.
  await app.open(packInvoices().path);
  await next(page);
  await next(page);
  await page.getByRole('checkbox', { name: 'Arm first-monday' }).check();
  await next(page);
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.2.0 is installed' })).toBeVisible();

  const v130 = packInvoicesWith(
    (toml) =>
      toml
        .replace('version = "1.2.0"', 'version = "1.3.0"')
        .replace('publisher = "Example Accounting"', 'publisher = "Example Acc0unting"')
        .replace('access = ["file_read",', 'access = ["file_read", "shell",')
        .replace('action = "read_personal"', 'action = "send_external"')
        .replace('schedule = "0 8 1-7 * MON"', 'schedule = "0 9 * * *"'),
    'invoices-1.3.0.apo',
  );
  await app.open(v130.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Update invoices' })).toBeVisible();
  const main = page.getByRole('main');
  const publisher = page.getByRole('region', { name: 'The publisher name changed to a lookalike' });
  await expect(publisher).toContainText('Example Accounting');
  await expect(publisher).toContainText('Example Acc0unting');
  await expect(publisher.getByRole('list', { name: 'Where the names differ' })).toHaveText(
    'Character 12: the digit 0 where the installed name has “o”',
  );
  // First: before the version line and the list of changes.
  const order = await main.evaluate((element) => {
    const text = element.textContent ?? '';
    return [text.indexOf('The publisher name changed to a lookalike'), text.indexOf('Version 1.2.0 is installed')];
  });
  expect(order[0]).toBeGreaterThanOrEqual(0);
  expect(order[0]).toBeLessThan(order[1] ?? -1);
  const changes = page.getByRole('list', { name: 'Changes' });
  await expect(changes).toContainText(
    'The tool extract_totals can now send things outside this computer (was: read your personal data)',
  );
  await expect(changes).toContainText(
    'Invoice clerk asks for something new, not allowed until you tick it: run shell commands on this computer (shell)',
  );
  await expect(changes).toContainText(
    'Changed trigger first-monday: at 08:00, on the first Monday of each month (UTC) → at 09:00 (UTC); off until you arm it again',
  );
  await expect(changes).not.toContainText(/read_personal|execute_code|send_external|write_or_delete/);
  await snapshot(page, 'update-publisher-lookalike');

  await next(page);
  await next(page);
  await expect(stepHeading(page, 'Step 3 of 5: What it asks to use')).toBeVisible();
  const shell = page.getByRole('checkbox', { name: /shell$/ });
  await expect(shell).not.toBeChecked();
  await expect(page.getByRole('listitem').filter({ has: shell })).toContainText('New in this version');
  // A widened tool is asked again, unticked; an unchanged one keeps its answer.
  await expect(page.getByRole('checkbox', { name: /pkg:invoices\/extract_totals$/ })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /file_read$/ })).toBeChecked();
  await snapshot(page, 'update-access-unticked');
  await next(page);
  await expect(page.getByRole('checkbox', { name: 'Arm first-monday' })).not.toBeChecked();
  await expect(main).toContainText('Changed: arm it again if you want it');
  await next(page);
  await page.getByRole('button', { name: 'Install update' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.3.0 is updated' })).toBeVisible();
  const state = (await app.readState()) as {
    agents: Record<string, { access: { entry: string; granted: boolean }[] }>;
    triggers: Record<string, { armed: boolean }>;
  };
  expect(state.agents['invoices/invoice-clerk']?.access.map(({ entry, granted }) => [entry, granted])).toEqual([
    ['file_read', true],
    ['shell', false],
    ['mcp:ledger/lookup', true],
    ['pkg:invoices/extract_totals', false],
  ]);
  expect(state.triggers['invoices/first-monday']?.armed).toBe(false);
  await axeCheck(page, 'updated');
});
