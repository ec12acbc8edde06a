/**
 * A template's built-in tools can be unticked like any other, and `approvals` is
 * offered as a choice with the template's value as its default (spec agent.md `approvals`: "the
 * package's recommendation, shown as `approvals_default` for the apply screen").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { tempDir, testApi, treeHash } from '../../../test/helpers/test-api';
import type { CoreApi } from '../api';

const MARKET_MONITOR = new URL('../../../resources/templates/market-monitor', import.meta.url).pathname;
const parameters = { companies: 'Acme', channel: 'C0123ABCD' };

async function open(api: CoreApi): Promise<string> {
  const handle = await api.registerSource(MARKET_MONITOR, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  return handle.value.id;
}

const state = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));

describe('unticking a template built-in tool', () => {
  it('previews it as withheld, records it denied, and the dashboard can allow it later', async () => {
    const { api, dataDir } = testApi();
    const sourceId = await open(api);
    const preview = await api.previewApply({ sourceId, parameters, grants: [], withhold: ['write'] });
    if (!preview.ok) throw new Error(preview.error.message);
    expect([preview.value.tools, preview.value.withheld, preview.value.canApply]).toEqual([
      ['web_search', 'web_fetch', 'read'],
      ['write'],
      true,
    ]);

    const applied = await api.apply({ sourceId, parameters, grants: [], withhold: ['write'], requestId: 'r1' });
    if (!applied.ok) throw new Error(applied.error.message);
    const settings = state(dataDir).agents[applied.value.agentId].toolSettings;
    expect(settings.write).toMatchObject({ setting: 'deny' });
    expect(settings.read).toMatchObject({ setting: 'allow' });

    const dashboard = await api.dashboard();
    if (!dashboard.ok) throw new Error(dashboard.error.message);
    const agent = dashboard.value.agents.find((a) => a.id === applied.value.agentId);
    expect(agent?.access.find((a) => a.tool === 'write')).toMatchObject({
      permission: 'deny',
      granted: false,
      what: "Write files in the agent's work folder",
    });

    const allowed = await api.setToolAccess({ agentId: applied.value.agentId, tool: 'write', granted: true });
    expect(allowed.ok && allowed.value.access.find((a) => a.tool === 'write')?.granted).toBe(true);
  });

  it('refuses to leave out a tool the template does not give, naming it, and makes nothing', async () => {
    const { api, dataDir } = testApi();
    const sourceId = await open(api);
    const preview = await api.previewApply({ sourceId, parameters, grants: [], withhold: ['shell'] });
    expect(preview.ok && preview.value.blockers).toEqual([
      {
        code: 'apply.withhold_unknown',
        path: 'withhold[0]',
        message: "`shell` is not one of market-monitor's built-in tools, so it cannot be left out",
      },
    ]);
    const before = treeHash(dataDir);
    const applied = await api.apply({ sourceId, parameters, grants: [], withhold: ['shell'], requestId: 'r1' });
    expect(applied.ok ? null : [applied.error.code, applied.error.path]).toEqual(['apply.blocked', 'withhold[0]']);
    expect(treeHash(dataDir)).toBe(before);
  });

  it('is part of the request: the same request id with other tools left out is refused', async () => {
    const { api } = testApi();
    const sourceId = await open(api);
    await api.previewApply({ sourceId, parameters, grants: [] });
    expect((await api.apply({ sourceId, parameters, grants: [], requestId: 'r1' })).ok).toBe(true);
    const again = await api.apply({ sourceId, parameters, grants: [], withhold: ['write'], requestId: 'r1' });
    expect(again.ok ? null : again.error.code).toBe('apply.request_reused');
  });
});

describe('the approvals choice', () => {
  it("asks unless the person chooses never, the template's recommendation shown beside it", async () => {
    const { api, dataDir } = testApi();
    const sourceId = await open(api);
    const untouched = await api.previewApply({ sourceId, parameters, grants: [] });
    expect(untouched.ok && untouched.value.approvals).toEqual({ chosen: 'ask', recommended: 'never' });
    const applied = await api.apply({ sourceId, parameters, grants: [], requestId: 'r1' });
    if (!applied.ok) throw new Error(applied.error.message);
    expect(state(dataDir).agents[applied.value.agentId].approvals).toBe('ask');

    // Under `ask`, a built-in tool the agent was given still asks first (spec: the agent asks its person before a tool
    // runs).
    const dashboard = await api.dashboard();
    const agent = dashboard.ok ? dashboard.value.agents.find((a) => a.id === applied.value.agentId) : undefined;
    expect([agent?.approvals, agent?.access.find((a) => a.tool === 'read')?.permission]).toEqual(['ask', 'ask']);
  });

  it('records never when the person chooses it, and the tools it was given then run without asking', async () => {
    const { api, dataDir } = testApi();
    const sourceId = await open(api);
    const chosen = await api.previewApply({ sourceId, parameters, grants: [], approvals: 'never' });
    expect(chosen.ok && chosen.value.approvals).toEqual({ chosen: 'never', recommended: 'never' });
    const applied = await api.apply({ sourceId, parameters, grants: [], approvals: 'never', requestId: 'r1' });
    if (!applied.ok) throw new Error(applied.error.message);
    expect(state(dataDir).agents[applied.value.agentId].approvals).toBe('never');
    const dashboard = await api.dashboard();
    const agent = dashboard.ok ? dashboard.value.agents.find((a) => a.id === applied.value.agentId) : undefined;
    expect([agent?.approvals, agent?.access.find((a) => a.tool === 'read')?.permission]).toEqual(['never', 'allow']);
  });

  it('refuses any other value at the door', async () => {
    const { api } = testApi();
    const sourceId = await open(api);
    const odd = await api.previewApply({ sourceId, parameters, grants: [], approvals: 'sometimes' as never });
    expect(odd.ok ? null : odd.error.code).toBe('request.invalid');
  });
});

describe('apollia-desktop apply --withhold and --approvals', () => {
  it('leaves the tool out and sets the approvals, saying both', async () => {
    const dataDir = tempDir('apollia-cli-');
    const done = await runCliCaptured([
      '--data-dir',
      dataDir,
      'apply',
      MARKET_MONITOR,
      '--param',
      'companies=Acme',
      '--param',
      'channel=C0123ABCD',
      '--withhold',
      'write',
      '--approvals',
      'ask',
      '--yes',
    ]);
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(done.stdout).toContain('  approvals: ask (asks you before a tool runs); the template recommends never\n');
    expect(done.stdout).toContain('  left out: write (denied; allow it later on the dashboard)\n');
    const [agent] = Object.values(state(dataDir).agents) as {
      approvals: string;
      toolSettings: Record<string, { setting: string }>;
    }[];
    expect([agent?.approvals, agent?.toolSettings.write?.setting]).toEqual(['ask', 'deny']);
  });

  it('arms only the trigger named with --arm, and says which are off', async () => {
    const off = tempDir('apollia-cli-');
    const made = await runCliCaptured([
      '--data-dir',
      off,
      'apply',
      MARKET_MONITOR,
      '--param',
      'companies=Acme',
      '--yes',
    ]);
    const agentId = (made.stdout.match(/^Applied: .* \[(.+)\]$/m) ?? [])[1];
    expect(made.stdout).toContain(
      `  trigger weekly (schedule): At 08:00, only on Monday (UTC): off until you arm it (\`arm ${agentId}/weekly\`, or on the dashboard)\n`,
    );
    expect(Object.values(state(off).triggers).map((t) => (t as { armed: boolean }).armed)).toEqual([false]);
    const on = tempDir('apollia-cli-');
    const armed = await runCliCaptured([
      '--data-dir',
      on,
      'apply',
      MARKET_MONITOR,
      '--param',
      'companies=Acme',
      '--arm',
      'weekly',
      '--yes',
    ]);
    expect([armed.code, armed.stderr]).toEqual([0, '']);
    expect(armed.stdout).toContain('  trigger weekly (schedule): At 08:00, only on Monday (UTC): armed\n');
    expect(Object.values(state(on).triggers).map((t) => (t as { armed: boolean }).armed)).toEqual([true]);
    const unknown = tempDir('apollia-cli-');
    const refused = await runCliCaptured([
      '--data-dir',
      unknown,
      'apply',
      MARKET_MONITOR,
      '--param',
      'companies=Acme',
      '--arm',
      'hourly',
      '--yes',
    ]);
    expect([refused.code, refused.stderr]).toEqual([
      1,
      'apollia-desktop: Market monitor: Acme has no trigger `hourly` to arm\n',
    ]);
  });

  it('refuses an approvals value other than ask or never, writing nothing', async () => {
    const dataDir = tempDir('apollia-cli-');
    const before = treeHash(dataDir);
    const done = await runCliCaptured(['--data-dir', dataDir, 'apply', MARKET_MONITOR, '--approvals', 'always']);
    expect([done.code, done.stderr.split('\n')[0]]).toEqual([
      2,
      'apollia-desktop: --approvals takes ask or never, got `always`',
    ]);
    expect(treeHash(dataDir)).toBe(before);
  });
});
