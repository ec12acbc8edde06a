/**
 * What the person decided is what happens (one decision model): an update clicked through without
 * touching anything keeps the watched folder and the webhook's secret (a delivery signed with the
 * old secret is still accepted by the trigger host); an update that changes an armed schedule says
 * old → new on its steps, turns it off, and the Activity view says why.
 */
import { Webhook } from 'standardwebhooks';
import { expect, shot, snapshot, test } from '../support/app';
import { makeFolder, packFixture, packFixtureWith, packInvoices, packInvoicesWith } from '../support/packages';

type Stored = {
  triggers: Record<string, { armed: boolean; folder: string | null; secretRef: string | null }>;
  webhookSecrets: Record<string, string>;
};

test('an update clicked through keeps the armed folder and the webhook secret: the old secret still signs', async ({
  page,
  app,
}) => {
  const inbox = makeFolder('scan-inbox');
  await app.open(packFixture('mailroom').path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install mailroom' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await app.answerDialog('folder', inbox);
  await page.getByRole('button', { name: 'Choose a folder for inbox-changed…' }).click();
  await expect(page.getByRole('checkbox', { name: 'Arm inbox-changed' })).toBeChecked();
  await page.getByRole('checkbox', { name: 'Arm scanner-call' }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'mailroom 0.2.0 is installed' })).toBeVisible();
  const secret = (
    (await page
      .getByRole('group', { name: 'Secret for scanner-call' })
      .getByLabel(/^Webhook secret for/)
      .textContent()) ?? ''
  ).trim();
  expect(secret).toMatch(/^whsec_/);
  const before = (await app.readState()) as Stored;
  const sealedBefore = before.webhookSecrets[before.triggers['mailroom/scanner-call']?.secretRef ?? ''];

  // The next version, opened and clicked through without touching anything.
  await app.open(
    packFixtureWith('mailroom', (toml) => toml.replace('version = "0.2.0"', 'version = "0.2.1"'), 'mailroom-0.2.1.apo')
      .path,
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Update mailroom' })).toBeVisible();
  await expect(page.getByLabel('What this update keeps')).toContainText(
    '2 armed triggers (inbox-changed, scanner-call), with their folder and secret',
  );
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('checkbox', { name: 'Arm inbox-changed' })).toBeChecked();
  await expect(page.getByRole('main')).toContainText(`Watched folder: ${inbox}`);
  await expect(page.getByRole('radio', { name: 'Keep its secret (made on this computer)' })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'inbox-changed' })).toContainText(
    `Stays armed, still watching ${inbox}`,
  );
  await expect(page.getByRole('listitem').filter({ hasText: 'scanner-call' })).toContainText(
    'Stays armed, its secret kept (made here)',
  );
  await snapshot(page, 'update-keeps-1-review');
  await page.getByRole('button', { name: 'Install update' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'mailroom 0.2.1 is updated' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Secret for scanner-call' })).toHaveCount(0);

  const after = (await app.readState()) as Stored;
  expect(after.triggers['mailroom/inbox-changed']).toMatchObject({ armed: true, folder: inbox });
  expect(after.triggers['mailroom/scanner-call']?.armed).toBe(true);
  expect(after.webhookSecrets[after.triggers['mailroom/scanner-call']?.secretRef ?? '']).toBe(sealedBefore);

  // The trigger host takes a delivery signed with the secret shown at the first install.
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  const hook = page.getByRole('group', { name: 'Live status of scanner-call' });
  await expect(hook).toContainText('Listening');
  const url = ((await hook.getByLabel('Webhook address of scanner-call').textContent()) ?? '').trim();
  const body = JSON.stringify({ type: 'scan.ready' });
  const at = new Date();
  const headers = {
    'content-type': 'application/json',
    'webhook-id': 'msg_update_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign('msg_update_1', at, body),
  };
  const delivered = await fetch(url, { method: 'POST', headers, body });
  expect(delivered.status).toBe(202);
});

test('an update changing an armed schedule shows old → new, turns it off, and the Activity view says why', async ({
  page,
  app,
}) => {
  await app.open(packInvoices().path);
  for (let i = 0; i < 2; i++) await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('checkbox', { name: 'Arm first-monday' }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.2.0 is installed' })).toBeVisible();

  const newer = packInvoicesWith(
    (toml) =>
      toml
        .replace('version = "1.2.0"', 'version = "1.3.0"')
        .replace('schedule = "0 8 1-7 * MON"', 'schedule = "*/10 * * * *"'),
    'invoices-1.3.0.apo',
  );
  await app.open(newer.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Update invoices' })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main).toContainText(
    'Changed trigger first-monday: at 08:00, on the first Monday of each month (UTC) → every 10 minutes (UTC)',
  );
  await expect(page.getByRole('region', { name: 'Turned off by this update' })).toContainText('first-monday');
  await shot(page, 'update-schedule-1-changes');
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Next' }).click();
  await expect(main).toContainText('You had it armed. This update turns it off');
  await expect(page.getByRole('checkbox', { name: 'Arm first-monday' })).not.toBeChecked();
  await shot(page, 'update-schedule-2-triggers');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'first-monday' })).toContainText(
    'Turned off by this update',
  );
  await page.getByRole('button', { name: 'Install update' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.3.0 is updated' })).toBeVisible();
  expect(((await app.readState()) as Stored).triggers['invoices/first-monday']?.armed).toBe(false);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity' }).click();
  const list = page.getByRole('list', { name: 'Activity, newest first' });
  await expect(list).toContainText(
    'turned off by the update to 1.3.0: it changed in this version (at 08:00, on the first Monday of each month (UTC), starting monthly-reminders → every 10 minutes (UTC), starting monthly-reminders)',
  );
  await snapshot(page, 'update-schedule-3-activity');
});
