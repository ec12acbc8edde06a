/**
 * A managed person knows the rules first (DESIGN.md "Managed policy"): the policy page says who sets the
 * policy and from where — here the person's own APOLLIA_POLICY_FILE, a trial policy, said so —, each rule in words
 * with its file, what it changes on this computer now (a tool withheld, a trigger paused, a tool made to ask), and
 * offers a request to copy for the administrator; a policy refusal offers the same; the Triggers note says what is
 * paused instead of "Armed triggers are live".
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeCheck, expect, nextStep, snapshotBoth, test } from '../support/app';
import { packInvoices } from '../support/packages';

const policyFile = join(mkdtempSync(join(tmpdir(), 'apollia-e2e-policy-page-')), 'policy.json');
const policy = (rules: Record<string, unknown>) =>
  writeFileSync(policyFile, JSON.stringify({ version: 1, organization: 'Example Corp', ...rules }));
policy({});
test.use({ now: '2026-01-01T00:00:00Z', policyFile });

test('the policy page: a trial policy said so, its rules, what it changes here, a request for the administrator', async ({
  page,
  app,
}) => {
  policy({});
  // Installed under a policy that allows it, its schedule armed and its tools granted as proposed.
  await app.open(packInvoices().path);
  await nextStep(page, 'Step 2 of 4: What it asks to use');
  await nextStep(page, 'Step 3 of 4: What would start it');
  await page.getByRole('checkbox', { name: 'Arm first-monday' }).check();
  await nextStep(page, 'Step 4 of 4: Review and install');
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();

  // The organization's trial now blocks schedules and a tool the person allowed.
  policy({ triggers: { schedule: false }, blockedTools: ['mcp:*/lookup'], unattended: false });
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'Open' }).click();
  await nav.getByRole('button', { name: 'Dashboard' }).click();
  const banner = page.getByRole('status', { name: "Your organization's policy" });
  await expect(banner).toContainText(
    'A trial policy (Example Corp), from your own file (APOLLIA_POLICY_FILE), not from your organization.',
  );
  // One note, matching what is paused: never "Armed triggers are live" above a trigger that is not.
  const note = page.getByRole('region', { name: 'Triggers' });
  await expect(note).toContainText(
    "No armed trigger is live: 1 trigger paused (1 by your organization's policy or a changed package).",
  );
  await expect(note).not.toContainText('Armed triggers are live');

  await banner.getByRole('button', { name: 'See what it sets' }).click();
  await expect(page.getByRole('heading', { level: 1, name: "Your organization's policy" })).toBeVisible();
  const main = page.getByRole('main');
  await expect(
    page.getByRole('heading', {
      level: 2,
      name: 'A trial policy (Example Corp), from your own file (APOLLIA_POLICY_FILE), not from your organization',
    }),
  ).toBeVisible();
  await expect(main).toContainText('it is not a policy your organization set on this computer');
  await expect(main).toContainText(
    `your own file, named by APOLLIA_POLICY_FILE (a trial policy: it only adds restrictions): ${policyFile} (read)`,
  );
  const rules = page.getByRole('region', { name: 'What it sets' });
  await expect(rules).toContainText('Triggers it does not allow: schedule');
  await expect(rules).toContainText('No tool may run without asking: every tool asks you first');
  await expect(rules).toContainText('Tools it blocks: mcp:*/lookup');
  const effects = page.getByRole('region', { name: 'What it changes on this computer now' });
  await expect(effects).toContainText('mcp:ledger/lookup of Invoice clerk is withheld');
  await expect(effects).toContainText(
    'The trigger invoices/first-monday is paused: still armed, its folder and secret kept',
  );
  await axeCheck(page, 'the policy page');
  await snapshotBoth(page, 'policy-4-page');

  const trigger = effects.getByRole('listitem').filter({ hasText: 'The trigger invoices/first-monday is paused' });
  if (process.env['E2E_MODE'] !== 'electron')
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await trigger.getByRole('button', { name: 'Copy a request for your administrator' }).click();
  await expect(trigger.getByRole('status')).toHaveText('Copied: paste it into a message to your administrator.');
  if (process.env['E2E_MODE'] !== 'electron') {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(copied).toContain('To the administrator of Apollia Desktop at Example Corp:');
    expect(copied).toContain('About: invoices');
    expect(copied).toContain('What was refused: The trigger invoices/first-monday is paused');
    expect(copied).toContain('The rule: triggers (refusal code policy.trigger_kind)');
  }

  // A refusal of the policy at the control offers the same request: Arm is locked, Resume too; a grant refused.
  await nav.getByRole('button', { name: 'Dashboard' }).click();
  await expect(page.getByRole('button', { name: 'Pause first-monday' })).toBeEnabled();
});

test('a package the policy refuses: the refusal offers a request for the administrator naming it and the rule', async ({
  page,
  app,
}) => {
  policy({ requireSignature: 'trusted' });
  await app.open(packInvoices().path);
  await expect(page.getByRole('heading', { level: 1, name: 'This package was refused' })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByRole('button', { name: 'Copy a request for your administrator' })).toBeVisible();
  await main.getByText('The request').click();
  await expect(main).toContainText('About: the package invoices-1.2.0.apo');
  await expect(main).toContainText('The rule: requireSignature (refusal code policy.untrusted_signature)');
  await axeCheck(page, 'a policy refusal with its request');
  await snapshotBoth(page, 'policy-5-refused-request');
});

test('a policy that counts only its keys locks adding one in Settings before anything is asked', async ({ page }) => {
  policy({ allowUserTrustedKeys: false });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Trusted publishers' });
  await expect(section.getByRole('note')).toContainText(
    'Adding a key is locked by your organization: your organization counts only the publisher keys it trusts: you cannot add your own.',
  );
  await expect(section.getByRole('button', { name: 'Choose a key file…' })).toHaveCount(0);
  await axeCheck(page, 'Settings with adding a key locked');
});
