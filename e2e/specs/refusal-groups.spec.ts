/**
 * A refusal goes to whoever can act on it (shared/contract/refusal-actor.ts), in words right for its code:
 * an empty file is a download to repeat, a misnamed module is the author's slip (not "Move to
 * Trash"), and the author's message can be copied. (A signature that does not match says so rather
 * than "does not follow the rules": shared/contract/refusal-actor.test.ts.)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, snapshotBoth, test } from '../support/app';
import { packInvoicesWith } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

test('a 0-byte .apo is a download to repeat, not "open the .apo file itself"', async ({ page, app }) => {
  const path = join(mkdtempSync(join(tmpdir(), 'apollia-e2e-empty-')), 'quiet.apo');
  writeFileSync(path, Buffer.alloc(0));
  await app.open(path);
  await expect(page.getByRole('heading', { level: 1, name: 'This package was refused' })).toBeFocused();
  const alert = page.getByRole('alert');
  await expect(alert.getByRole('heading', { level: 2 })).toHaveText('You can fix this');
  await expect(alert).toContainText(
    'The file is empty (0 bytes): the download or copy did not finish. Download the package again.',
  );
  await expect(alert).toContainText('quiet.apo was checked without running any of it, and the file is empty.');
  await expect(alert).not.toContainText('Open the .apo file itself');
  await expect(alert).not.toContainText('rules');
  await snapshotBoth(page, 'refused-empty-file');
});

test('a module named extractor.py but shipped as extract.py is the author’s slip: no Trash, and the message for the author can be copied', async ({
  page,
  app,
}) => {
  const typo = packInvoicesWith(
    (toml) => toml.replace('module = "tools/extract.py"', 'module = "tools/extractor.py"'),
    'invoices-typo.apo',
  );
  await app.open(typo.path);
  const alert = page.getByRole('alert');
  await expect(alert.getByRole('heading', { level: 2 })).toHaveText('Its author must fix this');
  await expect(alert).not.toContainText('no honest package');
  await expect(page.getByRole('button', { name: 'Move to Trash' })).toHaveCount(0);
  const forAuthor = page.getByRole('region', { name: 'For its author' });
  const message = forAuthor.getByLabel('Message for the author', { exact: true });
  await expect(message).toContainText('Apollia Desktop refused invoices-typo.apo (checked without running any of it):');
  await expect(message).toContainText(
    'which the manifest describes in `tools/extractor.py`, a module not in the archive [manifest.module_misnamed]',
  );
  await expect(forAuthor.getByRole('button', { name: 'Copy the message for the author' })).toBeVisible();
  if (process.env['E2E_MODE'] !== 'electron') {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await forAuthor.getByRole('button', { name: 'Copy the message for the author' }).click();
    await expect(forAuthor.getByText('Copied')).toBeVisible();
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(copied).toContain('Apollia Desktop refused invoices-typo.apo');
    expect(copied).toContain('[manifest.module_misnamed]');
  }
  await snapshotBoth(page, 'refused-author-typo');
});

test('two files named quiet.apo get tabs that tell them apart; Close on a refused file closes its tab', async ({
  page,
  app,
}) => {
  const root = mkdtempSync(join(tmpdir(), 'apollia-e2e-tabs-'));
  for (const folder of ['Downloads', 'Desktop']) {
    mkdirSync(join(root, folder));
    writeFileSync(join(root, folder, 'quiet.apo'), Buffer.alloc(0));
  }
  await app.open(join(root, 'Downloads', 'quiet.apo'));
  await expect(page.getByRole('heading', { level: 1, name: 'This package was refused' })).toBeVisible();
  await app.open(join(root, 'Desktop', 'quiet.apo'));
  const tabs = page.getByRole('list', { name: 'Opened packages' });
  await expect(tabs.getByRole('button', { name: 'quiet.apo (in Downloads)', exact: true })).toBeVisible();
  await expect(tabs.getByRole('button', { name: 'quiet.apo (in Desktop)', exact: true })).toBeVisible();
  await snapshotBoth(page, 'tabs-same-name');
  await page.getByRole('main').getByRole('button', { name: 'Close', exact: true }).click();
  await expect(tabs.getByRole('button', { name: 'quiet.apo (in Desktop)', exact: true })).toHaveCount(0);
  await expect(tabs.getByRole('listitem')).toHaveCount(1);
  // The one left is alone with its name again: no folder needed.
  await expect(tabs.getByRole('button', { name: 'quiet.apo', exact: true })).toBeVisible();
});
