import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFolder } from '../../test/helpers/pack';
import type { CoreApiImplementation } from './api';
import { BUILTIN_TEMPLATES } from './template/builtin';
import { editedPackage, tempDir, testApi, treeHash } from './store/test-support';

const WATCHER_DIR = new URL('../../test/fixtures/apo/watcher', import.meta.url).pathname;
const MARKET_MONITOR = new URL('../../resources/templates/market-monitor', import.meta.url).pathname;

function apoFile(dir: string): string {
  const path = join(tempDir('apollia-apo-'), 'package.apo');
  writeFileSync(path, packFolder(dir));
  return path;
}

async function open(api: CoreApiImplementation, path: string): Promise<string> {
  const handle = await api.registerSource(path, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  return handle.value.id;
}

function state(dataDir: string) {
  return JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
}

async function installInvoices(api: CoreApiImplementation, path = apoFile(INVOICES_DIR)) {
  const sourceId = await open(api, path);
  return api.install({
    sourceId,
    decisions: {
      agents: { 'invoice-clerk': { access: { file_read: true, 'mcp:ledger/lookup': false, 'pkg:invoices/extract_totals': true } } },
      triggers: { 'first-monday': { armed: true } },
    },
  });
}

describe('install', () => {
  it('records exactly the decisions made: an unticked entry is not granted, only the armed trigger is armed', async () => {
    const { api, dataDir } = testApi();
    const receipt = await installInvoices(api);
    expect(receipt).toEqual({
      ok: true,
      value: { name: 'invoices', version: '1.2.0', publisher: 'Example Accounting', outcome: 'installed', previousVersion: null, installedAt: '2026-12-01T10:00:00.000Z', armed: ['invoices/first-monday'], webhookSecrets: [] },
    });
    const s = state(dataDir);
    expect(s.agents['invoices/invoice-clerk'].access).toEqual([
      { entry: 'file_read', family: 'read_personal', granted: true },
      { entry: 'mcp:ledger/lookup', family: null, granted: false },
      { entry: 'pkg:invoices/extract_totals', family: 'read_personal', granted: true },
    ]);
    expect(s.triggers['invoices/first-monday']).toMatchObject({ armed: true, type: 'cron', schedule: '0 8 1-7 * MON', dayRule: 'and', folder: null, secretRef: null });
    expect(existsSync(join(dataDir, 'packages/invoices/1.2.0/apollia.toml'))).toBe(true);
    expect(existsSync(join(dataDir, 'staging'))).toBe(false);

    const dashboard = await api.dashboard();
    if (!dashboard.ok) throw new Error(dashboard.error.message);
    expect(dashboard.value.packages.map((p) => [p.name, p.version, p.publisher])).toEqual([['invoices', '1.2.0', 'Example Accounting']]);
    const clerk = dashboard.value.agents[0];
    expect(clerk?.access.map((a) => [a.tool, a.permission])).toEqual([['file_read', 'ask'], ['mcp:ledger/lookup', 'deny'], ['pkg:invoices/extract_totals', 'ask']]);
    const workflowTriggers = dashboard.value.packages[0]?.triggers;
    expect(workflowTriggers?.[0]?.words).toBe('08:00 on the first Monday of each month (UTC)');
    // 2026-12-01 is a Tuesday: the next first Mondays are 7 Dec, 4 Jan, 1 Feb (the AND rule, not every Monday).
    expect(workflowTriggers?.[0]?.next).toEqual(['2026-12-07T08:00:00.000Z', '2027-01-04T08:00:00.000Z', '2027-02-01T08:00:00.000Z']);
  });

  it('refuses the same name and version again, and leaves the store as it was', async () => {
    const { api, dataDir } = testApi();
    await installInvoices(api);
    const before = treeHash(dataDir);
    const again = await installInvoices(api);
    expect(again).toEqual({ ok: false, error: { code: 'install.already_installed', message: 'invoices 1.2.0 is already installed' } });
    expect(treeHash(dataDir)).toBe(before);
  });

  it('an update keeps a revoked tool revoked and an armed trigger armed; new access is proposed, not granted', async () => {
    const { api, dataDir } = testApi();
    await installInvoices(api);
    const newer = editedPackage(INVOICES_DIR, (toml) =>
      toml.replace('version = "1.2.0"', 'version = "1.3.0"').replace('access = ["file_read", "mcp:ledger/lookup", "pkg:invoices/extract_totals"]', 'access = ["file_read", "mcp:ledger/lookup", "pkg:invoices/extract_totals", "web_search"]'),
    );
    const sourceId = await open(api, apoFile(newer));
    const inspected = await api.inspect({ sourceId });
    if (!inspected.ok) throw new Error(inspected.error.message);
    expect(inspected.value.installed).toEqual({ version: '1.2.0', relation: 'newer' });
    expect(inspected.value.updateDiff?.changes).toEqual(['Agent `invoice-clerk` asks for `web_search`']);
    expect(inspected.value.updateDiff?.proposedAccess).toEqual({ 'invoice-clerk': ['web_search'] });
    const updated = await api.install({ sourceId, decisions: { agents: {}, triggers: {} } });
    expect(updated.ok && updated.value.outcome).toBe('updated');
    expect(updated.ok && updated.value.armed).toEqual(['invoices/first-monday']);
    const s = state(dataDir);
    expect(s.agents['invoices/invoice-clerk'].access.map((a: { entry: string; granted: boolean }) => [a.entry, a.granted])).toEqual([
      ['file_read', true], ['mcp:ledger/lookup', false], ['pkg:invoices/extract_totals', true], ['web_search', false],
    ]);
    expect(readdirSync(join(dataDir, 'packages/invoices'))).toEqual(['1.3.0']);
  });

  it('refuses an older version unless allowDowngrade is true', async () => {
    const { api } = testApi();
    const newer = editedPackage(INVOICES_DIR, (toml) => toml.replace('version = "1.2.0"', 'version = "2.0.0"'));
    await installInvoices(api, apoFile(newer));
    const sourceId = await open(api, apoFile(INVOICES_DIR));
    const refused = await api.install({ sourceId, decisions: { agents: {}, triggers: {} } });
    expect(refused).toEqual({ ok: false, error: { code: 'install.downgrade', message: 'invoices 2.0.0 is installed; installing the older 1.2.0 needs your confirmation (allowDowngrade)' } });
    const allowed = await api.install({ sourceId, decisions: { agents: {}, triggers: {} }, allowDowngrade: true });
    expect(allowed.ok && [allowed.value.outcome, allowed.value.previousVersion]).toEqual(['downgraded', '2.0.0']);
  });

  it('a file_watch trigger needs a picked folder; a webhook secret is shown once and stored sealed', async () => {
    const watched = tempDir('apollia-watched-');
    const { api, dataDir } = testApi({ folders: [watched] });
    const sourceId = await open(api, apoFile(WATCHER_DIR));
    const noFolder = await api.install({ sourceId, decisions: { agents: {}, triggers: { 'on-change': { armed: true } } } });
    expect(noFolder.ok === false && noFolder.error.code).toBe('trigger.needs_folder');
    const pick = await api.pickWatchFolder();
    if (!pick.ok || !pick.value) throw new Error('no folder');
    const done = await api.install({ sourceId, decisions: { agents: {}, triggers: { 'on-change': { armed: true, folderId: pick.value.folderId }, 'on-call': { armed: true } } } });
    if (!done.ok) throw new Error(done.error.message);
    const secret = done.value.webhookSecrets[0]?.secret ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const s = state(dataDir);
    expect(s.triggers['watcher/on-change']).toMatchObject({ armed: true, folder: watched });
    expect(readFileSync(join(dataDir, 'state.json'), 'utf8')).not.toContain(secret.slice(6));
    const dashboard = await api.dashboard();
    const views = dashboard.ok ? dashboard.value.agents[0]?.triggers : [];
    expect(views?.find((t) => t.name === 'on-call')).toMatchObject({ armed: true, webhookSecretSet: true });
    expect(JSON.stringify(dashboard)).not.toContain(secret.slice(6));
  });

  it('uninstall leaves no file and no record of the package', async () => {
    const { api, dataDir } = testApi();
    await installInvoices(api);
    const removed = await api.uninstallPackage({ name: 'invoices' });
    expect(removed).toEqual({ ok: true, value: { name: 'invoices', version: '1.2.0', removedAgents: ['invoices/invoice-clerk'], removedTriggers: ['invoices/first-monday'] } });
    expect(readdirSync(dataDir).sort()).toEqual(['state.json']);
    const s = state(dataDir);
    expect([s.packages, s.agents, s.triggers, s.webhookSecrets]).toEqual([{}, {}, {}, {}]);
  });
});

describe('durability', () => {
  it('a fault between write and rename leaves the old state intact, and the install leaves nothing behind', async () => {
    const dataDir = tempDir();
    const { api: first } = testApi({ dataDir });
    await first.saveMcpServer({ name: 'ledger', transport: 'stdio', command: 'uvx', args: ['ledger-mcp'] });
    const before = treeHash(dataDir);
    const { api } = testApi({ dataDir, faults: { beforeRename: () => { throw new Error('power cut'); } } });
    const result = await installInvoices(api);
    expect(result).toEqual({ ok: false, error: { code: 'internal', message: 'Something went wrong (install): power cut' } });
    expect(treeHash(dataDir)).toBe(before);
  });

  it('a torn state file is kept aside and reported on the dashboard, never silently reset', async () => {
    const { api, dataDir } = testApi();
    await installInvoices(api);
    const text = readFileSync(join(dataDir, 'state.json'), 'utf8');
    writeFileSync(join(dataDir, 'state.json'), text.slice(0, text.length / 2));
    const dashboard = await api.dashboard();
    if (!dashboard.ok) throw new Error(dashboard.error.message);
    const keptAs = 'state.json.damaged-2026-12-01T10-00-00-000Z';
    expect(dashboard.value.damage).toEqual([{ keptAs, reason: expect.stringMatching(/^state\.json is not valid JSON \(.+\); it may have been cut short$/), at: '2026-12-01T10:00:00.000Z' }]);
    expect(readFileSync(join(dataDir, keptAs), 'utf8')).toBe(text.slice(0, text.length / 2));
  });

  it('a state file that fails validation is kept aside and reported', async () => {
    const { api, dataDir } = testApi();
    await api.saveMcpServer({ name: 'ledger', transport: 'stdio', command: 'uvx' });
    const s = state(dataDir);
    s.packages.evil = { name: 'evil' };
    writeFileSync(join(dataDir, 'state.json'), JSON.stringify(s));
    const settings = await api.dashboard();
    expect(settings.ok && settings.value.damage[0]?.reason).toBe("state.json does not match the store format: `/packages/evil` must have required property 'version'");
  });

  it('two writers at once (two Api instances on one folder) lose no update', async () => {
    const dataDir = tempDir();
    const a = testApi({ dataDir }).api;
    const b = testApi({ dataDir }).api;
    const names = Array.from({ length: 12 }, (_, i) => `server-${i}`);
    const results = await Promise.all(names.map((name, i) => (i % 2 ? a : b).saveMcpServer({ name, transport: 'stdio', command: 'x' })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(Object.keys(state(dataDir).settings.mcpServers).sort()).toEqual([...names].sort());
  });
});

describe('built-in templates', () => {
  it('lists the spec table as cards and opens each by name, never by path', async () => {
    const { api } = testApi();
    const listed = await api.listBuiltinTemplates();
    if (!listed.ok) throw new Error(listed.error.message);
    expect(listed.value).toEqual(BUILTIN_TEMPLATES);
    const opened = await api.openBuiltinTemplate({ name: 'kyb' });
    expect(opened.ok && [opened.value.kind, opened.value.displayName, opened.value.origin]).toEqual(['template', 'kyb', 'builtin']);
    expect(await api.openBuiltinTemplate({ name: '../templates/kyb' })).toEqual({ ok: false, error: { code: 'template.unknown', message: 'No built-in template is called `../templates/kyb`.' } });
  });
});

describe('apply', () => {
  const parameters = { companies: 'Acme', channel: 'C0123ABCD' };

  it('records exactly what the preview showed, with the agent files', async () => {
    const { api, dataDir } = testApi();
    await api.saveMcpServer({ name: 'slack', transport: 'stdio', command: 'slack-mcp' });
    const sourceId = await open(api, MARKET_MONITOR);
    const preview = await api.previewApply({ sourceId, parameters, grants: ['mcp:slack/slack_send_message'] });
    if (!preview.ok) throw new Error(preview.error.message);
    const applied = await api.apply({ sourceId, parameters, grants: ['mcp:slack/slack_send_message'], requestId: 'r1' });
    if (!applied.ok) throw new Error(applied.error.message);
    expect(applied.value.preview).toEqual(preview.value);
    const agent = state(dataDir).agents[applied.value.agentId];
    expect(agent.preview).toEqual(preview.value);
    expect(agent.displayName).toBe('Market monitor: Acme');
    expect(agent.toolSettings['mcp:slack/slack_send_message']).toEqual({ family: null, setting: 'allow', pin: { channel_id: 'C0123ABCD' }, pinMissing: false });
    expect(readFileSync(join(dataDir, agent.dir, 'instructions.md'), 'utf8')).toBe(preview.value.instructions);
    const trigger = state(dataDir).triggers[`${applied.value.agentId}/weekly`];
    expect(trigger).toMatchObject({ type: 'schedule', schedule: '0 8 * * 1', timezone: 'UTC', dayRule: 'or', armed: true });
  });

  it('a second apply with the same requestId answers the first and makes one agent', async () => {
    const { api, dataDir } = testApi();
    const sourceId = await open(api, MARKET_MONITOR);
    const [one, two] = await Promise.all([
      api.apply({ sourceId, parameters, grants: [], requestId: 'same' }),
      api.apply({ sourceId, parameters, grants: [], requestId: 'same' }),
    ]);
    expect(one).toEqual(two);
    expect(Object.keys(state(dataDir).agents)).toHaveLength(1);
    expect(readdirSync(join(dataDir, 'agents'))).toHaveLength(1);
  });

  it('a failing trigger step makes nothing: no agent, no files', async () => {
    const dataDir = tempDir();
    await testApi({ dataDir }).api.saveMcpServer({ name: 'slack', transport: 'stdio', command: 'slack-mcp' });
    const before = treeHash(dataDir);
    const { api } = testApi({ dataDir, faults: { applyTrigger: () => { throw new Error('trigger store failed'); } } });
    const sourceId = await open(api, MARKET_MONITOR);
    const result = await api.apply({ sourceId, parameters, grants: [], requestId: 'r2' });
    expect(result.ok).toBe(false);
    expect(treeHash(dataDir)).toBe(before);
  });

  it('a blocked apply (bad cron parameter) names the field and makes nothing', async () => {
    const { api, dataDir } = testApi();
    const sourceId = await open(api, MARKET_MONITOR);
    const result = await api.apply({ sourceId, parameters: { ...parameters, cron: '61 8 * * 1' }, grants: [], requestId: 'r3' });
    expect(result.ok === false && [result.error.code, result.error.path]).toEqual(['apply.blocked', 'triggers.0']);
    expect(existsSync(join(dataDir, 'state.json'))).toBe(false);
  });
});
