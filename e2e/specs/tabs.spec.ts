/**
 * Tabs of opened packages: closing one in the background closes only that tab (the form in view stays, with what
 * was typed); refused and installed tabs can be cleared at once; an older file of an installed package never makes the
 * downgrade the primary action.
 */
import { axeCheck, expect, nextStep, shot, test } from '../support/app';
import { packFixture, packInvoicesWith } from '../support/packages';

test('closing a background tab keeps the form in view; finished tabs are cleared at once', async ({ page, app }) => {
  const tabs = page.getByRole('list', { name: 'Opened packages' });
  const broken = packInvoicesWith(
    (toml) => toml.replace('version = "1.2.0"', 'version = "1.2"'),
    'invoices-broken.apo',
  );
  await app.open(broken.path);
  await expect(page.getByRole('heading', { level: 1, name: 'This package was refused' })).toBeVisible();
  await app.open(packFixture('diary').path);
  await app.open(packFixture('mailroom').path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install mailroom' })).toBeVisible();
  await nextStep(page, /What it asks to use/);

  // The diary tab is closed from the background: mailroom's form stays where it was.
  await tabs.getByRole('button', { name: 'Close diary.apo' }).click();
  await expect(tabs.getByRole('button', { name: 'diary.apo', exact: true })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Install mailroom' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /What it asks to use/ })).toBeVisible();

  // The refused tab is finished: one press clears it, and the form in view stays.
  const clear = page.getByRole('button', { name: /Close the finished tab/ });
  await expect(clear).toBeVisible();
  await shot(page, 'tabs-1-finished-to-clear');
  await axeCheck(page, 'tabs with a finished one');
  await clear.click();
  await expect(tabs.getByRole('button', { name: 'invoices-broken.apo', exact: true })).toHaveCount(0);
  await expect(tabs.getByRole('button', { name: 'mailroom.apo', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Install mailroom' })).toBeVisible();
  await expect(clear).toHaveCount(0);
});

test('an older file of an installed package offers to keep the newer version first', async ({ page, app }) => {
  const newer = packInvoicesWith(
    (toml) => toml.replace('version = "1.2.0"', 'version = "1.3.0"'),
    'invoices-1.3.0.apo',
  );
  await app.open(newer.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
  for (let step = 0; step < 3; step++) await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: /invoices 1\.3\.0 is installed/ })).toBeVisible();
  await app.open(packInvoicesWith((toml) => toml, 'invoices-1.2.0.apo').path);
  await expect(page.getByRole('heading', { level: 1, name: 'This is an older version' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Keep version 1.3.0' })).toHaveClass(/button-primary/);
  await expect(page.getByRole('button', { name: 'Review the downgrade' })).not.toHaveClass(/button-primary/);
  await shot(page, 'tabs-2-older-version');
});
