/**
 * Updates from the publisher (DESIGN.md "Feeds, updates and install links"), against the real core
 * and a feed served by this test on 127.0.0.1, signed by the real `minisign`:
 * - Settings → Feeds adds a feed with its publisher's key, shown with its fingerprint.
 * - An install link opens the consent form showing the feed's exact address and what it would install;
 *   nothing is installed by the link; ten links fired at once give one form, the latest waiting for it.
 * - The Updates screen: the update available, "Review update" opening the same consent form with the
 *   update's diff; mode auto leaving an update that asks more waiting, a withdrawn version said with
 *   its reason; roll back to the kept version through the same form.
 * Axe-clean, pictured at 1280×800 and 800×600.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { publishFeed, startFeedServer, type FeedArchive, type FeedServer } from '../../test/helpers/feed-server';
import { minisignAvailable, minisignKeyPair, type MinisignKeyPair } from '../../test/helpers/minisign-tool';
import { INVOICES_DIR, packFolder } from '../../test/helpers/pack';
import { axeCheck, expect, test, windowShots } from '../support/app';
import { packInvoicesWith } from '../support/packages';

let server: FeedServer;
let dir: string;
let publisher: MinisignKeyPair;

const version = (v: string, edit: (toml: string) => string = (t) => t) =>
  readFileSync(
    packInvoicesWith((toml) => edit(toml.replace('version = "1.2.0"', `version = "${v}"`)), `invoices-${v}.apo`).path,
  );
const v120: FeedArchive = { name: 'invoices', version: '1.2.0', bytes: packFolder(INVOICES_DIR) };
const v130: FeedArchive = { name: 'invoices', version: '1.3.0', bytes: version('1.3.0') };
// 1.4.0 asks more: its read tool now sends outside.
const v140: FeedArchive = {
  name: 'invoices',
  version: '1.4.0',
  bytes: version('1.4.0', (toml) => toml.replace('action = "read_personal"', 'action = "send_external"')),
};

test.skip(!minisignAvailable && !process.env['CI'], 'needs minisign installed');

test.beforeAll(async () => {
  server = await startFeedServer();
  dir = mkdtempSync(join(tmpdir(), 'apollia-e2e-feed-'));
  publisher = minisignKeyPair(dir, 'publisher');
});
test.afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

/** Clicks Next until the form's install button shows, then clicks it. */
async function clickThrough(page: Page, install: string) {
  const button = page.getByRole('button', { name: install, exact: true });
  const next = page.getByRole('button', { name: 'Next' });
  for (let i = 0; i < 8; i++) {
    await expect(next.or(button).first()).toBeVisible();
    if (await button.isVisible()) break;
    await next.click();
  }
  await button.click();
}

/** Settings → Feeds: the feed added by its address with the publisher's key. */
async function addFeed(page: Page, url: string) {
  await nav(page, 'Settings');
  const section = page.getByRole('region', { name: 'Feeds' });
  await section.getByLabel('Feed address (https)').fill(url);
  await section.getByLabel(/^Publisher’s public key/).fill(publisher.publicKeyText);
  await section.getByLabel(/^Trust the key as/).fill('Example Accounting');
  await section.getByRole('button', { name: 'Add feed' }).click();
  const card = section.getByRole('listitem', { name: url });
  // Followed, and its key trusted: only then may a link to it be opened.
  await expect(card).toContainText('trusted as Example Accounting');
  return card;
}

