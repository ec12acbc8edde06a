/**
 * Refusals say who acts (the person, the author, or nobody: Move to Trash),
 * every refused screen has Close, a package folder opened as a template says what it is; the
 * owner's "never allow" list, picked in Settings, holds for an `.apo` install; a template's
 * trigger stays unarmed unless ticked; Cancel on a template step asks nothing when nothing was
 * chosen; the same file opened twice is one tab. Settings is pictured at 1180×820 and 800×600.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildTar, folderEntries, INVOICES_DIR } from '../../test/helpers/pack';
import { expect, nextStep, snapshot, snapshotBoth, stepHeading, test } from '../support/app';
import { packInvoices, packInvoicesWith } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

const scratchFile = (name: string, bytes: Buffer | string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'apollia-e2e-refused-')), name);
  writeFileSync(path, bytes);
  return path;
};

test('a package that links out of itself: "Don\'t install this", Move to Trash moves the original file', async ({
  page,
  app,
}) => {
  const linked = scratchFile(
    'linked.apo',
    gzipSync(buildTar([...folderEntries(INVOICES_DIR), { name: 'link', type: 'symlink', linkname: '/etc/passwd' }])),
  );
  await app.open(linked);
  await expect(page.getByRole('heading', { level: 1, name: 'This package was refused' })).toBeFocused();
  const alert = page.getByRole('alert');
  await expect(alert.getByRole('heading', { level: 2 })).toHaveText("Don't install this");
  await expect(alert).toContainText('Move the file to the Trash.');
  await expect(page.getByRole('button', { name: 'Close', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy the command' })).toHaveCount(0);
  await snapshotBoth(page, 'refused-malicious');

  await page.getByRole('button', { name: 'Move to Trash' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'linked.apo is in the Trash' })).toBeVisible();
  expect(existsSync(linked)).toBe(false);
  expect(existsSync(join(await app.dataDir(), 'trash', 'linked.apo'))).toBe(true);
  expect(await app.readState()).toBeNull();
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Open a package' })).toBeVisible();
});

test('a package hiding 60,000 tools: "Don\'t install this", the first 99 problems listed and the rest counted', async ({
  page,
  app,
}) => {
  // 160 KB gzip'd. Listed in full, the 60,000 problems once took the screen 5 s to show.
  const module = `from apollia import tool\n${Array.from({ length: 60_000 }, (_, i) => `@tool\ndef f${i}():\n    pass\n`).join('')}`;
  await app.open(
    scratchFile(
      'hidden-tools.apo',
      gzipSync(buildTar([...folderEntries(INVOICES_DIR), { name: 'tools/many.py', body: module }])),
    ),
  );
  await expect(page.getByRole('heading', { level: 1, name: 'This package was refused' })).toBeFocused();
  const alert = page.getByRole('alert');
  await expect(alert.getByRole('heading', { level: 2 })).toHaveText("Don't install this");
  await expect(alert.locator('.refusal')).toContainText(
    'module tools/many.py defines the tool f0, which the manifest does not describe',
  );
  // Five at once, so the actions stay in view; the rest behind "Show 94 more".
  const others = page.getByRole('region', { name: 'Other problems' });
  await expect(others.getByRole('listitem').filter({ visible: true })).toHaveCount(5);
  await expect(page.getByRole('button', { name: 'Move to Trash' })).toBeInViewport();
  await snapshot(page, 'refused-many-problems-1');
  await others.getByText('Show 94 more').click();
  await expect(others.getByRole('listitem')).toHaveCount(99);
  await expect(others.getByRole('listitem').last()).toHaveText(
    '59,901 more errors are not listed: fix the ones above, then inspect the package again to see them',
  );
  await others.getByRole('listitem').last().scrollIntoViewIfNeeded();
  await snapshot(page, 'refused-many-problems-2');
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Open a package' })).toBeVisible();
});

test('a file that is not a package: the person can fix it, and Close closes it', async ({ page, app }) => {
  await app.open(scratchFile('notes.txt', 'just some notes\n'));
  const alert = page.getByRole('alert');
  await expect(alert.getByRole('heading', { level: 2 })).toHaveText('You can fix this');
  await expect(alert).toContainText('This file is not an Apollia package, template folder or plugin manifest.');
  await expect(page.getByRole('button', { name: 'Move to Trash' })).toHaveCount(0);
  await snapshotBoth(page, 'refused-user');
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Opened packages' })).toHaveCount(0);
});

test('a package that breaks a rule: its author must fix it, with the exact message and the inspect command', async ({
  page,
  app,
}) => {
  const broken = packInvoicesWith(
    (toml) => toml.replace('version = "1.2.0"', 'version = "1.2"'),
    'invoices-broken.apo',
  );
  await app.open(broken.path);
  const alert = page.getByRole('alert');
  await expect(alert.getByRole('heading', { level: 2 })).toHaveText('Its author must fix this');
  await expect(alert.locator('.refusal')).toContainText('package version 1.2 is not semver');
  const forAuthor = page.getByRole('region', { name: 'For its author' });
  await expect(forAuthor.locator('code')).toHaveText('apollia-desktop inspect invoices-broken.apo');
  await expect(forAuthor).toContainText('Apollia Desktop’s own command line, installed with the app');
  await expect(forAuthor).not.toContainText('npx');
  await expect(page.getByRole('button', { name: 'Move to Trash' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Close', exact: true })).toBeVisible();
  await snapshotBoth(page, 'refused-author');
});

test('a package folder opened as a template says what it is, and how to pack it', async ({ page, app }) => {
  await app.answerDialog('folder', INVOICES_DIR);
  await page.getByRole('button', { name: 'Open a template folder…' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'This template was refused' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText(
    'invoices is not a template: it is the folder of an .apo package, not yet packed',
  );
  await expect(page.getByRole('region', { name: 'How to pack it' }).locator('code')).toHaveText(
    'apollia-desktop pack invoices',
  );
  await expect(page.getByRole('main')).not.toContainText('npx');
  await snapshot(page, 'refused-unbuilt-apo');
});

test('the same file opened twice is one tab', async ({ page, app }) => {
  const invoices = packInvoices();
  await app.open(invoices.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
  await app.open(invoices.path);
  await expect(page.getByRole('list', { name: 'Opened packages' }).getByRole('listitem')).toHaveCount(1);
});

test('never allow, picked in Settings, holds for an .apo: the tool shows denied and cannot be ticked', async ({
  page,
  app,
}) => {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' }))
    .toBeFocused()
    .catch(() => undefined);
  await snapshotBoth(page, 'settings');
  const section = page.getByRole('region', { name: 'Tools you never allow' });
  await section.getByLabel('Tool', { exact: true }).selectOption('file_read');
  await section.getByRole('button', { name: 'Never allow it' }).click();
  await expect(section.getByRole('list', { name: 'Tools you never allow' }).getByRole('listitem')).toHaveText([
    'file_read Never allowed Remove',
  ]);

  const invoices = packInvoices();
  await app.open(invoices.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 2 of 4: What it asks to use')).toBeVisible();
  const fileRead = page.getByRole('checkbox', { name: /file_read$/ });
  await expect(fileRead).toBeDisabled();
  await expect(fileRead).not.toBeChecked();
  await expect(page.getByRole('listitem').filter({ has: fileRead })).toContainText('Denied in your Settings');
  // Gmail is not set up: what setting it up means, and the way there.
  const connections = page.getByRole('region', { name: 'Connections it needs' });
  await expect(connections).toContainText('Setting it up means saving an MCP server named gmail in Settings');
  await expect(connections.getByRole('button', { name: 'Save gmail in Settings → MCP servers' })).toBeVisible();
  await snapshot(page, 'apo-never-allow-access');
  await nextStep(page, 'Step 3 of 4: What would start it');
  await nextStep(page, 'Step 4 of 4: Review and install');
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.2.0 is installed' })).toBeVisible();
  const state = (await app.readState()) as {
    agents: Record<string, { access: { entry: string; granted: boolean }[] }>;
  };
  expect(state.agents['invoices/invoice-clerk']?.access.find((a) => a.entry === 'file_read')?.granted).toBe(false);
});

test('template: Cancel asks nothing when nothing was chosen; the schedule is made unarmed unless ticked', async ({
  page,
  app,
}) => {
  const use = () => page.getByRole('button', { name: 'Use this template: Market monitor' }).click();
  await use();
  await expect(page.getByRole('heading', { level: 1, name: 'Apply template market-monitor' })).toBeFocused();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Open a package' })).toBeVisible();

  await use();
  await page.getByRole('button', { name: 'Next' }).click();
  // Untouched, a required field is not shown as an error.
  const companies = page.getByLabel(/^companies/);
  await expect(companies).not.toHaveAttribute('aria-invalid', 'true');
  await companies.fill('Acme');
  await page.getByRole('button', { name: 'Cancel' }).click();
  const question = page.getByRole('group', { name: /Close this template and forget the answers you gave/ });
  await expect(question).toBeVisible();
  await expect(question.getByRole('button', { name: 'Keep going' })).toBeFocused();
  await question.getByRole('button', { name: 'Keep going' }).click();
  await page.getByLabel(/^channel/).fill('C0123ABCD');
  for (const step of [
    'Step 3 of 5: What it may use',
    'Step 4 of 5: What would start it',
    'Step 5 of 5: Review and apply',
  ]) {
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(stepHeading(page, step)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  }
  await expect(
    page.getByRole('region', { name: 'Everything it gets' }).getByRole('listitem').filter({ hasText: 'weekly' }),
  ).toContainText('Off until you arm it');
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The agent was made' })).toContainText(
    '1 trigger (none armed',
  );
  const state = (await app.readState()) as { triggers: Record<string, { name: string; armed: boolean }> };
  expect(Object.values(state.triggers).map((t) => [t.name, t.armed])).toEqual([['weekly', false]]);
});
