/**
 * The read-only plugin view (spec: aperium-plugin-manifest.md; DESIGN.md "What it is"): the
 * `crm` manifest opened through the Open dialog shows its owner, says plainly that the app shows
 * it and does not install it, each capability with its approval gate and role floor, each tool as
 * read or write and whether it is safe to repeat, its MCP exposure and the risk summary. A broken
 * manifest (a write tool under a capability that needs no approval) opened by double-click is
 * refused with a message naming the field.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { REPO_ROOT } from '../support/electron-binary';
import { expect, snapshot, test } from '../support/app';

const CRM = join(REPO_ROOT, 'test', 'fixtures', 'plugin', 'crm-plugin.json');

/** A list item's whole text, ignoring the space an icon leaves before it. */
const exactLine = (text: string) => new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

const capabilityCard = (page: Page, name: string): Locator =>
  page
    .getByRole('region', { name: 'Capabilities and their tools' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name: new RegExp(`^${name}`) }) });

test('the crm plugin, opened with the Open dialog, is shown and not installed', async ({ page, app }) => {
  await app.answerDialog('file', CRM);
  await page.getByRole('button', { name: 'Open a package…' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Plugin: Acme CRM' })).toBeVisible();
  const main = page.getByRole('main');

  const shownOnly = page.getByRole('region', { name: 'This app only shows plugins' });
  await expect(shownOnly).toContainText('It does not install this plugin, run any of its code');
  await expect(shownOnly).toContainText('Nothing changes on this computer.');
  await expect(main.getByRole('button', { name: /install|apply/i })).toHaveCount(0);

  const who = page.getByRole('region', { name: 'Who it is from' });
  await expect(who).toContainText('OwnerAcme Integrations Team');
  await expect(who).toContainText('Unverified');
  await expect(who).toContainText('Version2.4.1');

  const risks = page.getByRole('region', { name: 'What this plugin could do' });
  await expect(risks.getByRole('listitem')).toHaveText(
    [
      'Can change or create things: 2 write tools (create_deal, set_deal_stage).',
      'Running this tool twice does it twice (not idempotent): create_deal.',
      'Can also be run as an MCP server by an MCP client outside Aperium that starts it on this computer.',
      'Asks for approval before using 1 capability: deal_changes.',
      'Restricted to admins: deal_changes (only tenant admins and the platform operator).',
      'Needs credentials of the shape oauth2 with 3 scopes; the manifest holds no credential values.',
      'Can read data: 2 read tools (search_contacts, list_deals).',
      'Does not use a remote MCP server.',
    ].map(exactLine),
  );
  await snapshot(page, 'plugin-1-crm');

  const lookup = capabilityCard(page, 'crm_lookup');
  await expect(lookup.getByRole('heading', { level: 3 })).toContainText('No approval step');
  await expect(lookup).toContainText('Who may use it: Anyone');
  const changes = capabilityCard(page, 'deal_changes');
  await expect(changes.getByRole('heading', { level: 3 })).toContainText('Needs approval each time');
  await expect(changes).toContainText('TENANT_ADMIN');

  const tool = (card: Locator, name: string) =>
    card.getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) });
  await expect(tool(lookup, 'search_contacts')).toContainText('Reads only');
  await expect(tool(capabilityCard(page, 'deal_reporting'), 'list_deals')).toContainText('Reads only');
  await expect(tool(changes, 'create_deal')).toContainText('Writes');
  await expect(tool(changes, 'create_deal')).toContainText('Each run makes something new');
  await expect(tool(changes, 'set_deal_stage')).toContainText('Writes');
  await expect(tool(changes, 'set_deal_stage')).toContainText('Safe to repeat');

  const mcp = page.getByRole('region', { name: 'MCP' });
  await expect(mcp).toContainText(
    'It can expose its tools as an MCP server for a program on this computer that starts it (an MCP client outside Aperium).',
  );
  await expect(mcp).toContainText('It does not use a remote MCP server.');

  expect(await app.readState(), 'showing a plugin writes nothing to the store').toBeNull();
});

test('a write tool under a capability that needs no approval is refused, naming the field', async ({ page, app }) => {
  const manifest = JSON.parse(readFileSync(CRM, 'utf8')) as {
    capabilities: { name: string; approval_required: boolean }[];
  };
  for (const capability of manifest.capabilities)
    if (capability.name === 'deal_changes') capability.approval_required = false;
  const broken = join(mkdtempSync(join(tmpdir(), 'apollia-e2e-plugin-')), 'crm-unapproved.json');
  writeFileSync(broken, JSON.stringify(manifest, null, 2));

  await app.open(broken);
  await expect(page.getByRole('heading', { level: 1, name: 'This plugin manifest was refused' })).toBeVisible();
  const alert = page.getByRole('alert');
  const refusal = alert.locator('.refusal');
  await expect(refusal).toHaveText(
    'plugin manifest: tools[2].capability puts write tool create_deal under capability deal_changes, which is not approval_required; write tools must need approval',
  );
  await expect(refusal.locator('code')).toHaveText([
    'tools[2].capability',
    'create_deal',
    'deal_changes',
    'approval_required',
  ]);
  await expect(alert).toContainText('Error code: plugin.write_without_approval');
  await expect(page.getByRole('region', { name: 'Other problems' })).toContainText('tools[3].capability');
  await snapshot(page, 'plugin-2-refused');
});