test('an install link shows its exact source and installs nothing by itself; ten links at once give one form', async ({
  page,
  app,
}) => {
  const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path: '/links/feed.json' });
  const card = await addFeed(page, feed.url);
  await expect(card).toContainText(publisher.printedKeyId);
  await expect(card).toContainText('trusted as Example Accounting');
  await expect(card.getByLabel(`Key ${publisher.printedKeyId}`)).toContainText(/([0-9A-F]{4} ){15}[0-9A-F]{4}/);
  await axeCheck(page, 'settings-feeds');
  await windowShots(page, page.getByRole('region', { name: 'Feeds' }), 'settings-feeds');

  // Ten different links to the same package (their parameters in other orders, with and without the exact bytes):
  // a page firing links in a loop.
  const value: Record<string, string> = {
    feed: encodeURIComponent(feed.url),
    package: 'invoices',
    version: '1.2.0',
    sha256: createHash('sha256').update(v120.bytes).digest('hex'),
  };
  const orders = [
    ['feed', 'package'],
    ['package', 'feed'],
    ['feed', 'package', 'version'],
    ['feed', 'version', 'package'],
    ['package', 'feed', 'version'],
    ['package', 'version', 'feed'],
    ['version', 'feed', 'package'],
    ['version', 'package', 'feed'],
    ['feed', 'package', 'sha256'],
    ['sha256', 'package', 'feed'],
  ];
  const distinct = orders.map((keys) => `apollia://install?${keys.map((key) => `${key}=${value[key]}`).join('&')}`);
  expect(new Set(distinct).size).toBe(10);
  await app.openLinks(distinct);

  await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
  const asks = page.getByRole('region', { name: 'What this install link asks for' });
  await expect(asks).toContainText(feed.url);
  await expect(asks).toContainText('invoices 1.2.0');
  await expect(asks).toContainText('Nothing is installed, allowed or started until you choose below.');
  // The second link waits for this form: one form, not a pile.
  await expect(asks.getByRole('status')).toContainText('Another install link is waiting');
  const tabs = page.getByRole('list', { name: 'Opened packages' }).getByRole('listitem');
  await expect(tabs).toHaveCount(1);
  expect((await app.readState())?.['packages'] ?? {}).toEqual({});
  await axeCheck(page, 'install-link-form');
  await windowShots(page, asks, 'install-link-form');

  await clickThrough(page, 'Install');
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.2.0 is installed' })).toBeVisible();
  // Closing the link's tab lets the waiting link's form open, alone.
  await page.getByRole('button', { name: /^Close invoices-1\.2\.0\.apo/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.2.0 is already installed' })).toBeVisible();
  await expect(tabs).toHaveCount(1);
});

test("an install link to a version its publisher withdrew says so, with the publisher's reason", async ({
  page,
  app,
}) => {
  const path = '/withdrawn/feed.json';
  const feed = publishFeed(server, dir, publisher, {
    serial: 1,
    archives: [{ ...v120, status: 'yanked', reason: 'sends reminders twice' }, v130],
    path,
  });
  await addFeed(page, feed.url);
  await app.openLinks([`apollia://install?feed=${encodeURIComponent(feed.url)}&package=invoices&version=1.2.0`]);
  await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
  const asks = page.getByRole('region', { name: 'What this install link asks for' });
  await expect(asks.getByRole('note')).toHaveText('The publisher withdrew this version: sends reminders twice');
  await axeCheck(page, 'install-link-withdrawn');
  await windowShots(page, asks, 'install-link-withdrawn');
});

