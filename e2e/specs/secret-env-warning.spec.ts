/**
 * A hidden risk said beside it: an environment variable named like a secret, handed to a program
 * fetched at run time without a pinned version, gets a warning line in the consent form's Access
 * step (not just "names only").
 */
import { expect, nextStep, snapshotBoth, test } from '../support/app';
import { packInvoicesWith } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

test('AWS_SECRET_ACCESS_KEY going to an unpinned npx …@latest program is warned about', async ({ page, app }) => {
  const risky = packInvoicesWith(
    (toml) =>
      toml.replace(
        'command = "uvx"\nargs = ["ledger-mcp"]',
        'command = "npx"\nargs = ["ledger-mcp@latest"]\nenv = { AWS_SECRET_ACCESS_KEY = "from-the-package", LOG_LEVEL = "info" }',
      ),
    'invoices-env.apo',
  );
  await app.open(risky.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
  await nextStep(page, 'Step 2 of 4: What it asks to use');
  const servers = page.getByRole('region', { name: 'Programs and servers it brings (MCP)' });
  await expect(servers.getByRole('note')).toHaveText(
    /AWS_SECRET_ACCESS_KEY looks like a secret, and it goes to ledger-mcp@latest, which is not pinned to one version: whoever publishes its next version would receive it\./,
  );
  await expect(servers.getByRole('note')).not.toContainText('LOG_LEVEL');
  await servers.scrollIntoViewIfNeeded();
  await snapshotBoth(page, 'secret-env-warning');
});
