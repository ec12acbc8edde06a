/**
 * One evaluation for every door (DESIGN.md "Managed policy"), under a policy written AFTER the install: a package the
 * policy now refuses (its signature, its blocked families — a stdio MCP server is `execute_code`) is withheld whole.
 * Grant and arm are refused with its `policy.*` code, update and reinstall refused, its grants stay in the store, its
 * armed trigger stays armed but paused (no fire from the trigger host), and the dashboard row names each violation;
 * lifting the policy lets it fire again. A template's skipped MCP tool granted later honours `blockedTools`. Doors
 * opened before the policy was written (the consent form shown, an apply previewed) take the policy in force when the
 * person presses Install or Apply: the package refused with the policy's reason, a form's grant or arm of what it
 * blocks refused, a template refused or its tool not given.
 */
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { editedPackage, RECORD_FILES, tempDir, testApi, treeHash } from '../../../test/helpers/test-api';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { FakeClock, runRequests } from '../../../test/helpers/trigger-host';
import { sharedChecker } from '../bounded/index';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { TriggerHost } from '../triggers/trigger-host';
import type { CoreApi } from '../api';

beforeAll(() => sharedChecker().warm(), 120_000);
const hosts: TriggerHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
});

const REFUSING = { version: 1, requireSignature: 'trusted', blockedActionFamilies: ['execute_code'] };
const state = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));

