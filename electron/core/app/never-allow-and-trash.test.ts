/**
 * Through the Api: the owner's "never allow" list holds for `.apo` installs,
 * a template's triggers are armed only when ticked, a refused file that may be malicious can be
 * moved to the Trash (and no other), the same file opened twice is one source, and Settings offers
 * the tools the app knows for the "never allow" picker.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildTar, folderEntries, INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import type { CoreApi } from '../api';
import { RECORD_FILES, tempDir, testApi, treeHash } from '../../../test/helpers/test-api';

const MARKET_MONITOR = new URL('../../../resources/templates/market-monitor', import.meta.url).pathname;
const INBOUND_LEAD = new URL('../../../resources/templates/inbound-lead', import.meta.url).pathname;
const GRANTS = { file_read: true, 'mcp:ledger/lookup': true, 'pkg:invoices/extract_totals': true };

function apoFile(bytes: Buffer, name = 'package.apo'): string {
  const path = join(tempDir('apollia-apo-'), name);
  writeFileSync(path, bytes);
  return path;
}

async function open(api: CoreApi, path: string): Promise<string> {
  const handle = await api.registerSource(path, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const inspected = await api.inspect({ sourceId: handle.value.id });
  if (!inspected.ok) throw new Error(inspected.error.message);
  return handle.value.id;
}

function state(dataDir: string) {
  return JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
}

describe('the owner never-allow list on .apo installs', () => {
  it('refuses a grant of a denied tool with install.denied_tool, writing nothing', async () => {
    const { api, dataDir } = testApi();
    expect((await api.denyTool({ tool: 'mcp:ledger/lookup' })).ok).toBe(true);
    const sourceId = await open(api, apoFile(packFolder(INVOICES_DIR)));
    // The refusal itself goes to the activity log; nothing else is written.
    const before = treeHash(dataDir, RECORD_FILES);
    const refused = await api.install({
      sourceId,
      decisions: { agents: { 'invoice-clerk': { access: GRANTS } }, triggers: {} },
    });
    expect(refused).toEqual({
      ok: false,
      error: {
        code: 'install.denied_tool',
        message:
          'agent `invoice-clerk` of invoices cannot be granted `mcp:ledger/lookup`: it is on your list of tools you never allow (Settings)',
        path: 'decisions.agents.invoice-clerk.access.mcp:ledger/lookup',
      },
    });
    expect(treeHash(dataDir, RECORD_FILES)).toBe(before);
  });

  it('installs with the denied tool left unticked, and records it denied', async () => {
    const { api, dataDir } = testApi();
    await api.denyTool({ tool: 'file_read' });
    const sourceId = await open(api, apoFile(packFolder(INVOICES_DIR)));
    const installed = await api.install({
      sourceId,
      decisions: { agents: { 'invoice-clerk': { access: { ...GRANTS, file_read: false } } }, triggers: {} },
    });
    expect(installed.ok).toBe(true);
    expect(state(dataDir).agents['invoices/invoice-clerk'].access[0]).toEqual({
      entry: 'file_read',
      family: 'read_personal',
      granted: false,
      permission: 'deny',
    });
  });

  it('accepts every native .apo tool of the catalogue as a denial (mail_send is not a template tool)', async () => {
    const { api } = testApi();
    const denied = await api.denyTool({ tool: 'mail_send' });
    expect(denied.ok && denied.value.deniedTools).toEqual(['mail_send']);
  });
});

describe('the dashboard says what each tool does first', () => {
  it("words a package agent's entries from its manifest and the catalogue, the name kept beside", async () => {
    const { api } = testApi();
    const sourceId = await open(api, apoFile(packFolder(INVOICES_DIR)));
    expect(
      (await api.install({ sourceId, decisions: { agents: { 'invoice-clerk': { access: GRANTS } }, triggers: {} } }))
        .ok,
    ).toBe(true);
    const dashboard = await api.dashboard();
    const access = dashboard.ok ? dashboard.value.agents[0]?.access : [];
    expect(access?.map((a) => [a.tool, a.what])).toEqual([
      ['file_read', 'Read files the user opens to the agent'],
      ['mcp:ledger/lookup', 'Use “lookup”, a tool of the program ledger (what it does is known only when it runs)'],
      ['pkg:invoices/extract_totals', 'Extract the total, the due date and the supplier of an invoice.'],
    ]);
  });
});

describe('a template trigger is armed only when ticked', () => {
  const parameters = { companies: 'Acme', channel: 'C0123ABCD' };

  async function applyMarketMonitor(arm?: string[]) {
    const made = testApi();
    const sourceId = await open(made.api, MARKET_MONITOR);
    expect((await made.api.previewApply({ sourceId, parameters, grants: [] })).ok).toBe(true);
    const applied = await made.api.apply({
      sourceId,
      parameters,
      grants: [],
      requestId: 'r1',
      ...(arm ? { arm } : {}),
    });
    return { ...made, applied };
  }

  it('makes the weekly schedule unarmed when nothing is ticked', async () => {
    const { applied, dataDir } = await applyMarketMonitor();
    if (!applied.ok) throw new Error(applied.error.message);
    const [triggerId] = applied.value.triggers;
    expect(state(dataDir).triggers[triggerId as string]).toMatchObject({ name: 'weekly', armed: false, armedAt: null });
  });

  it('arms the schedule the person ticked', async () => {
    const { applied, dataDir } = await applyMarketMonitor(['weekly']);
    if (!applied.ok) throw new Error(applied.error.message);
    expect(state(dataDir).triggers[applied.value.triggers[0] as string]).toMatchObject({
      armed: true,
      armedAt: '2026-12-01T10:00:00.000Z',
    });
  });

  it('refuses to arm a trigger the template does not have, making nothing', async () => {
    const made = testApi();
    const sourceId = await open(made.api, MARKET_MONITOR);
    await made.api.previewApply({ sourceId, parameters, grants: [] });
    const before = treeHash(made.dataDir);
    const refused = await made.api.apply({ sourceId, parameters, grants: [], requestId: 'r1', arm: ['hourly'] });
    expect(refused.ok ? null : refused.error).toEqual({
      code: 'apply.unknown_trigger',
      message: 'Market monitor: Acme has no trigger `hourly` to arm',
      path: 'arm',
    });
    expect(treeHash(made.dataDir)).toBe(before);
  });

  it('refuses to arm a webhook at apply: its secret is made by armTrigger', async () => {
    const made = testApi();
    const sourceId = await open(made.api, INBOUND_LEAD);
    const leadParameters = { icp: 'B2B SaaS', slack_channel: 'C0123ABCD' };
    const previewed = await made.api.previewApply({ sourceId, parameters: leadParameters, grants: [] });
    if (!previewed.ok) throw new Error(previewed.error.message);
    const webhook = previewed.value.triggers.find((t) => t.type === 'webhook');
    const refused = await made.api.apply({
      sourceId,
      parameters: leadParameters,
      grants: [],
      requestId: 'r1',
      arm: [webhook?.name ?? ''],
    });
    expect(refused.ok ? null : refused.error.code).toBe('apply.webhook_not_armed_here');
  });
});

describe('trashSource', () => {
  const symlinked = () =>
    gzipSync(buildTar([...folderEntries(INVOICES_DIR), { name: 'link', type: 'symlink', linkname: '/etc/passwd' }]));

  it('moves the original file of a package refused as possibly malicious to the Trash', async () => {
    const trashed: string[] = [];
    const { api } = testApi({ trash: async (path) => void trashed.push(path) });
    const path = apoFile(symlinked(), 'linked.apo');
    const sourceId = await open(api, path);
    expect(await api.trashSource({ sourceId })).toEqual({ ok: true, value: { displayName: 'linked.apo' } });
    expect(trashed).toEqual([path]);
  });

  it('refuses a package that was not refused as malicious, leaving it where it is', async () => {
    const trashed: string[] = [];
    const { api } = testApi({ trash: async (path) => void trashed.push(path) });
    const path = apoFile(packFolder(INVOICES_DIR));
    const sourceId = await open(api, path);
    const refused = await api.trashSource({ sourceId });
    expect(refused.ok ? null : refused.error).toEqual({
      code: 'trash.not_refused',
      message: 'package.apo was not refused as possibly harmful: only such a file is moved to the Trash from here.',
    });
    expect(trashed).toEqual([]);
    expect(existsSync(path)).toBe(true);
  });

  it('answers trash.unavailable when the host cannot trash (the CLI)', async () => {
    const { api } = testApi();
    const sourceId = await open(api, apoFile(symlinked(), 'linked.apo'));
    const refused = await api.trashSource({ sourceId });
    expect(refused.ok ? null : refused.error.code).toBe('trash.unavailable');
  });
});

describe('a package folder opened as a template', () => {
  it('is refused as an unbuilt .apo, with the pack command', async () => {
    const { api } = testApi();
    const handle = await api.registerSource(INVOICES_DIR, 'dialog');
    if (!handle.ok) throw new Error(handle.error.message);
    const inspected = await api.inspect({ sourceId: handle.value.id });
    expect(inspected.ok && inspected.value.errors).toEqual([
      {
        code: 'template.unbuilt_apo',
        path: 'apollia.toml',
        message:
          'invoices is not a template: it is the folder of an .apo package, not yet packed (it holds apollia.toml, not agent.md). Pack it with `apollia-desktop pack invoices`, then open the .apo file it writes.',
      },
    ]);
  });
});

describe('opening the same file twice', () => {
  it('answers the same source handle', async () => {
    const { api } = testApi();
    const path = apoFile(packFolder(INVOICES_DIR));
    const first = await api.registerSource(path, 'dialog');
    const second = await api.registerSource(path, 'drop');
    expect(first.ok && second.ok && first.value.id === second.value.id).toBe(true);
  });
});

describe('settings.knownTools', () => {
  it('lists the native tools and the built-in templates MCP tools, without the denied ones', async () => {
    const { api } = testApi();
    const settings = await api.denyTool({ tool: 'shell' });
    if (!settings.ok) throw new Error(settings.error.message);
    const names = settings.value.knownTools.map((t) => t.tool);
    expect(names).toContain('mail_send');
    expect(names).toContain('web_fetch');
    expect(names).toContain('mcp:slack/slack_send_message');
    expect(names).toContain('mcp:github/submit_pending_pull_request_review');
    expect(names).not.toContain('shell');
    expect(names).toEqual([...names].sort());
    expect(settings.value.knownTools.find((t) => t.tool === 'mcp:gmail/GMAIL_SEND_EMAIL')).toEqual({
      tool: 'mcp:gmail/GMAIL_SEND_EMAIL',
      description: 'Used by the built-in template Market monitor',
      kind: 'mcp',
    });
  });
});
