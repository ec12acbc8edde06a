/**
 * A template agent whose MCP server was not saved at apply: saving the server later is not a dead
 * end. The dashboard shows the server's tools as waiting (missing, then saved), and a saved
 * server's tool can be granted from the agent's card, with the pin apply filled, recorded as a
 * grant; no second apply (and no second agent of the same name) is needed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreApi } from '../api';
import { testApi } from '../../../test/helpers/test-api';

const MARKET_MONITOR = new URL('../../../resources/templates/market-monitor', import.meta.url).pathname;
const parameters = { companies: 'Acme', channel: 'C0123ABCD' };

async function applied(api: CoreApi, given: Record<string, string> = parameters): Promise<string> {
  const handle = await api.registerSource(MARKET_MONITOR, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const request = { sourceId: handle.value.id, parameters: given, grants: ['mcp:gmail/GMAIL_SEND_EMAIL'] };
  const preview = await api.previewApply(request);
  if (!preview.ok) throw new Error(preview.error.message);
  const done = await api.apply({ ...request, requestId: 'first' });
  if (!done.ok) throw new Error(done.error.message);
  return done.value.agentId;
}

async function agentOf(api: CoreApi, agentId: string) {
  const dashboard = await api.dashboard();
  if (!dashboard.ok) throw new Error(dashboard.error.message);
  const agent = dashboard.value.agents.find((a) => a.id === agentId);
  if (!agent) throw new Error('no agent');
  return agent;
}

describe('a template agent waiting for an MCP server', () => {
  it('shows the skipped tools as waiting, and once the server is saved they can be granted from the card', async () => {
    const { api, dataDir } = testApi();
    const agentId = await applied(api);
    const gmail = (await agentOf(api, agentId)).waitingServers.find((w) => w.server === 'gmail');
    expect(gmail).toEqual({
      server: 'gmail',
      saved: false,
      tools: [
        { tool: 'mcp:gmail/GMAIL_SEND_EMAIL', name: 'GMAIL_SEND_EMAIL', pinText: expect.any(String), grantable: true },
      ],
    });

    // Not yet: the server is missing.
    const early = await api.setToolAccess({ agentId, tool: 'mcp:gmail/GMAIL_SEND_EMAIL', granted: true });
    expect(early.ok === false && early.error.code).toBe('access.server_missing');

    // Saved in Settings: the card says so, and the grant gives the tool with the pin apply filled.
    await api.saveMcpServer({ name: 'gmail', transport: 'stdio', command: 'gmail-mcp' });
    expect((await agentOf(api, agentId)).waitingServers.find((w) => w.server === 'gmail')?.saved).toBe(true);
    const granted = await api.setToolAccess({ agentId, tool: 'mcp:gmail/GMAIL_SEND_EMAIL', granted: true });
    if (!granted.ok) throw new Error(granted.error.message);
    expect(granted.value.waitingServers.map((w) => w.server)).toEqual(['slack']);
    expect(granted.value.access.find((a) => a.tool === 'mcp:gmail/GMAIL_SEND_EMAIL')).toMatchObject({
      granted: true,
      pin: { recipient_email: 'C0123ABCD', cc: null, bcc: null, extra_recipients: null },
    });
    const stored = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
    expect(stored.agents[agentId].toolSettings['mcp:gmail/GMAIL_SEND_EMAIL']).toEqual({
      family: null,
      setting: 'allow',
      pin: { recipient_email: 'C0123ABCD', cc: null, bcc: null, extra_recipients: null },
      pinMissing: false,
    });
    // One agent: nothing was applied again.
    expect(Object.keys(stored.agents)).toEqual([agentId]);
    // Recorded as a grant.
    const activity = await api.activity({ agent: agentId });
    expect(
      activity.ok &&
        activity.value.events.some(
          (e) => e.kind === 'grant' && (e.detail ?? '').includes('mcp:gmail/GMAIL_SEND_EMAIL'),
        ),
    ).toBe(true);
  });

  it('a waiting tool whose pin was not filled at apply is shown but cannot be granted', async () => {
    const { api } = testApi();
    const agentId = await applied(api, { companies: 'Acme' });
    await api.saveMcpServer({ name: 'gmail', transport: 'stdio', command: 'gmail-mcp' });
    expect((await agentOf(api, agentId)).waitingServers.find((w) => w.server === 'gmail')?.tools[0]?.grantable).toBe(
      false,
    );
    const refused = await api.setToolAccess({ agentId, tool: 'mcp:gmail/GMAIL_SEND_EMAIL', granted: true });
    expect(refused.ok === false && refused.error.code).toBe('access.pin_missing');
  });
});
