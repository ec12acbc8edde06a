/**
 * An update whose publisher name changed to one that passes for the old one (`Example Accounting` → `Example
 * Acc0unting Partners`: the old name with a digit for a letter and a word added) is flagged as a lookalike on its
 * first step, said again on Review where Install is pressed, on the updated screen, and in Activity's entry. What the
 * update adds is weighed by colour and by word: a new program to run and a new plain-http:// server at a raw IP
 * address are "High risk", a new connection "Needs care", what it drops neither. A failed Install (the watched
 * folder deleted after it was picked) moves focus to its error.
 */
import { rmSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { axeCheck, expect, nextStep, snapshot, stepHeading, test, windowShots } from '../support/app';
import { makeFolder, packFixture, packInvoices, packInvoicesWith } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

const next = (page: Page) => page.getByRole('button', { name: 'Next' }).click();

/** 1.2.0 installed with its defaults. */
async function installInvoices(page: Page, open: (path: string) => Promise<void>) {
  await open(packInvoices().path);
  for (let i = 0; i < 3; i++) await next(page);
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.2.0 is installed' })).toBeVisible();
}

const v130 = () =>
  packInvoicesWith(
    (toml) =>
      `${toml
        .replace('version = "1.2.0"', 'version = "1.3.0"')
        .replace('publisher = "Example Accounting"', 'publisher = "Example Acc0unting Partners"')
        .replace('type = "gmail"', 'type = "slack"')}
[[mcp_servers]]
name = "crm"
url = "http://203.0.113.7/mcp"
transport = "streamable-http"

[[mcp_servers]]
name = "fetcher"
command = "npx"
args = ["-y", "fetch-mcp@latest"]
`,
    'invoices-1.3.0.apo',
  );

test('a lookalike publisher is carried from the first step to Review, the updated screen and Activity; changes weighed', async ({
  page,
  app,
}) => {
  await installInvoices(page, (path) => app.open(path));
  await app.open(v130().path);
  await expect(page.getByRole('heading', { level: 1, name: 'Update invoices' })).toBeVisible();

  const first = page.getByRole('region', { name: 'The publisher name changed to a lookalike' });
  await expect(first).toContainText('Example Acc0unting Partners');
  await expect(first).toContainText('The new name is the old one with words added');
  await expect(first.getByRole('list', { name: 'Where the names differ' }).getByRole('listitem')).toHaveText([
    'Character 12: the digit 0 where the installed name has “o”',
    'Then “Partners” added after it',
  ]);

  const changes = page.getByRole('list', { name: 'Changes' });
  const program = changes.getByRole('listitem').filter({ hasText: 'Starts a new program on this computer' });
  await expect(program).toContainText('High risk: Starts a new program on this computer: npx -y fetch-mcp@latest');
  await expect(program).toHaveClass(/risk-high/);
  const server = changes.getByRole('listitem').filter({ hasText: 'http://203.0.113.7/mcp' });
  await expect(server).toContainText('High risk:');
  await expect(server).toContainText('over plain http://');
  await expect(server).toContainText('at a raw IP address, not a name you can check');
  await expect(server).toHaveClass(/risk-high/);
  const connection = changes.getByRole('listitem').filter({ hasText: 'Now needs a connection to slack' });
  await expect(connection).toContainText('Needs care:');
  await expect(connection).toHaveClass(/risk-sensitive/);
  const dropped = changes.getByRole('listitem').filter({ hasText: 'No longer needs gmail' });
  await expect(dropped).toHaveClass(/risk-notice/);
  await expect(dropped).not.toContainText(/High risk|Needs care/);
  await snapshot(page, 'update-changes-weighed');
  await windowShots(page, program, 'update-changes-weighed');

  for (let i = 0; i < 4; i++) await next(page);
  await expect(stepHeading(page, 'Step 5 of 5: Review and install')).toBeVisible();
  const onReview = page.getByRole('region', { name: 'The publisher name changed to a lookalike' });
  await expect(onReview).toContainText('Example Accounting');
  await expect(onReview).toContainText('Example Acc0unting Partners');
  await snapshot(page, 'update-review-publisher');
  await windowShots(page, onReview, 'update-review-publisher');

  await page.getByRole('button', { name: 'Install update' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.3.0 is updated' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(
    'The publisher is now named “Example Acc0unting Partners” (was “Example Accounting”), a name that passes for the old one.',
  );
  await snapshot(page, 'update-done-publisher');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity' }).click();
  const list = page.getByRole('list', { name: 'Activity, newest first' });
  await expect(list).toContainText(
    'the publisher\'s name changed from "Example Accounting" to "Example Acc0unting Partners", a name that passes for the old one',
  );
});

test('a failed Install moves focus to its error', async ({ page, app }) => {
  const inbox = makeFolder('gone-inbox');
  await app.open(packFixture('mailroom').path);
  await nextStep(page, 'Step 2 of 4: What it asks to use');
  await nextStep(page, 'Step 3 of 4: What would start it');
  await app.answerDialog('folder', inbox);
  await page.getByRole('button', { name: 'Choose a folder for inbox-changed…' }).click();
  await expect(page.getByRole('checkbox', { name: 'Arm inbox-changed' })).toBeChecked();
  await nextStep(page, 'Step 4 of 4: Review and install');
  // The folder is deleted after it was picked: Install cannot watch it.
  rmSync(inbox, { recursive: true, force: true });
  const install = page.getByRole('button', { name: 'Install', exact: true });
  await install.click();
  const focused = page.locator(':focus');
  await expect(focused).toContainText('The package was not installed');
  await expect(install).not.toBeFocused();
  await axeCheck(page, 'failed install');
  await windowShots(page, focused, 'install-failed-focus');
  expect(await app.readState()).toBeNull();
});
