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
import { packFixture, packFixtureWith } from '../support/packages';

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

  // A secret that does not hold keeps Next on this step: the error stays at its field, and focus goes there.
  await field.fill('hunter2');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 3 of 4: What would start it')).toBeVisible();
  await expect(field).toBeFocused();
  await expect(choice.getByRole('alert')).toBeVisible();

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

test('one secret given for two webhooks is warned about: on the installed screen, and when set again from the dashboard', async ({
  page,
  app,
}) => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const main = page.getByRole('main');
  const twoHooks = packFixtureWith(
    'mailroom',
    (toml) => `${toml}\n[[triggers]]\nid = "scanner-echo"\ntarget = "sorter"\n\n[triggers.source]\ntype = "webhook"\n`,
    'mailroom-two-hooks.apo',
  );
  await app.open(twoHooks.path);
  await nextStep(page, 'Step 2 of 4: What it asks to use');
  await nextStep(page, 'Step 3 of 4: What would start it');
  for (const name of ['scanner-call', 'scanner-echo']) {
    await page.getByRole('checkbox', { name: `Arm ${name}` }).check();
    const choice = page.getByRole('group', { name: `The secret of ${name}` });
    await choice.getByRole('radio', { name: 'Use the secret your sender gave you' }).check();
    await choice.getByLabel('Secret from your sender (starts with whsec_)').fill(secret);
  }
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'mailroom 0.2.0 is installed' })).toBeVisible();
  const onCall = main.getByRole('note', { name: 'The secret of scanner-call is also set on another trigger' });
  await expect(onCall).toHaveText(
    'This secret is also set on trigger `mailroom/scanner-echo` of agent `mailroom/sorter`: a delivery signed for one is accepted by the other too (the signature does not cover the address), and each delivery only once over all of them, since replays are refused per secret. Give each trigger its own secret.',
  );
  await expect(
    main.getByRole('note', { name: 'The secret of scanner-echo is also set on another trigger' }),
  ).toContainText('also set on trigger `mailroom/scanner-call`');
  await expect(main).not.toContainText(secret.slice(6));
  await onCall.scrollIntoViewIfNeeded();
  await shot(page, 'webhook-secret-6-shared-installed');
  await axeCheck(page, 'installed with one secret on two webhooks');

  // From the dashboard: a secret of its own, no warning; the shared one again, the warning beside the secret.
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  const row = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Disarm scanner-echo' }) });
  const setGiven = async (text: string) => {
    await row.getByRole('radio', { name: 'Replace it with a secret your sender gave you' }).check();
    await row.getByLabel('Secret from your sender (starts with whsec_)').fill(text);
    await row.getByRole('button', { name: 'Use this secret for scanner-echo…' }).click();
    await row.getByRole('alertdialog').getByRole('button', { name: 'Replace the secret' }).click();
    await expect(row.getByText('The secret your sender gave is kept for scanner-echo.')).toBeVisible();
  };
  await setGiven(`whsec_${randomBytes(32).toString('base64')}`);
  await expect(row.getByRole('note', { name: /is also set on another trigger/ })).toHaveCount(0);
  await setGiven(secret);
  const warning = row.getByRole('note', { name: 'The secret of scanner-echo is also set on another trigger' });
  await expect(warning).toContainText(
    'This secret is also set on trigger `mailroom/scanner-call` of agent `mailroom/sorter`',
  );
  await expect(main).not.toContainText(secret.slice(6));
  await warning.scrollIntoViewIfNeeded();
  await shot(page, 'webhook-secret-7-shared-dashboard');
  await axeCheck(page, 'dashboard secret set again, shared');

  // Another package's consent form: the warning shows in the Triggers step, beside the field, before anything is kept.
  const copy = packFixtureWith(
    'mailroom',
    (toml) =>
      toml.replace('name = "mailroom"', 'name = "mailroom-copy"').replaceAll('pkg:mailroom/', 'pkg:mailroom-copy/'),
    'mailroom-copy.apo',
  );
  await app.open(copy.path);
  await nextStep(page, 'Step 2 of 4: What it asks to use');
  await nextStep(page, 'Step 3 of 4: What would start it');
  await page.getByRole('checkbox', { name: 'Arm scanner-call' }).check();
  const choice = page.getByRole('group', { name: 'The secret of scanner-call' });
  await choice.getByRole('radio', { name: 'Use the secret your sender gave you' }).check();
  await choice
    .getByLabel('Secret from your sender (starts with whsec_)')
    .fill(`whsec_${randomBytes(32).toString('base64')}`);
  const inForm = main.getByRole('note', { name: 'The secret of scanner-call is also set on another trigger' });
  await expect(inForm).toHaveCount(0);
  await choice.getByLabel('Secret from your sender (starts with whsec_)').fill(secret);
  await expect(inForm).toContainText(
    'This secret is also set on trigger `mailroom/scanner-call` of agent `mailroom/sorter` and trigger `mailroom/scanner-echo` of agent `mailroom/sorter`: a delivery signed for one is accepted by the others too',
  );
  await inForm.scrollIntoViewIfNeeded();
  await shot(page, 'webhook-secret-8-shared-in-form');
  await axeCheck(page, 'consent form, a secret another trigger holds');
});
