/**
 * The dashboard after an install (DESIGN.md "Consent, install, apply": the user's answers are what
 * the store records, and an update keeps them): disarm a trigger, revoke a tool, open a newer
 * version, read what changed, update — the revoked tool stays revoked — then uninstall.
 */
import type { Page } from '@playwright/test';
import { axeCheck, expect, shot, snapshotBoth, test, type AppDriver } from '../support/app';
import { packInvoices, packInvoicesWith } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

interface StoredState {
  packages: Record<string, { version: string }>;
  agents: Record<string, { access: { entry: string; granted: boolean }[] }>;
  triggers: Record<string, { armed: boolean }>;
}

async function stored(app: AppDriver): Promise<StoredState> {
  const state = await app.readState();
  expect(state).not.toBeNull();
  return state as unknown as StoredState;
}

async function next(page: Page) {
  await page.getByRole('button', { name: 'Next' }).click();
}

test('install, disarm, revoke, update keeps the revocation, uninstall', async ({ page, app }) => {
  const main = page.getByRole('main');
  const v120 = packInvoices();
  await app.open(v120.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
  await next(page);
  await next(page);
  await page.getByRole('checkbox', { name: 'Arm first-monday' }).check();
  await next(page);
  await expect(page.getByRole('listitem').filter({ hasText: 'first-monday' })).toContainText('Will be armed');
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Armed triggers: first-monday.' })).toBeVisible();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();

  // Armed, with its next fire time from the core's clock.
  const packages = page.getByRole('region', { name: 'Installed packages' });
  await expect(packages.getByRole('heading', { level: 3 })).toHaveText(['invoices 1.2.0']);
  // The trigger's own row, not the package card around it.
  const trigger = packages
    .getByRole('listitem')
    .filter({ hasText: 'first-monday (on a schedule)' })
    .filter({ hasNotText: 'Publisher:' });
  await expect(trigger).toContainText('Armed');
  await expect(trigger).toContainText(/first Monday/);
  await expect(trigger.locator('time')).toHaveAttribute('datetime', '2026-01-05T08:00:00.000Z');
  await snapshotBoth(page, 'dashboard-1-armed');
  await axeCheck(page, 'dashboard armed');

  // Disarm asks first (a schedule: nothing else is deleted), then turns it off.
  await page.getByRole('button', { name: 'Disarm first-monday' }).click();
  const confirm = page.getByRole('dialog', { name: 'Disarm first-monday?' });
  await expect(confirm).toContainText('It stops firing and is turned off.');
  await confirm.getByRole('button', { name: 'Disarm', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Arm first-monday' })).toBeVisible();
  // Focus stays on the control pressed (now Arm), never dropped to the page.
  await expect(page.getByRole('button', { name: 'Arm first-monday' })).toBeFocused();
  await expect(trigger).toContainText('Off');
  expect((await stored(app)).triggers['invoices/first-monday']?.armed).toBe(false);

  // The badge says the state, so it never sits the same beside opposite buttons.
  const fileRead = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: /file_read for Invoice clerk/ }) });
  await expect(fileRead.locator('.badge').last()).toHaveText('Granted · asks you first');
  await page.getByRole('button', { name: 'Revoke file_read for Invoice clerk' }).click();
  await expect(page.getByRole('button', { name: 'Grant file_read for Invoice clerk' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Grant file_read for Invoice clerk' })).toBeFocused();
  await expect(fileRead.locator('.badge').last()).toHaveText('Not granted');
  await shot(page, 'dashboard-2-disarmed-revoked');
  await axeCheck(page, 'dashboard disarmed and revoked');
  expect(
    (await stored(app)).agents['invoices/invoice-clerk']?.access.find((a) => a.entry === 'file_read')?.granted,
  ).toBe(false);

  // A newer version that also asks for file_list.
  const v130 = packInvoicesWith(
    (toml) =>
      toml
        .replace('version = "1.2.0"', 'version = "1.3.0"')
        .replace('access = ["file_read",', 'access = ["file_read", "file_list",'),
    'invoices-1.3.0.apo',
  );
  await app.open(v130.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Update invoices' })).toBeVisible();
  await expect(
    page.getByRole('heading', { level: 2, name: 'Step 1 of 5: What changed since the installed version' }),
  ).toBeVisible();
  await expect(main).toContainText('Version 1.2.0 is installed; this is version 1.3.0.');
  await expect(main).toContainText('This version asks for more than the installed one');
  await expect(page.getByRole('list', { name: 'Changes' })).toContainText(
    'Invoice clerk asks for something new, not allowed until you tick it: list folders the user opens to the agent (file_list)',
  );
  await expect(page.getByRole('list', { name: 'Changes' })).not.toContainText(
    /read_personal|execute_code|send_external|write_or_delete/,
  );
  await snapshotBoth(page, 'update-1-what-changed');
  await axeCheck(page, 'update what changed');

  await next(page);
  await next(page);
  await expect(page.getByRole('heading', { level: 2, name: 'Step 3 of 5: What it asks to use' })).toBeVisible();
  // The earlier answer is kept: file_read stays unticked; the new entry waits, unticked, for the person.
  await expect(page.getByRole('checkbox', { name: /file_read$/ })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /file_list$/ })).not.toBeChecked();
  // What this version adds is marked; what the installed one offered is not.
  await expect(
    page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: /file_list$/ }) }),
  ).toContainText('New in this version');
  await expect(
    page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: /file_read$/ }) }),
  ).not.toContainText('New in this version');
  await snapshotBoth(page, 'update-3-access');
  await next(page);
  await next(page);
  await page.getByRole('button', { name: 'Install update' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.3.0 is updated' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'It replaced version 1.2.0.' })).toBeVisible();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();

  await expect(packages.getByRole('heading', { level: 3 })).toHaveText(['invoices 1.3.0']);
  await expect(page.getByRole('button', { name: 'Grant file_read for Invoice clerk' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Grant file_list for Invoice clerk' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Arm first-monday' })).toBeVisible();
  await shot(page, 'dashboard-3-updated');
  await axeCheck(page, 'dashboard updated');
  const afterUpdate = await stored(app);
  expect(afterUpdate.packages['invoices']?.version).toBe('1.3.0');
  expect(afterUpdate.agents['invoices/invoice-clerk']?.access.map(({ entry, granted }) => [entry, granted])).toEqual([
    ['file_read', false],
    ['file_list', false],
    ['mcp:ledger/lookup', true],
    ['pkg:invoices/extract_totals', true],
  ]);

  await page.getByRole('button', { name: 'Uninstall invoices' }).click();
  const dialog = page.getByRole('dialog', { name: 'Uninstall invoices?' });
  await expect(dialog).toContainText('all of its triggers, armed or not.');
  await shot(page, 'dashboard-4-uninstall-confirm');
  await axeCheck(page, 'uninstall confirm');
  await dialog.getByRole('button', { name: 'Uninstall' }).click();
  await expect(main).toContainText('No package is installed yet.');
  await shot(page, 'dashboard-5-empty');
  const afterUninstall = await stored(app);
  expect(afterUninstall.packages).toEqual({});
  expect(afterUninstall.agents).toEqual({});
  expect(afterUninstall.triggers).toEqual({});
  await page.getByRole('button', { name: 'Open a package or a template' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Open a package' })).toBeVisible();
});
