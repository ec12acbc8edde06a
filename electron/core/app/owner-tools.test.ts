/**
 * The owner's own tool settings (Settings → Tools you never allow) through the Api: template spec
 * "Apply" step 2, "never one the owner denies on this server (it stays denied, with a
 * `grants.<tool>` warning)". Denied tools are kept in the store, shown by `settings`, and read by
 * every preview and apply; taking one off the list gives the tool its default setting again.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApplyPreview, PreviewMcpTool } from '../../../shared/decisions/apply-preview';
import { MAX_DENIED_TOOLS } from '../../../shared/manifests/owner-tools';
import type { CoreApi } from '../api';
import { STATE_VERSION } from '../store/state';
import { testApi, treeHash } from '../../../test/helpers/test-api';

const MARKET_MONITOR = new URL('../../../resources/templates/market-monitor', import.meta.url).pathname;
const SEND = 'mcp:slack/slack_send_message';
const PARAMETERS = { companies: 'Acme', channel: 'C0123ABCD' };
const GRANT_WARNING = {
  code: `grants.${SEND}`,
  message:
    'You allowed `slack_send_message`, but `mcp:slack/slack_send_message` is on your list of tools you never allow (Settings → Tools you never allow): it stays denied',
};

function state(dataDir: string) {
  return JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
}

async function openMarketMonitor(api: CoreApi): Promise<string> {
  const handle = await api.registerSource(MARKET_MONITOR, 'dialog');
  if (!handle.ok) throw new Error(handle.error.message);
  return handle.value.id;
}

async function preview(api: CoreApi, sourceId: string, grants: string[]): Promise<ApplyPreview> {
  const result = await api.previewApply({ sourceId, parameters: PARAMETERS, grants });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function sendTool(previewed: ApplyPreview): PreviewMcpTool | undefined {
  return previewed.mcp.find((m) => m.server === 'slack')?.tools.find((t) => t.name === 'slack_send_message');
}

async function withSlack() {
  const made = testApi();
  const saved = await made.api.saveMcpServer({ name: 'slack', transport: 'stdio', command: 'slack-mcp' });
  if (!saved.ok) throw new Error(saved.error.message);
  return made;
}

describe('the list of tools the owner never allows', () => {
  it('is empty at first, and settings shows it sorted with each tool once', async () => {
    const { api, dataDir } = testApi();
    const first = await api.settings();
    expect(first.ok && first.value.deniedTools).toEqual([]);
    expect((await api.denyTool({ tool: SEND })).ok).toBe(true);
    const second = await api.denyTool({ tool: 'shell' });
    expect(second.ok && second.value.deniedTools).toEqual([SEND, 'shell']);
    expect(state(dataDir).settings.deniedTools).toEqual([SEND, 'shell']);
    expect(state(dataDir).version).toBe(STATE_VERSION);

    // Denying it again changes nothing, and writes nothing.
    const before = treeHash(dataDir);
    const again = await api.denyTool({ tool: 'shell' });
    expect(again.ok && again.value.deniedTools).toEqual([SEND, 'shell']);
    expect(treeHash(dataDir)).toBe(before);
    const shown = await api.settings();
    expect(shown.ok && shown.value.deniedTools).toEqual([SEND, 'shell']);
  });

  it('refuses a name that is neither a gate name nor a built-in tool, saying how to write one, and writes nothing', async () => {
    const { api, dataDir } = testApi();
    expect(await api.denyTool({ tool: 'mcp:slack' })).toEqual({
      ok: false,
      error: {
        code: 'tool.invalid',
        path: 'tool',
        message:
          "`mcp:slack` is not an MCP tool's gate name: write it as mcp:<server>/<tool>, like mcp:slack/slack_send_message (a server name in lower-case letters, digits, _ and -; a tool name in letters, digits, _, - and .)",
      },
    });
    expect(await api.denyTool({ tool: 'slack_send_message' })).toEqual({
      ok: false,
      error: {
        code: 'tool.invalid',
        path: 'tool',
        message:
          '`slack_send_message` is not a tool name: write an MCP tool as mcp:<server>/<tool> (like mcp:slack/slack_send_message), or a built-in tool by its name (ask_person, calendar_read, edit, file_delete, file_list, file_read, file_write, grep, ls, mail_read, mail_send, notify, python, read, shell, web_fetch, web_search, write)',
      },
    });
    expect((await api.denyTool({ tool: 'mcp:slack/*' })).ok).toBe(false);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('taking off a tool that is not on it is refused with tool.not_denied', async () => {
    const { api } = testApi();
    expect(await api.removeDeniedTool({ tool: SEND })).toEqual({
      ok: false,
      error: {
        code: 'tool.not_denied',
        message: '`mcp:slack/slack_send_message` is not on the list of tools you never allow.',
      },
    });
  });

  it(`holds at most ${MAX_DENIED_TOOLS} tools: one more is refused with tool.too_many, and the file is left as it was`, async () => {
    const { api, dataDir } = testApi();
    await api.denyTool({ tool: 'shell' });
    const full = state(dataDir);
    full.settings.deniedTools = Array.from(
      { length: MAX_DENIED_TOOLS },
      (_, i) => `mcp:s/t${String(i).padStart(4, '0')}`,
    );
    writeFileSync(join(dataDir, 'state.json'), JSON.stringify(full));
    const before = treeHash(dataDir);
    expect(await api.denyTool({ tool: SEND })).toEqual({
      ok: false,
      error: {
        code: 'tool.too_many',
        message: `At most ${MAX_DENIED_TOOLS} tools can be on the list of tools you never allow: remove one first.`,
      },
    });
    expect(treeHash(dataDir)).toBe(before);
    // One already on the list is still answered as it is.
    expect((await api.denyTool({ tool: 'mcp:s/t0000' })).ok).toBe(true);
  });
});

describe('an apply on a machine whose owner denies a tool', () => {
  it('previews the granted tool as denied, with the grants.<tool> warning, and records it denied', async () => {
    const { api, dataDir } = await withSlack();
    await api.denyTool({ tool: SEND });
    const sourceId = await openMarketMonitor(api);
    const previewed = await preview(api, sourceId, [SEND]);
    expect(sendTool(previewed)).toMatchObject({ setting: 'deny', ownerDenied: true, pin: { channel_id: 'C0123ABCD' } });
    expect(previewed.warnings).toContainEqual(GRANT_WARNING);
    expect(previewed.warnings.filter((w) => w.code.startsWith('grants.'))).toEqual([GRANT_WARNING]);
    expect(previewed.canApply).toBe(true);

    const applied = await api.apply({ sourceId, parameters: PARAMETERS, grants: [SEND], requestId: 'denied' });
    if (!applied.ok) throw new Error(applied.error.message);
    expect(applied.value.preview).toEqual(previewed);
    expect(state(dataDir).agents[applied.value.agentId].toolSettings[SEND]).toEqual({
      family: null,
      setting: 'deny',
      pin: { channel_id: 'C0123ABCD' },
      pinMissing: false,
    });
    const board = await api.dashboard();
    const access = board.ok ? board.value.agents[0]?.access.find((a) => a.tool === SEND) : undefined;
    expect(access).toMatchObject({ permission: 'deny', granted: false });
  });

  it('a tool denied but not granted is denied without a warning', async () => {
    const { api } = await withSlack();
    await api.denyTool({ tool: SEND });
    const previewed = await preview(api, await openMarketMonitor(api), []);
    expect(sendTool(previewed)).toMatchObject({ setting: 'deny', ownerDenied: true });
    expect(previewed.warnings.filter((w) => w.code.startsWith('grants.'))).toEqual([]);
  });

  it('a denied built-in tool is left out of the agent, with its warning', async () => {
    const { api, dataDir } = await withSlack();
    await api.denyTool({ tool: 'web_fetch' });
    const sourceId = await openMarketMonitor(api);
    const previewed = await preview(api, sourceId, []);
    expect(previewed.tools).toEqual(['web_search', 'read', 'write']);
    expect(previewed.warnings).toContainEqual({
      code: 'grants.web_fetch',
      message:
        'The template gives its agent `web_fetch`, but it is on your list of tools you never allow (Settings → Tools you never allow): the agent does not get it',
    });
    const applied = await api.apply({ sourceId, parameters: PARAMETERS, grants: [], requestId: 'native' });
    if (!applied.ok) throw new Error(applied.error.message);
    expect(Object.keys(state(dataDir).agents[applied.value.agentId].toolSettings)).not.toContain('web_fetch');
  });

  it('taken off the list, the tool is back at its default: allowed when granted, asks when not, no warning', async () => {
    const { api } = await withSlack();
    await api.denyTool({ tool: SEND });
    const removed = await api.removeDeniedTool({ tool: SEND });
    expect(removed.ok && removed.value.deniedTools).toEqual([]);
    const sourceId = await openMarketMonitor(api);
    const granted = await preview(api, sourceId, [SEND]);
    expect(sendTool(granted)).toEqual({
      name: 'slack_send_message',
      gateName: SEND,
      asks: 'ask',
      setting: 'allow',
      pin: { channel_id: 'C0123ABCD' },
      pinnedBy: ['channel'],
      pinText: '`slack_send_message` can post only to channel_id `C0123ABCD`',
    });
    expect(granted.warnings.filter((w) => w.code.startsWith('grants.'))).toEqual([]);
    expect(sendTool(await preview(api, sourceId, []))?.setting).toBe('ask');
  });

  it("an agent applied before the deny keeps its own setting (spec: the agent's setting outranks the server's)", async () => {
    const { api, dataDir } = await withSlack();
    const sourceId = await openMarketMonitor(api);
    await preview(api, sourceId, [SEND]);
    const applied = await api.apply({ sourceId, parameters: PARAMETERS, grants: [SEND], requestId: 'before' });
    if (!applied.ok) throw new Error(applied.error.message);
    await api.denyTool({ tool: SEND });
    expect(state(dataDir).agents[applied.value.agentId].toolSettings[SEND].setting).toBe('allow');
  });
});
