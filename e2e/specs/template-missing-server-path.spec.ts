/**
 * The missing-server path of a template (`e2e/fixtures/templates/issue-triage` requires the MCP server `linear`):
 * the button names the server, Settings opens with its name filled in and the command focused, says which tab asked
 * and offers the way back; the server's environment (its token) is typed in its own fields and kept sealed, as every
 * credential of Settings: never in the state file, never shown again. Back returns to the same step, which now finds
 * the server. Pictured at 1280×800 and 800×600.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/electron-binary';
import { axeCheck, expect, stepHeading, test, windowShots } from '../support/app';

test.use({ now: '2026-01-01T00:00:00Z' });

const ISSUE_TRIAGE = join(REPO_ROOT, 'e2e', 'fixtures', 'templates', 'issue-triage');
const TOKEN = 'lin_api_Qm7Zp2Xk9Rt4Vw8Ny3Bc6Df1';

test('a missing server: its name filled in, its token sealed in an environment field, and a way back', async ({
  page,
  app,
}) => {
  await app.answerDialog('folder', ISSUE_TRIAGE);
  await page.getByRole('button', { name: 'Open a template folder…' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Apply template issue-triage' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel(/^team/).fill('ENG');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 3 of 5: What it may use')).toBeVisible();
  const linear = page.getByRole('article', { name: 'linear Missing (required)' });
  await linear.getByRole('button', { name: 'Save linear in Settings → MCP servers' }).click();

  // Settings: the name the template uses filled in, the command focused, the tab that asked named.
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByLabel('Server name')).toHaveValue('linear');
  await expect(page.getByLabel('Command')).toBeFocused();
  const asked = page.getByRole('region', { name: 'issue-triage needs the MCP server linear' });
  await expect(asked).toContainText('Its name is filled in below.');
  await page.getByLabel('Command').fill('npx');
  await page.getByLabel('Arguments (one per line)').fill('-y\nlinear-mcp');
  const env = page.getByRole('group', { name: 'Environment variables (optional)' });
  await env.getByLabel('Name 1').fill('LINEAR_API_KEY');
  await env.getByLabel('Value 1').fill(TOKEN);
  await expect(env.getByLabel('Value 1')).toHaveAttribute('type', 'password');
  // A name a shell cannot set is said at its field, and Save waits.
  await env.getByRole('button', { name: 'Add another variable' }).click();
  await env.getByLabel('Name 2').fill('2BAD');
  await expect(env).toContainText('A name is letters, digits and _ (not starting with a digit)');
  await expect(page.getByRole('button', { name: 'Save server' })).toBeDisabled();
  await env.getByLabel('Name 2').fill('LOG_LEVEL');
  await env.getByLabel('Value 2').fill('info');
  await axeCheck(page, 'settings asked for linear');
  await windowShots(page, env, 'missing-server-settings');
  await page.getByRole('button', { name: 'Save server' }).click();

  const row = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Remove server linear' }) });
  await expect(row).toContainText('npx -y linear-mcp');
  await expect(row).toContainText('Its environment variables are kept encrypted and never shown again.');
  await expect(page.getByRole('main')).not.toContainText(TOKEN);
  const saved = page.getByRole('region', { name: 'linear is saved' });
  await expect(saved).toContainText('Go back to finish');
  const state = readFileSync(join(await app.dataDir(), 'state.json'), 'utf8');
  expect(state).not.toContain(TOKEN);
  expect(state).not.toContain('LINEAR_API_KEY');
  await windowShots(page, saved, 'missing-server-saved');

  // The way back: the same step, which now finds the server.
  await saved.getByRole('button', { name: 'Back to issue-triage' }).click();
  await expect(stepHeading(page, 'Step 3 of 5: What it may use')).toBeVisible();
  await expect(page.getByRole('article', { name: 'linear Saved on this computer' })).toBeVisible();
  await axeCheck(page, 'back at the template');
});