test('the Updates screen: review an update in the consent form, auto leaves what asks more, a withdrawn version, roll back', async ({
  page,
  app,
}) => {
  const path = '/updates/feed.json';
  const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path });
  await addFeed(page, feed.url);
  await app.openLinks([`apollia://install?feed=${encodeURIComponent(feed.url)}&package=invoices`]);
  await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
  await clickThrough(page, 'Install');
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.2.0 is installed' })).toBeVisible();

  publishFeed(server, dir, publisher, { serial: 2, archives: [v120, v130], path });
  await nav(page, 'Updates');
  const row = page.getByRole('listitem', { name: /^invoices/ });
  await expect(row).toContainText('Version 1.3.0 is available');
  await expect(row).toContainText(feed.url);
  await expect(row.getByLabel('Updates')).toHaveValue('notify');
  await axeCheck(page, 'updates');
  await windowShots(page, row, 'updates-available');

  // Its changes shown on the screen first, in the consent form's words; installing is only through the form.
  await row.getByRole('button', { name: 'See what 1.3.0 changes' }).click();
  const preview = row.getByRole('region', { name: 'What 1.3.0 changes' });
  await expect(preview).toContainText('This version asks for nothing more than the installed one.');
  await preview.getByRole('button', { name: 'Review and install 1.3.0…' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Update invoices' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Where this update comes from' })).toContainText(feed.url);
  await expect(page.getByRole('main')).toContainText('This version asks for nothing more than the installed one.');
  expect(((await app.readState())?.['packages'] as Record<string, { version: string }>)['invoices']?.version).toBe(
    '1.2.0',
  );
  await clickThrough(page, 'Install update');
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.3.0 is updated' })).toBeVisible();

  await nav(page, 'Updates');
  await expect(row).toContainText('Up to date');
  await row.getByLabel('Updates').selectOption('auto');
  await expect(row.getByLabel('Updates')).toHaveValue('auto');

  // The publisher withdraws 1.3.0 and offers 1.4.0, which asks more: auto does not apply it.
  publishFeed(server, dir, publisher, {
    serial: 3,
    archives: [v120, { ...v130, status: 'yanked', reason: 'sends reminders twice' }, v140],
    path,
  });
  await page.getByRole('button', { name: 'Check now' }).click();
  await expect(row).toContainText('Version 1.4.0 is available');
  await expect(row.getByRole('region', { name: 'invoices 1.3.0 was withdrawn' })).toContainText(
    'The publisher withdrew version 1.3.0: sends reminders twice',
  );
  await expect(row).toContainText('This one has not been applied: review it to see what it asks.');
  await axeCheck(page, 'updates-waiting');
  await windowShots(page, row, 'updates-waiting-yanked');

  await row.getByRole('button', { name: 'See what 1.4.0 changes' }).click();
  const asksMore = row.getByRole('region', { name: 'What 1.4.0 changes' });
  await expect(asksMore).toContainText('This version asks for more than the installed one');
  await expect(asksMore.getByRole('list', { name: 'Changes' })).toContainText(
    'The tool extract_totals can now send things outside this computer (was: read your personal data)',
  );
  await axeCheck(page, 'updates-preview');
  await windowShots(page, asksMore, 'updates-preview-asks-more');
  await asksMore.getByRole('button', { name: 'Review and install 1.4.0…' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Update invoices' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('This version asks for more than the installed one');
  await page.getByRole('button', { name: /^Close invoices-1\.4\.0\.apo/ }).click();

  await nav(page, 'Updates');
  await row.getByRole('button', { name: 'Roll back to 1.2.0' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'This is an older version' })).toBeVisible();
  await page.getByRole('button', { name: 'Review the downgrade' }).click();
  await clickThrough(page, 'Install the older version');
  await expect(page.getByRole('heading', { level: 1, name: /invoices 1\.2\.0 is/ })).toBeVisible();
  expect(((await app.readState())?.['packages'] as Record<string, { version: string }>)['invoices']?.version).toBe(
    '1.2.0',
  );
  // Rolled back, the version kept is the newer one: the row offers the update again, never a roll back forward.
  await nav(page, 'Updates');
  await expect(row).toContainText('1.2.0');
  await expect(row.getByRole('button', { name: /^Roll back/ })).toHaveCount(0);
});

test.describe('under a policy that limits the feeds and sets the update mode', () => {
  const policyFile = join(mkdtempSync(join(tmpdir(), 'apollia-e2e-feed-policy-')), 'policy.json');
  writeFileSync(
    policyFile,
    JSON.stringify({ version: 2, feeds: { allowed: ['http://127.0.0.1:'] }, updates: 'notify' }),
  );
  test.use({ policyFile });

  test('Settings → Feeds says which feeds are allowed and refuses another; the mode is locked with its reason', async ({
    page,
    app,
  }) => {
    await nav(page, 'Settings');
    const section = page.getByRole('region', { name: 'Feeds' });
    await expect(section).toContainText(
      'Your organization allows only feeds whose address starts with http://127.0.0.1:',
    );
    await section.getByLabel('Feed address (https)').fill('https://elsewhere.example/apollia/feed.json');
    await section.getByRole('button', { name: 'Add feed' }).click();
    await expect(section.getByRole('alert', { name: 'The feed was not added' })).toContainText(
      "your organization's policy does not allow the feed https://elsewhere.example/apollia/feed.json",
    );
    await expect(section.getByRole('list', { name: 'Feeds followed' })).toHaveCount(0);

    const path = '/policy/feed.json';
    const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path });
    await addFeed(page, feed.url);
    await app.openLinks([`apollia://install?feed=${encodeURIComponent(feed.url)}&package=invoices`]);
    await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
    await clickThrough(page, 'Install');
    await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.2.0 is installed' })).toBeVisible();

    await nav(page, 'Updates');
    const row = page.getByRole('listitem', { name: /^invoices/ });
    await expect(row.getByLabel('Updates')).toBeDisabled();
    await expect(page.getByRole('main')).toContainText('Your organization sets how every package updates (tell me)');
    await axeCheck(page, 'updates-locked');
    await windowShots(page, row, 'updates-mode-locked');
  });
});
