/**
 * Nothing destroyed in one click (DESIGN.md "Triggers at run time"): Pause keeps a webhook's secret
 * and a watched folder, Resume gives them back, both recorded; Disarm asks first in a dialog that says what it
 * deletes (the sender's secret, the folder choice), traps the focus, gives it back on Escape, and offers Pause instead.
 */
import type { Page } from '@playwright/test';
import { axeCheck, expect, nextStep, shot, test, windowShots, type AppDriver } from '../support/app';
import { makeFolder, packFixture } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

interface StoredTrigger {
  armed: boolean;
  folder: string | null;
  secretRef: string | null;
  pausedAt: string | null;
}

async function trigger(app: AppDriver, id: string): Promise<StoredTrigger> {
  const state = (await app.readState()) as { triggers: Record<string, StoredTrigger> } | null;
  const found = state?.triggers[id];
  if (!found) throw new Error(`no trigger ${id}`);
  return found;
}

/** Mailroom installed with its folder watched and its webhook armed; the dashboard open. */
async function installed(page: Page, app: AppDriver): Promise<string> {
  const inbox = makeFolder('paused-inbox');
  await app.open(packFixture('mailroom').path);
  await nextStep(page, 'Step 2 of 4: What it asks to use');
  await nextStep(page, 'Step 3 of 4: What would start it');
  await app.answerDialog('folder', inbox);
  await page.getByRole('button', { name: 'Choose a folder for inbox-changed…' }).click();
  await expect(page.getByRole('main')).toContainText(`Watched folder: ${inbox}`);
  await page.getByRole('checkbox', { name: 'Arm scanner-call' }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  return inbox;
}

test('pause keeps the secret, resume gives it back; both in the activity record', async ({ page, app }) => {
  await installed(page, app);
  const before = await trigger(app, 'mailroom/scanner-call');
  expect(before.secretRef).not.toBeNull();
  const row = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Disarm scanner-call' }) });

  await page.getByRole('button', { name: 'Pause scanner-call' }).click();
  const resume = page.getByRole('button', { name: 'Resume scanner-call' });
  await expect(resume).toBeVisible();
  // The same control, now Resume: the focus stays where it was pressed.
  await expect(resume).toBeFocused();
  await expect(row).toContainText('Paused by you');
  await expect(row).toContainText('it does not fire. Its signing secret is kept');
  await expect(row).not.toContainText('Starting…');
  expect(await trigger(app, 'mailroom/scanner-call')).toMatchObject({
    armed: true,
    secretRef: before.secretRef,
    pausedAt: '2026-01-01T00:00:00.000Z',
  });
  await shot(page, 'pause-1-paused-webhook');
  await axeCheck(page, 'dashboard with a paused trigger');

  await resume.click();
  await expect(page.getByRole('button', { name: 'Pause scanner-call' })).toBeFocused();
  await expect(row).not.toContainText('Paused by you');
  expect(await trigger(app, 'mailroom/scanner-call')).toMatchObject({
    armed: true,
    secretRef: before.secretRef,
    pausedAt: null,
  });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity' }).click();
  const main = page.getByRole('main');
  await expect(main).toContainText('Paused a trigger');
  await expect(main).toContainText('Resumed a trigger');
  await expect(main).toContainText('paused by you: still armed, its signing secret kept');
});

test('disarm asks first, says what it deletes, keeps the focus in the dialog and gives it back; Pause instead keeps all', async ({
  page,
  app,
}) => {
  const inbox = await installed(page, app);
  const disarm = page.getByRole('button', { name: 'Disarm inbox-changed' });
  await disarm.click();
  const dialog = page.getByRole('dialog', { name: 'Disarm inbox-changed?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`the watched folder choice (${inbox}): arming it again asks for a folder`);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  // The focus is trapped: Tab goes round the dialog's buttons, never to the page behind.
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(d.ownerDocument.activeElement))).toBe(true);
  }
  await axeCheck(page, 'disarm confirmation');
  await windowShots(page, dialog, 'disarm-1-confirm-folder');

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(disarm).toBeFocused();
  expect(await trigger(app, 'mailroom/inbox-changed')).toMatchObject({ armed: true, folder: inbox, pausedAt: null });

  // Pause instead: still armed, the folder kept.
  await disarm.click();
  await dialog.getByRole('button', { name: 'Pause instead' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Resume inbox-changed' })).toBeVisible();
  expect(await trigger(app, 'mailroom/inbox-changed')).toMatchObject({ armed: true, folder: inbox });
  expect((await trigger(app, 'mailroom/inbox-changed')).pausedAt).not.toBeNull();

  // The webhook's dialog names its secret.
  await page.getByRole('button', { name: 'Disarm scanner-call' }).click();
  const hookDialog = page.getByRole('dialog', { name: 'Disarm scanner-call?' });
  await expect(hookDialog).toContainText(
    'the signing secret made here: your sender’s calls are refused from then on, and arming it again makes a new one you must give them',
  );
  await windowShots(page, hookDialog, 'disarm-2-confirm-webhook');
  await hookDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Disarm scanner-call' })).toBeFocused();
  expect((await trigger(app, 'mailroom/scanner-call')).secretRef).not.toBeNull();

  // Disarm, confirmed: off, the folder forgotten, the focus on Arm (the same place in the row).
  await disarm.click();
  await expect(dialog).not.toContainText('Pause instead');
  await dialog.getByRole('button', { name: 'Disarm', exact: true }).click();
  await expect(dialog).toBeHidden();
  const arm = page.getByRole('button', { name: 'Arm inbox-changed' });
  await expect(arm).toBeVisible();
  await expect(arm).toBeFocused();
  expect(await trigger(app, 'mailroom/inbox-changed')).toMatchObject({ armed: false, folder: null, pausedAt: null });
});
