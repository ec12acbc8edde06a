/**
 * A webhook secret the sender gave, pasted into the consent form's Triggers step. A wrong
 * secret gets an inline error (and is not sent); the right one is kept sealed, never shown again,
 * and the dashboard says it was given by the sender and when it was last set. The field is a
 * password field: no screenshot shows a pasted secret in clear. The dashboard's rotate action
 * offers the same choice.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { axeCheck, expect, nextStep, shot, stepHeading, test } from '../support/app';
import { packFixture } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

/** The files of the data folder holding `text`. */
function filesHolding(dataDir: string, text: string): string[] {
  return readdirSync(dataDir, { recursive: true, encoding: 'utf8' })
    .map((rel) => join(dataDir, rel))
    .filter((path) => statSync(path).isFile() && readFileSync(path, 'latin1').includes(text));
}

test('paste the sender’s secret in the consent form, install, and see on the dashboard that the sender gave it', async ({
  page,
  app,
}) => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const main = page.getByRole('main');
  await app.open(packFixture('mailroom').path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install mailroom' })).toBeVisible();
  await nextStep(page, 'Step 2 of 4: What it asks to use');
  await nextStep(page, 'Step 3 of 4: What would start it');

  await page.getByRole('checkbox', { name: 'Arm scanner-call' }).check();
  const choice = page.getByRole('group', { name: 'The secret of scanner-call' });
  await expect(choice.getByRole('radio', { name: 'Make a new secret' })).toBeChecked();
  // The harness keeps secrets with the file box: the form says so, never "keychain".
  await expect(choice).toContainText(
    'It is kept encrypted with a key stored in a file beside the app data (secret-box.key): anyone who can read the app data folder could read it.',
  );
  await expect(choice).not.toContainText('keychain');
  await choice.getByRole('radio', { name: 'Use the secret your sender gave you' }).check();
  const field = choice.getByLabel('Secret from your sender (starts with whsec_)');
  await expect(field).toHaveAttribute('type', 'password');
  // An untouched field is not an error.
  await expect(choice.getByRole('alert')).toHaveCount(0);

  // A Stripe CLI secret: the inline error says so, once the field is left.
  await field.fill(`whsec_${randomBytes(32).toString('hex')}`);
  await field.blur();
  await expect(choice.getByRole('alert')).toContainText('This looks like a Stripe secret');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  // Too short.
  await field.fill(`whsec_${randomBytes(16).toString('base64')}`);
  await expect(choice.getByRole('alert')).toHaveText('The key is 16 bytes: Standard Webhooks wants 24 to 64.');
  await shot(page, 'webhook-secret-1-inline-error');

  // The sender's secret, pasted with a trailing newline and spaces: accepted.
  await field.fill(` ${secret}\n`);
  await expect(choice.getByRole('alert')).toHaveCount(0);
  await expect(field).toHaveAttribute('aria-invalid', 'false');
  await shot(page, 'webhook-secret-2-pasted');
  await axeCheck(page, 'webhook secret pasted');

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 4 of 4: Review and install')).toBeVisible();
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'mailroom 0.2.0 is installed' })).toBeVisible();
  await expect(main).toContainText('The secret your sender gave is kept for scanner-call. It will not be shown again.');
  await expect(page.getByRole('group', { name: 'Secret for scanner-call' })).toHaveCount(0);
  await expect(main).not.toContainText(secret.slice(6));
  await shot(page, 'webhook-secret-3-installed');

  // Sealed: no file of the data folder holds the secret or its key in clear.
  const dataDir = await app.dataDir();
  const state = (await app.readState()) as {
    triggers: Record<
      string,
      { armed: boolean; secretRef: string | null; secretOrigin: string | null; secretSetAt: string | null }
    >;
  };
  expect(state.triggers['mailroom/scanner-call']).toMatchObject({
    armed: true,
    secretOrigin: 'given',
    secretSetAt: '2026-01-01T00:00:00.000Z',
  });
  expect(filesHolding(dataDir, secret.slice(6))).toEqual([]);

  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const row = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Disarm scanner-call' }) });
  await expect(row).toContainText('Secret given by your sender, last set');
  await expect(row.getByRole('time')).toHaveAttribute('datetime', '2026-01-01T00:00:00.000Z');
  await expect(main).not.toContainText(secret.slice(6));
  await row.scrollIntoViewIfNeeded();
  await shot(page, 'webhook-secret-4-dashboard');
  await axeCheck(page, 'dashboard with a given webhook secret');

  // Rotate from the dashboard: keeping it is the default; replacing it is chosen, then confirmed with what it does to
  // the sender's calls.
  await expect(row.getByRole('radio', { name: 'Keep its secret (the one your sender gave)' })).toBeChecked();
  await row.getByRole('radio', { name: 'Replace it with a new secret made here' }).check();
  await expect(row).toContainText(
    'Calls signed with the current secret will be refused from the moment it is replaced: give the new secret, shown once, to your sender',
  );
  await row.getByRole('button', { name: 'Replace the secret of scanner-call…' }).click();
  const confirm = row.getByRole('alertdialog', { name: /Replace the secret of scanner-call\?/ });
  await expect(confirm).toBeVisible();
  await shot(page, 'webhook-secret-5-replace-confirm');
  expect(((await app.readState()) as typeof state).triggers['mailroom/scanner-call']?.secretOrigin).toBe('given');
  await confirm.getByRole('button', { name: 'Replace the secret' }).click();
  const once = page.getByRole('group', { name: 'Secret for scanner-call' });
  await expect(once).toContainText('copy it now: it will not be shown again.');
  await expect(row).toContainText('Secret made here, last set');
  const after = (await app.readState()) as typeof state;
  expect(after.triggers['mailroom/scanner-call']?.secretOrigin).toBe('made');
});
