/**
 * Verified publishers: a key trusted in Settings → Trusted publishers, a
 * package signed by it installed as verified; an update signed by another key stopped, then
 * accepted only through the explicit confirmation; an installed file changed afterwards found on
 * opening the dashboard (changed, its trigger paused by integrity, still armed). Keys and signatures are made at test time
 * by the real `minisign`. Every state is pictured.
 */
import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { fingerprintBySha256sum, minisignKeyPair, minisignSign } from '../../test/helpers/minisign-tool';
import { axeCheck, expect, shot, test, windowShots } from '../support/app';
import { packInvoices, packInvoicesWith } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

interface StoredState {
  packages: Record<string, { version: string; dir: string }>;
  triggers: Record<string, { armed: boolean; armedAt?: string | null }>;
  packageTrust: Record<
    string,
    { pin: { kind: string; keyId?: string; publicKey?: string }; integrity: { state: 'ok' | 'changed' } }
  >;
}

const next = (page: Page) => page.getByRole('button', { name: 'Next' }).click();

test('trust a key, install verified, a key change is a stop, tampering is found on the dashboard and pauses, a reinstall resumes', async ({
  page,
  app,
}) => {
  const keys = mkdtempSync(join(tmpdir(), 'apollia-e2e-keys-'));
  const publisher = minisignKeyPair(keys, 'publisher');
  const stranger = minisignKeyPair(keys, 'stranger');
  const main = page.getByRole('main');

  // Settings → Trusted publishers: paste the publisher's key under a name.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Trusted publishers' });
  await expect(section).toContainText('You trust no publisher key yet.');
  // The key first: its ID and fingerprint are shown before it is given a name.
  await expect(section.getByLabel('Publisher name (what the key will be shown as)')).toHaveCount(0);
  await section
    .getByLabel('Public key (paste the .pub file or its line starting with RW)')
    .fill(publisher.publicKeyText);
  await section.getByRole('button', { name: 'Check this key' }).click();
  const fingerprint = fingerprintBySha256sum(publisher);
  await expect(section.getByLabel('Key ID and fingerprint')).toContainText(`Key ID${publisher.printedKeyId}`);
  await expect(section.getByLabel('Key ID and fingerprint')).toContainText(fingerprint);
  await shot(page, 'signatures-0-key-fingerprint-before-name');
  await windowShots(page, section.getByRole('form', { name: "Name the publisher's key" }), 'signatures-0-fingerprint');
  await section.getByLabel('Publisher name (what the key will be shown as)').fill('Example Accounting');
  await section.getByRole('button', { name: 'Trust this key' }).click();
  await expect(section.getByRole('list', { name: 'Trusted publisher keys' })).toContainText(
    `Example Accounting key ID ${publisher.printedKeyId} · fingerprint ${fingerprint}`,
  );
  await shot(page, 'signatures-1-trusted-publishers');
  await axeCheck(page, 'trusted publishers');

  // A package signed by that key: verified, with the key's name, id and signed comment.
  const v120 = packInvoices();
  minisignSign(publisher, v120.path, { trustedComment: 'invoices 1.2.0, released 2026-01-01' });
  await app.open(v120.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
  const badge = main.locator('[data-publisher-state]').first();
  await expect(badge).toHaveAttribute('data-publisher-state', 'verified');
  await expect(badge).toHaveText('Verified publisher: Example Accounting');
  await expect(main).toContainText(
    `key ID ${publisher.printedKeyId}). Signed comment: invoices 1.2.0, released 2026-01-01`,
  );
  await shot(page, 'signatures-2-verified-overview');
  await next(page);
  await next(page);
  await page.getByRole('checkbox', { name: 'Arm first-monday' }).check();
  await next(page);
  await expect(main).toContainText('(verified publisher: example accounting)');
  // Review shows the signing key's fingerprint where it can be compared with the one the publisher gave.
  await expect(page.getByRole('note', { name: 'Fingerprint of the signing key' })).toContainText(fingerprint);
  await windowShots(
    page,
    page.getByRole('note', { name: 'Fingerprint of the signing key' }),
    'signatures-review-fingerprint',
  );
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  const card = page.getByRole('region', { name: 'Installed packages' });
  await expect(card.locator('[data-publisher-state]')).toHaveAttribute('data-publisher-state', 'verified');
  const installed = (await app.readState()) as unknown as StoredState;
  expect(installed.packageTrust['invoices']?.pin).toEqual({
    kind: 'key',
    keyId: publisher.printedKeyId,
    publicKey: publisher.publicKeyText.split('\n')[1],
  });

  // An update signed by another key: a stop, nothing changed, the accept button off until ticked.
  const v130 = packInvoicesWith((toml) => toml.replace('version = "1.2.0"', 'version = "1.3.0"'), 'invoices-1.3.0.apo');
  minisignSign(stranger, v130.path, { trustedComment: 'invoices 1.3.0' });
  await app.open(v130.path);
  const stop = page.getByRole('alert').filter({ hasText: 'Stop: this update is signed by a different key' });
  await expect(stop).toBeVisible();
  await expect(stop.getByRole('definition').nth(0)).toHaveText(
    `the key you trust as “Example Accounting” (key ID ${publisher.printedKeyId})`,
  );
  await expect(stop.getByRole('definition').nth(1)).toHaveText(
    `a key you don't know (key ID ${stranger.printedKeyId})`,
  );
  const accept = page.getByRole('button', { name: 'Accept the new key and review the update' });
  await expect(accept).toBeDisabled();
  await shot(page, 'signatures-3-key-changed-stop');
  await axeCheck(page, 'key change stop');
  expect(((await app.readState()) as unknown as StoredState).packages['invoices']?.version).toBe('1.2.0');
  await page.getByRole('checkbox', { name: /I understand that this update is not signed by the key/ }).check();
  await accept.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Update invoices' })).toBeVisible();
  await expect(page.getByTestId('key-change-accepted-note')).toBeVisible();
  await next(page);
  // The new key is one the user does not know: said so, and trusting it is a separate act.
  await expect(main.locator('[data-publisher-state]').first()).toHaveText('Signed by a key you don’t know');
  const offer = page.getByTestId('trust-key-offer');
  await expect(offer).toContainText(`signed by key ID ${stranger.printedKeyId}, which you do not trust yet`);
  await shot(page, 'signatures-4-unknown-key-overview');
  // Trusting it from here: the key's ID and fingerprint before its name; another key than the one that signed is said.
  await offer.getByRole('button', { name: "Trust this publisher's key…" }).click();
  const pasted = offer.getByLabel('Public key (paste the .pub file or its line starting with RW)');
  await pasted.fill(publisher.publicKeyText);
  await offer.getByRole('button', { name: 'Check this key' }).click();
  await expect(offer.getByRole('alert')).toHaveText(
    `This is not the key that signed the package: that one has key ID ${stranger.printedKeyId}.`,
  );
  await expect(offer).toContainText('You already trust this key as “Example Accounting”.');
  await offer.getByRole('button', { name: 'Use another key' }).click();
  await pasted.fill(stranger.publicKeyText);
  await offer.getByRole('button', { name: 'Check this key' }).click();
  await expect(offer.getByLabel('Key ID and fingerprint')).toContainText(fingerprintBySha256sum(stranger));
  await expect(offer.getByRole('alert')).toHaveCount(0);
  await expect(offer.getByLabel('Publisher name (what the key will be shown as)')).toBeVisible();
  await shot(page, 'signatures-4b-trust-from-install-fingerprint');
  await windowShots(page, offer, 'signatures-4b-trust-from-install');
  await axeCheck(page, 'trust from install');
  await next(page);
  await next(page);
  await next(page);
  await page.getByRole('button', { name: 'Install update' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.3.0 is updated' })).toBeVisible();
  const updated = (await app.readState()) as unknown as StoredState;
  expect(updated.packageTrust['invoices']?.pin).toEqual({ kind: 'claimed_key', keyId: stranger.printedKeyId });
  expect(updated.triggers['invoices/first-monday']?.armed).toBe(true);

  // A file of the installed package changed on this computer: found when the dashboard opens.
  appendFileSync(
    join(await app.dataDir(), updated.packages['invoices']?.dir ?? '', 'tools', 'extract.py'),
    '\nimport os  # slipped in later\n',
  );
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  const changed = page.getByTestId('integrity-changed-invoices');
  await expect(changed).toContainText('Changed on this computer since you installed it');
  await expect(changed).toContainText('Changed: tools/extract.py');
  await expect(changed.getByRole('button', { name: 'Reinstall from the .apo file…' })).toBeVisible();
  await expect(changed).toContainText('Its triggers are paused so nothing starts on its own; they stay armed');
  // Paused by integrity, not disarmed: still armed, so a reinstall of the installed bytes resumes it.
  await expect(page.getByRole('button', { name: 'Disarm first-monday' })).toBeVisible();
  await expect(page.getByText('Armed, paused: its files changed')).toBeVisible();
  await expect(page.getByTestId('trigger-integrity-invoices/first-monday')).toContainText(
    'paused by integrity: the files of invoices changed on this computer since install (1 changed: tools/extract.py)',
  );
  expect(((await app.readState()) as unknown as StoredState).triggers['invoices/first-monday']?.armed).toBe(true);
  await shot(page, 'signatures-5-dashboard-changed');
  await axeCheck(page, 'dashboard changed');

  // Reinstalled from the installed bytes through the window: the trigger the change paused resumes, never re-armed.
  const paused = ((await app.readState()) as unknown as StoredState).triggers['invoices/first-monday'];
  await app.open(v130.path);
  const put = page.getByRole('button', { name: /^Install/ });
  while (!(await put.isVisible())) await next(page);
  await put.click();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  await expect(page.getByTestId('integrity-changed-invoices')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Disarm first-monday' })).toBeVisible();
  await expect(page.getByText('Armed, paused: its files changed')).toHaveCount(0);
  const back = (await app.readState()) as unknown as StoredState;
  expect(back.packageTrust['invoices']?.integrity.state).toBe('ok');
  expect(back.triggers['invoices/first-monday']).toMatchObject({ armed: true, armedAt: paused?.armedAt });
});

test('the key-change stop shows a lookalike publisher and new shell access before any accept; names that differ are said; removing a key asks first', async ({
  page,
  app,
}) => {
  const keys = mkdtempSync(join(tmpdir(), 'apollia-e2e-keys-'));
  const publisher = minisignKeyPair(keys, 'publisher');
  const stranger = minisignKeyPair(keys, 'stranger');
  const main = page.getByRole('main');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Trusted publishers' });
  await section
    .getByLabel('Public key (paste the .pub file or its line starting with RW)')
    .fill(publisher.publicKeyText);
  await section.getByRole('button', { name: 'Check this key' }).click();
  await section.getByLabel('Publisher name (what the key will be shown as)').fill('Example Accounting');
  await section.getByRole('button', { name: 'Trust this key' }).click();
  await expect(section.getByRole('list', { name: 'Trusted publisher keys' })).toContainText('Example Accounting');

  // A trusted key whose name differs from the package's publisher field: no plain check, said in words.
  const partners = packInvoicesWith(
    (toml) => toml.replace('publisher = "Example Accounting"', 'publisher = "Example Acc0unting Partners"'),
    'invoices-partners.apo',
  );
  minisignSign(publisher, partners.path, { trustedComment: 'invoices 1.2.0' });
  await app.open(partners.path);
  const badge = main.locator('[data-publisher-state]').first();
  await expect(badge).toHaveText('Signed by the key you trust as Example Accounting; the names differ');
  await expect(badge).not.toHaveText(/^Verified publisher/);
  await expect(page.getByTestId('publisher-names-differ')).toContainText(
    'Signed by the key you trust as “Example Accounting”; the package calls its publisher “Example Acc0unting Partners”',
  );
  await shot(page, 'signatures-6-names-differ');
  await axeCheck(page, 'names differ');
  await page
    .getByRole('button', { name: 'Cancel' })
    .first()
    .click()
    .catch(() => undefined);

  // Installed 1.2.0, signed by the trusted key.
  const v120 = packInvoices();
  minisignSign(publisher, v120.path, { trustedComment: 'invoices 1.2.0' });
  await app.open(v120.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
  for (let i = 0; i < 3; i++) await next(page);
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();

  // 1.3.0 by another key, from a lookalike publisher, asking for the shell: all on the stop, before any accept.
  const v130 = packInvoicesWith(
    (toml) =>
      toml
        .replace('version = "1.2.0"', 'version = "1.3.0"')
        .replace('publisher = "Example Accounting"', 'publisher = "Example Acc0unting"')
        .replace('access = ["file_read",', 'access = ["file_read", "shell",'),
    'invoices-1.3.0.apo',
  );
  minisignSign(stranger, v130.path, { trustedComment: 'invoices 1.3.0' });
  await app.open(v130.path);
  const stop = page.getByRole('alert').filter({ hasText: 'Stop: this update is signed by a different key' });
  await expect(stop).toContainText('the key you trust as “Example Accounting”');
  await expect(main.getByRole('heading', { name: 'The publisher name changed to a lookalike' })).toBeVisible();
  await expect(main.getByRole('list', { name: 'Where the names differ' })).toContainText(
    'Character 12: the digit 0 where the installed name has “o”',
  );
  await expect(main.getByRole('list', { name: 'Changes' })).toContainText('shell');
  await expect(page.getByRole('button', { name: 'Accept the new key and review the update' })).toBeDisabled();
  await shot(page, 'signatures-7-key-change-stop-everything');
  await axeCheck(page, 'key change stop with changes');
  await page.getByRole('button', { name: "Don't update" }).click();
  await expect.poll(async () => JSON.stringify(await app.readState())).toContain('"version":"1.2.0"');

  // Removing the trusted key asks first, naming the installed package pinned to it; an old error goes with it.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await section
    .getByLabel('Public key (paste the .pub file or its line starting with RW)')
    .fill(stranger.publicKeyText);
  await section.getByRole('button', { name: 'Check this key' }).click();
  await section.getByLabel('Publisher name (what the key will be shown as)').fill('Example Accounting');
  await section.getByRole('button', { name: 'Trust this key' }).click();
  await expect(section.getByRole('alert', { name: 'The key was not trusted' })).toContainText('already used');
  await section.getByRole('button', { name: 'Remove the key of Example Accounting' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Remove the key you trust as “Example Accounting”?');
  await expect(confirm.getByRole('list', { name: 'Installed packages pinned to this key' })).toContainText('invoices');
  await expect(confirm.getByLabel('Key ID and fingerprint')).toContainText(fingerprintBySha256sum(publisher));
  await shot(page, 'signatures-8-remove-key-confirm');
  await windowShots(page, confirm, 'signatures-8-remove-key');
  await axeCheck(page, 'remove key confirm');
  await confirm.getByRole('button', { name: 'Remove the key' }).click();
  await expect(section).toContainText('You trust no publisher key yet.');
  await expect(section.getByRole('alert', { name: 'The key was not trusted' })).toHaveCount(0);
  // Both are in the activity log, in words.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity' }).click();
  await expect(main).toContainText('Trusted a publisher key');
  await expect(main).toContainText('Stopped trusting a publisher key');
  await expect(main).toContainText('still pinned to it: invoices');
});
