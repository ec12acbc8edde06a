/**
 * A credential typed into an MCP server's arguments or url is kept sealed and never shown
 * back. Settings shows the saved server with `••••` in its place and says the credential is kept
 * encrypted; the state file holds no trace of it. The secret backend is worded as what it is (the
 * harness seals with a key file beside the data).
 */
import { expect, snapshot, test } from '../support/app';

test.use({ now: '2026-01-01T00:00:00Z' });

const TOKEN = 'xoxb-123456789012-abcdefABCDEF123456';

test('an MCP server saved with a token shows it masked, says it is kept encrypted, and stores it sealed', async ({
  page,
  app,
}) => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(
    'Secrets are kept encrypted with a key stored in a file beside the app data (secret-box.key), not in a keychain',
  );

  await page.getByLabel('Server name').fill('slack');
  await page.getByLabel('Command').fill('npx');
  await page.getByLabel('Arguments (one per line)').fill(`slack-mcp\n--token\n${TOKEN}`);
  await page.getByRole('button', { name: 'Save server' }).click();
  const row = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Remove server slack' }) });
  await expect(row).toContainText('npx slack-mcp --token ••••');
  await expect(row).toContainText('The credential in it (shown as ••••) is kept encrypted and never shown again.');
  await expect(page.getByRole('main')).not.toContainText(TOKEN);
  await snapshot(page, 'settings-mcp-credential-masked');

  const state = JSON.stringify(await app.readState());
  expect(state).not.toContain(TOKEN);
  expect(state).toContain('"--token","••••"');
});
