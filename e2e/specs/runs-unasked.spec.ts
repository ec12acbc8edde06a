/**
 * What runs without asking, said and switched on the dashboard: the outbound tools that run
 * without asking are listed first with a one-click switch to Ask; a template's agent is switched between asking and
 * running unattended; a package's tool between asking first and running without asking; each through the core's
 * decision function and recorded; under a policy without `unattended`, running unattended is locked at the control
 * with the organization's reason.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axeCheck, expect, nextStep, test, windowShots, type AppDriver } from '../support/app';
import { packInvoicesWith } from '../support/packages';

const policyFile = join(mkdtempSync(join(tmpdir(), 'apollia-e2e-unasked-')), 'policy.json');
writeFileSync(policyFile, JSON.stringify({ version: 1 }));
test.use({ now: '2026-01-01T00:00:00Z', policyFile });

interface Stored {
  agents: Record<string, { approvals?: string; access?: { entry: string; permission: string }[] }>;
}
const stored = async (app: AppDriver) => (await app.readState()) as unknown as Stored;

/** Applies the built-in KYB template with its approvals chosen; the dashboard open. */
async function applyKyb(page: Page, unattended: boolean, atAccess?: () => Promise<void>) {
  await page.getByRole('button', { name: 'Use this template: Know your business (KYB)' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Apply template kyb' })).toBeVisible();
  await nextStep(page, 'Step 2 of 5: Fill in its parameters');
  await nextStep(page, 'Step 3 of 5: What it may use');
  if (unattended) await page.getByRole('radio', { name: /^Run unattended/ }).check();
  await atAccess?.();
  await nextStep(page, 'Step 4 of 5: What would start it');
  await nextStep(page, 'Step 5 of 5: Review and apply');
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
}

test('a template agent running unattended: its outbound tools listed first, one click makes it ask, and back', async ({
  page,
  app,
}) => {
  writeFileSync(policyFile, JSON.stringify({ version: 1 }));
  await applyKyb(page, true);
  const panel = page.getByRole('region', { name: 'Sends outside without asking' });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('listitem')).toHaveCount(2);
  await expect(panel).toContainText('web_search');
  await expect(panel).toContainText('web_fetch');
  await expect(panel).toContainText('It runs unattended: every tool it is given runs without asking.');
  await axeCheck(page, 'dashboard: outbound tools running without asking');
  await windowShots(page, panel, 'unasked-1-outbound-listed');

  await panel.getByRole('button', { name: 'Make KYB due diligence ask before each tool' }).first().click();
  await expect(panel).toBeHidden();
  const card = page.getByRole('article', { name: /KYB due diligence/ });
  await expect(card).toContainText('It asks you before a tool runs.');
  const [agentId] = Object.keys((await stored(app)).agents);
  expect((await stored(app)).agents[agentId as string]?.approvals).toBe('ask');

  // Back to unattended from the agent's own switch; then the list is there again.
  await card.getByRole('button', { name: 'Let KYB due diligence run unattended' }).click();
  await expect(card).toContainText('It runs unattended: the tools it is given run without asking.');
  await expect(card.getByRole('button', { name: 'Make KYB due diligence ask before each tool' })).toBeFocused();
  expect((await stored(app)).agents[agentId as string]?.approvals).toBe('never');
  await expect(panel).toBeVisible();
  await windowShots(page, card, 'unasked-2-approvals-switch');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity' }).click();
  await expect(page.getByRole('main')).toContainText('Changed how an agent asks');
  await expect(page.getByRole('main')).toContainText(
    'KYB due diligence now runs unattended: the tools it is given run without asking',
  );
});

test('under a policy without unattended, running unattended is locked at the control with the organization’s reason', async ({
  page,
  app,
}) => {
  writeFileSync(
    policyFile,
    JSON.stringify({ version: 1, organization: 'Example Corp', unattended: false, blockedTools: ['web_fetch'] }),
  );
  await applyKyb(page, false, async () => {
    // The organization's block is said as its lock, with its reason: never as the person's own list.
    const left = page
      .getByRole('list', { name: 'Tools left out' })
      .getByRole('listitem')
      .filter({ hasText: 'web_fetch' });
    await expect(left).toContainText('Locked by your organization');
    await expect(left).toContainText('your organization blocks this tool: the agent does not get it.');
    await expect(left).not.toContainText('Denied in your Settings');
    await axeCheck(page, 'a template tool the policy blocks');
  });
  const card = page.getByRole('article', { name: /KYB due diligence/ });
  const unattended = card.getByRole('button', { name: 'Let KYB due diligence run unattended' });
  await expect(unattended).toBeDisabled();
  await expect(card).toContainText(
    'Locked by your organization: your organization does not allow tools to run without asking.',
  );
  await expect(card).not.toContainText('Denied in your Settings');
  await axeCheck(page, 'approvals locked by the policy');
  await windowShots(page, card, 'unasked-3-unattended-locked');
  const [agentId] = Object.keys((await stored(app)).agents);
  expect((await stored(app)).agents[agentId as string]?.approvals).toBe('ask');
});

test('a package’s web_fetch: Run without asking on its row, then listed first, and Ask first puts it back', async ({
  page,
  app,
}) => {
  writeFileSync(policyFile, JSON.stringify({ version: 1 }));
  const pkg = packInvoicesWith(
    (toml) => toml.replace('access = ["file_read",', 'access = ["file_read", "web_fetch",'),
    'invoices-web.apo',
  );
  await app.open(pkg.path);
  await nextStep(page, 'Step 2 of 4: What it asks to use');
  await nextStep(page, 'Step 3 of 4: What would start it');
  await nextStep(page, 'Step 4 of 4: Review and install');
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  const permission = async () =>
    (await stored(app)).agents['invoices/invoice-clerk']?.access?.find((a) => a.entry === 'web_fetch')?.permission;
  // An outbound tool asks by default.
  expect(await permission()).toBe('ask');
  const panel = page.getByRole('region', { name: 'Sends outside without asking' });
  await expect(panel).toBeHidden();

  const unasked = page.getByRole('button', { name: 'Let it run without asking: web_fetch for Invoice clerk' });
  await unasked.click();
  await expect(panel).toBeVisible();
  await expect(page.getByRole('button', { name: 'Make it ask first: web_fetch for Invoice clerk' })).toBeFocused();
  expect(await permission()).toBe('allow');
  // A tool that reads personal data always asks: it is offered no such switch.
  await expect(page.getByRole('button', { name: /Let it run without asking: file_read/ })).toHaveCount(0);

  await panel.getByRole('button', { name: 'Make web_fetch ask first for Invoice clerk' }).click();
  await expect(panel).toBeHidden();
  expect(await permission()).toBe('ask');
});
