/**
 * Managed by your organization (DESIGN.md "Managed policy"), at 800×600: with a policy file set as
 * an administrator tries one (`APOLLIA_POLICY_FILE`), the consent form says who manages this
 * computer, shows the tool and the trigger the policy blocks locked with the reason, and installs
 * the rest; when the policy then changes to block a tool the person allowed, the dashboard says so
 * in a banner and shows the row locked, while the store keeps the person's decision.
 */
import { writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeCheck, expect, nextStep, snapshot, stepHeading, test } from '../support/app';
import { packInvoices } from '../support/packages';

const policyFile = join(mkdtempSync(join(tmpdir(), 'apollia-e2e-policy-')), 'policy.json');
const policy = (extra: Record<string, unknown> = {}) =>
  writeFileSync(
    policyFile,
    JSON.stringify({
      version: 1,
      organization: 'Example Corp',
      blockedTools: ['mcp:*/lookup'],
      triggers: { schedule: false },
      ...extra,
    }),
  );
policy();

test.use({ now: '2026-01-01T00:00:00Z', viewport: { width: 800, height: 600 }, policyFile });

test('the consent form under a policy: locked rows with the reason, a banner, and the dashboard when the policy changes', async ({
  page,
  app,
}) => {
  policy();
  const invoices = packInvoices();
  await app.open(invoices.path);
  await expect(stepHeading(page, 'Step 1 of 4: What this package is')).toBeVisible();
  const banner = page.getByRole('status', { name: "Your organization's policy" });
  // Read from APOLLIA_POLICY_FILE alone, it is a trial policy, and the banner says so (DESIGN.md "Managed policy").
  await expect(banner).toContainText(
    'A trial policy (Example Corp), from your own file (APOLLIA_POLICY_FILE), not from your organization.',
  );

  await nextStep(page, 'Step 2 of 4: What it asks to use');
  const lookup = page.getByRole('checkbox', { name: /mcp:ledger\/lookup/ });
  await expect(lookup).toBeDisabled();
  await expect(lookup).not.toBeChecked();
  const lookupRow = page.getByRole('listitem').filter({ has: lookup });
  await expect(lookupRow).toContainText('Locked by your organization: your organization blocks “mcp:*/lookup”');
  await expect(page.getByRole('checkbox', { name: /file_read/ })).toBeEnabled();
  await axeCheck(page, 'access under a policy');
  await snapshot(page, 'policy-1-access-locked-800x600');

  await nextStep(page, 'Step 3 of 4: What would start it');
  const arm = page.getByRole('checkbox', { name: 'Arm first-monday' });
  await expect(arm).toBeDisabled();
  await expect(page.getByRole('note').filter({ hasText: 'Locked by your organization' })).toContainText(
    'your organization does not allow scheduled triggers',
  );
  await axeCheck(page, 'triggers under a policy');
  await snapshot(page, 'policy-2-triggers-locked-800x600');

  await nextStep(page, 'Step 4 of 4: Review and install');
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('status', { name: "Your organization's policy" })).toContainText(
    'A trial policy (Example Corp), from your own file (APOLLIA_POLICY_FILE), not from your organization.',
  );

  // The organization now blocks a tool the person allowed at install: withheld on top, kept in the store.
  policy({ blockedTools: ['mcp:*/lookup', 'file_read'] });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Open' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Dashboard' }).click();
  const changed = page.getByRole('status', { name: "Your organization's policy" });
  await expect(changed).toContainText(
    "Your organization's policy withholds 1 tool you allowed. Your own decisions are kept",
  );
  await expect(
    page.getByText(
      'Locked by your organization: your organization blocks this tool (you allowed it: it applies again when the policy allows it)',
    ),
  ).toBeVisible();
  const stored = (await app.readState()) as {
    agents: Record<string, { access: { entry: string; permission: string }[] }>;
  };
  expect(stored.agents['invoices/invoice-clerk']?.access.find((a) => a.entry === 'file_read')?.permission).toBe('ask');
  await axeCheck(page, 'dashboard under a changed policy');
  await snapshot(page, 'policy-3-dashboard-banner-800x600');
});
