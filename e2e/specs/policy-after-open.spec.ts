/**
 * A policy written after the consent form opened (DESIGN.md "Managed policy": evaluated for every door, when the door
 * is used): the form opened on a package nothing refused, the person went through every step, and meanwhile the
 * organization wrote a policy that refuses it. Install is refused with the policy's reason (the refusal screen: the
 * organization's, with its code), and nothing is installed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeCheck, expect, nextStep, stepHeading, test } from '../support/app';
import { packInvoices } from '../support/packages';

const policyFile = join(mkdtempSync(join(tmpdir(), 'apollia-e2e-policy-after-')), 'policy.json');
writeFileSync(policyFile, JSON.stringify({ version: 1, organization: 'Example Corp' }));

test.use({ now: '2026-01-01T00:00:00Z', policyFile });

test('a package a policy written after the form opened refuses is refused at Install with the policy’s reason', async ({
  page,
  app,
}) => {
  const invoices = packInvoices();
  await app.open(invoices.path);
  await expect(stepHeading(page, 'Step 1 of 4: What this package is')).toBeVisible();
  await nextStep(page, 'Step 2 of 4: What it asks to use');
  await nextStep(page, 'Step 3 of 4: What would start it');
  await nextStep(page, 'Step 4 of 4: Review and install');
  const install = page.getByRole('button', { name: 'Install', exact: true });
  await expect(install).toBeEnabled();

  // The organization's policy changes while the form is open: unsigned packages are no longer allowed.
  writeFileSync(policyFile, JSON.stringify({ version: 1, organization: 'Example Corp', requireSignature: 'trusted' }));
  await install.click();
  await expect(page.getByRole('heading', { level: 1, name: 'This package was refused' })).toBeVisible();
  const refused = page.getByRole('alert', { name: 'Your organization does not allow this' });
  await expect(refused).toContainText('Nothing was installed.');
  await expect(refused).toContainText(
    "invoices is not signed, and your organization does not allow this; your administrator can change the policy (a trusted publisher's signature is required)",
  );
  await expect(refused).toContainText('Error code: policy.untrusted_signature');
  await expect(page.getByRole('heading', { level: 1, name: /is installed$/ })).toHaveCount(0);
  const stored = (await app.readState()) as { packages?: Record<string, unknown> } | null;
  expect(Object.keys(stored?.packages ?? {})).toEqual([]);
  await axeCheck(page, 'install refused by a policy written after the form opened');
});