async function installApo(api: CoreApi, dir: string, decisions: object) {
  const apo = join(tempDir('apollia-doors-apo-'), 'invoices.apo');
  writeFileSync(apo, packFolder(dir));
  const handle = await api.registerSource(apo, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const inspected = await api.inspect({ sourceId: handle.value.id });
  if (!inspected.ok) throw new Error(inspected.error.message);
  return api.install({ sourceId: handle.value.id, decisions: decisions as never });
}

/** Invoices installed with no policy, its cron armed and its tools granted as proposed; then the policy written. */
async function installedThenRefused() {
  const policyPath = join(tempDir('apollia-doors-policy-'), 'policy.json');
  writeFileSync(policyPath, JSON.stringify({ version: 1 }));
  const { api, dataDir } = testApi({ policy: { machine: null, env: policyPath } });
  const done = await installApo(api, INVOICES_DIR, { agents: {}, triggers: { 'first-monday': { armed: true } } });
  if (!done.ok) throw new Error(done.error.message);
  writeFileSync(policyPath, JSON.stringify(REFUSING));
  return { api, dataDir, policyPath };
}

describe('a package installed before a policy that now refuses it is withheld whole', () => {
  it('grant and arm are refused with the policy code; revoke and disarm still work; nothing else is written', async () => {
    const { api, dataDir } = await installedThenRefused();
    const before = state(dataDir);
    const grant = await api.setToolAccess({ agentId: 'invoices/invoice-clerk', tool: 'file_read', granted: true });
    expect(grant.ok === false && grant.error.code).toBe('policy.untrusted_signature');
    expect(grant.ok === false && grant.error.message).toContain('`file_read` was not allowed: invoices is not signed');
    expect(state(dataDir).agents).toEqual(before.agents);
    expect((await api.disarmTrigger({ triggerId: 'invoices/first-monday' })).ok).toBe(true);
    const arm = await api.armTrigger({ triggerId: 'invoices/first-monday' });
    expect(arm.ok === false && arm.error.code).toBe('policy.untrusted_signature');
    expect(state(dataDir).triggers['invoices/first-monday'].armed).toBe(false);
    const revoke = await api.setToolAccess({ agentId: 'invoices/invoice-clerk', tool: 'file_read', granted: false });
    expect(revoke.ok).toBe(true);
  });

  it('only the MCP server as program: blocked execute_code alone refuses grant and arm (policy.blocked_family)', async () => {
    const { api, policyPath } = await installedThenRefused();
    writeFileSync(policyPath, JSON.stringify({ version: 1, blockedActionFamilies: ['execute_code'] }));
    const grant = await api.setToolAccess({ agentId: 'invoices/invoice-clerk', tool: 'file_read', granted: true });
    expect(grant.ok === false && [grant.error.code, grant.error.message]).toEqual([
      'policy.blocked_family',
      expect.stringContaining('the MCP server `ledger`, which can run programs on this computer'),
    ]);
  });

  it('the dashboard names each violation on the row, shows every tool withheld and the trigger paused; the store keeps both', async () => {
    const { api, dataDir } = await installedThenRefused();
    const dashboard = await api.dashboard();
    if (!dashboard.ok) throw new Error(dashboard.error.message);
    const row = dashboard.value.packages.find((p) => p.name === 'invoices');
    expect(row?.policy?.map((p) => p.code)).toEqual(['policy.untrusted_signature', 'policy.blocked_family']);
    const agent = dashboard.value.agents.find((a) => a.id === 'invoices/invoice-clerk');
    expect(agent?.access.every((a) => a.permission === 'deny' && (a.policy ?? '').includes('withheld'))).toBe(true);
    const trigger = row?.triggers.find((t) => t.id === 'invoices/first-monday');
    expect([trigger?.armed, trigger?.policy]).toEqual([true, expect.stringContaining('paused by your organization')]);
    expect(dashboard.value.policy?.notice).toContain('withholds invoices whole');
    const stored = state(dataDir);
    expect(stored.triggers['invoices/first-monday'].armed).toBe(true);
    expect(stored.agents['invoices/invoice-clerk'].access.some((a: { granted: boolean }) => a.granted)).toBe(true);
  });

  it('update and reinstall are refused by the policy', async () => {
    const { api, dataDir } = await installedThenRefused();
    const newer = editedPackage(INVOICES_DIR, (toml) => toml.replace(/version = "1\.2\.0"/, 'version = "1.3.0"'));
    const update = await installApo(api, newer, { agents: {}, triggers: {} });
    expect(update.ok === false && update.error.code).toBe('policy.untrusted_signature');
    const [version] = readdirSync(join(dataDir, 'packages', 'invoices'));
    appendFileSync(join(dataDir, 'packages', 'invoices', version as string, 'apollia.toml'), '\n# changed\n');
    expect((await api.verifyInstalled()).ok).toBe(true);
    const reinstall = await installApo(api, INVOICES_DIR, { agents: {}, triggers: {} });
    expect(reinstall.ok === false && reinstall.error.code).toBe('policy.untrusted_signature');
  });

  it('the trigger host does not fire it while the policy refuses it, and fires again once the policy is lifted', async () => {
    const { dataDir, policyPath } = await installedThenRefused();
    // The first Monday of January 2027 at 08:00 UTC is due while the policy refuses the package.
    const clock = new FakeClock(Date.parse('2027-01-04T07:00:00Z'));
    const host = new TriggerHost({
      dataDir,
      secretBox: createFileKeySecretBox(dataDir),
      port: 0,
      watchStore: false,
      clock,
      policy: { machine: null, env: policyPath },
    });
    await host.start();
    hosts.push(host);
    clock.advanceTo('2027-01-04T10:00:00Z');
    await host.settled();
    expect(runRequests(dataDir)).toEqual([]);
    expect(state(dataDir).triggers['invoices/first-monday'].armed).toBe(true);
    writeFileSync(policyPath, JSON.stringify({ version: 1 }));
    // The host notices the change at its next timer wait, then the trigger is live again.
    await host.reload();
    clock.advance(60_000);
    await host.settled();
    expect(runRequests(dataDir).map((r) => r.trigger)).toContain('invoices/first-monday');
  });
});

describe("a template's skipped MCP tool granted later", () => {
  it('honours blockedTools: refused with policy.blocked_tool, nothing stored', async () => {
    const policyPath = join(tempDir('apollia-doors-policy-'), 'policy.json');
    writeFileSync(policyPath, JSON.stringify({ version: 1 }));
    const { api, dataDir } = testApi({ policy: { machine: null, env: policyPath } });
    const template = new URL('../../../resources/templates/market-monitor', import.meta.url).pathname;
    const handle = await api.registerSource(template, 'open-file');
    if (!handle.ok) throw new Error(handle.error.message);
    const request = {
      sourceId: handle.value.id,
      parameters: { companies: 'Acme', channel: 'C0123ABCD' },
      grants: ['mcp:gmail/GMAIL_SEND_EMAIL'],
    };
    expect((await api.previewApply(request)).ok).toBe(true);
    const applied = await api.apply({ ...request, requestId: 'doors' });
    if (!applied.ok) throw new Error(applied.error.message);
    await api.saveMcpServer({ name: 'gmail', transport: 'stdio', command: 'gmail-mcp' });
    writeFileSync(policyPath, JSON.stringify({ version: 1, blockedTools: ['mcp:gmail/*'] }));
    const before = readFileSync(join(dataDir, 'state.json'), 'utf8');
    const grant = await api.setToolAccess({
      agentId: applied.value.agentId,
      tool: 'mcp:gmail/GMAIL_SEND_EMAIL',
      granted: true,
    });
    expect(grant.ok === false && grant.error.code).toBe('policy.blocked_tool');
    expect(readFileSync(join(dataDir, 'state.json'), 'utf8')).toBe(before);
  });
});

/** The invoices package opened and inspected (the consent form shown) with no refusing policy yet. */
async function openedBeforePolicy() {
  const policyPath = join(tempDir('apollia-doors-policy-'), 'policy.json');
  writeFileSync(policyPath, JSON.stringify({ version: 1 }));
  const { api, dataDir } = testApi({ policy: { machine: null, env: policyPath } });
  const apo = join(tempDir('apollia-doors-apo-'), 'invoices.apo');
  writeFileSync(apo, packFolder(INVOICES_DIR));
  const handle = await api.registerSource(apo, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const inspected = await api.inspect({ sourceId: handle.value.id });
  if (!inspected.ok || !inspected.value.ok) throw new Error('not inspected');
  // The form opens on a package nothing refuses yet.
  expect(inspected.value.errors.filter((e) => e.code.startsWith('policy.'))).toEqual([]);
  return { api, dataDir, policyPath, sourceId: handle.value.id };
}

describe('doors opened before the policy was written', () => {
  it('install: a package the policy written after the form opened refuses is refused at Install with its reason, nothing written', async () => {
    const { api, dataDir, policyPath, sourceId } = await openedBeforePolicy();
    writeFileSync(policyPath, JSON.stringify(REFUSING));
    const before = treeHash(dataDir, RECORD_FILES);
    const install = await api.install({ sourceId, decisions: { agents: {}, triggers: {} } });
    expect(install.ok === false && [install.error.code, install.error.message]).toEqual([
      'policy.untrusted_signature',
      expect.stringContaining('your organization does not allow this'),
    ]);
    expect(treeHash(dataDir, RECORD_FILES)).toBe(before);
  });

  it('the form’s grant: a tool blocked by a policy written after the form opened is refused (policy.blocked_tool), nothing written', async () => {
    const { api, dataDir, policyPath, sourceId } = await openedBeforePolicy();
    writeFileSync(policyPath, JSON.stringify({ version: 1, blockedTools: ['mcp:ledger/*'] }));
    const before = treeHash(dataDir, RECORD_FILES);
    const install = await api.install({
      sourceId,
      decisions: { agents: { 'invoice-clerk': { access: { 'mcp:ledger/lookup': true } } }, triggers: {} },
    });
    expect(install.ok === false && install.error.code).toBe('policy.blocked_tool');
    expect(treeHash(dataDir, RECORD_FILES)).toBe(before);
  });

  it('the form’s arm: a trigger kind a policy written after the form opened does not allow is refused (policy.trigger_kind)', async () => {
    const { api, dataDir, policyPath, sourceId } = await openedBeforePolicy();
    writeFileSync(policyPath, JSON.stringify({ version: 1, triggers: { schedule: false } }));
    const before = treeHash(dataDir, RECORD_FILES);
    const install = await api.install({
      sourceId,
      decisions: { agents: {}, triggers: { 'first-monday': { armed: true } } },
    });
    expect(install.ok === false && install.error.code).toBe('policy.trigger_kind');
    expect(treeHash(dataDir, RECORD_FILES)).toBe(before);
  });

  it('apply: a template previewed before `templates: "none"` was written is refused at apply, nothing written', async () => {
    const policyPath = join(tempDir('apollia-doors-policy-'), 'policy.json');
    writeFileSync(policyPath, JSON.stringify({ version: 1 }));
    const { api, dataDir } = testApi({ policy: { machine: null, env: policyPath } });
    const template = new URL('../../../resources/templates/market-monitor', import.meta.url).pathname;
    const handle = await api.registerSource(template, 'open-file');
    if (!handle.ok) throw new Error(handle.error.message);
    const request = { sourceId: handle.value.id, parameters: { companies: 'Acme', channel: 'C0123ABCD' }, grants: [] };
    expect((await api.previewApply(request)).ok).toBe(true);
    writeFileSync(policyPath, JSON.stringify({ version: 1, templates: 'none' }));
    const before = treeHash(dataDir, RECORD_FILES);
    const applied = await api.apply({ ...request, requestId: 'after-policy' });
    expect(applied.ok === false && applied.error.code).toBe('policy.templates');
    expect(treeHash(dataDir, RECORD_FILES)).toBe(before);
  });

  it('apply: a tool granted at preview that a policy written afterwards blocks is not given', async () => {
    const policyPath = join(tempDir('apollia-doors-policy-'), 'policy.json');
    writeFileSync(policyPath, JSON.stringify({ version: 1 }));
    const { api, dataDir } = testApi({ policy: { machine: null, env: policyPath } });
    expect((await api.saveMcpServer({ name: 'gmail', transport: 'stdio', command: 'gmail-mcp' })).ok).toBe(true);
    const template = new URL('../../../resources/templates/market-monitor', import.meta.url).pathname;
    const handle = await api.registerSource(template, 'open-file');
    if (!handle.ok) throw new Error(handle.error.message);
    const request = {
      sourceId: handle.value.id,
      parameters: { companies: 'Acme', channel: 'C0123ABCD' },
      grants: ['mcp:gmail/GMAIL_SEND_EMAIL'],
    };
    const preview = await api.previewApply(request);
    const tools = preview.ok ? preview.value.mcp.flatMap((m) => m.tools) : [];
    expect(tools.find((t) => t.gateName === 'mcp:gmail/GMAIL_SEND_EMAIL')?.setting).not.toBe('deny');
    writeFileSync(policyPath, JSON.stringify({ version: 1, blockedTools: ['mcp:gmail/*'] }));
    const applied = await api.apply({ ...request, requestId: 'after-policy' });
    if (!applied.ok) throw new Error(applied.error.message);
    const agent = state(dataDir).agents[applied.value.agentId];
    expect(agent.toolSettings['mcp:gmail/GMAIL_SEND_EMAIL']?.setting).toBe('deny');
  });
});
