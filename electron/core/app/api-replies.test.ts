/**
 * The replies defined once with their schemas (shared/api-replies.ts) are what the core answers:
 * each live answer of a real install, arm, rotate, disarm, uninstall, the dashboard, the settings
 * and the status calls, the trusted keys, the integrity check and the waiting runs meets its
 * method's schema, closed (a field the type does not declare fails), so the reply, its type and its
 * schema cannot drift apart.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../../shared/api';
import { API_REPLY_SCHEMAS, type ApiRepliedMethod } from '../../../shared/api-replies';
import { packFolder } from '../../../test/helpers/pack';
import { writeTemplate } from '../../../test/helpers/template-folders';
import { tempDir, testApi } from '../../../test/helpers/test-api';
import { writeRunRequest } from '../triggers/run-requests';

const WATCHER_DIR = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;
const HOOK = 'watcher/on-call';
/** A minisign public key line (any valid one: these calls only read and list it). */
const KEY = 'RWRBgZL74n41JgKbQmMI+1Gbf3SZpb2EfPkEa8AYcHig+gTecGl5Wa95';

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validators = new Map(Object.entries(API_REPLY_SCHEMAS).map(([method, schema]) => [method, ajv.compile(schema)]));

/** The answer's value, after checking it against its method's reply schema. */
function checked<T>(method: ApiRepliedMethod, result: ApiResult<T>): T {
  if (!result.ok) throw new Error(`${method}: ${result.error.code} ${result.error.message}`);
  const validate = validators.get(method);
  if (!validate) throw new Error(`${method} has no reply schema`);
  expect(validate(result.value) ? [] : validate.errors, `${method}'s answer meets its schema`).toEqual([]);
  return result.value;
}

describe('Api replies meet their schemas', () => {
  it('install, arm, rotate, disarm, uninstall and the status calls', async () => {
    const { api } = testApi();
    checked('appInfo', await api.appInfo());
    expect(checked('listBuiltinTemplates', await api.listBuiltinTemplates()).length).toBeGreaterThan(0);
    checked('startAtLogin', await api.startAtLogin());
    checked('triggerStatus', await api.triggerStatus());
    const apo = join(tempDir('apollia-apo-'), 'package.apo');
    writeFileSync(apo, packFolder(WATCHER_DIR));
    const handle = await api.registerSource(apo, 'open-file');
    if (!handle.ok) throw new Error(handle.error.message);
    expect(checked('inspect', await api.inspect({ sourceId: handle.value.id })).ok).toBe(true);
    const receipt = checked(
      'install',
      await api.install({
        sourceId: handle.value.id,
        decisions: { agents: {}, triggers: { 'on-call': { armed: true } } },
      }),
    );
    expect(receipt.webhookSecrets.map((once) => once.triggerId)).toEqual([HOOK]);
    expect(checked('rotateWebhookSecret', await api.rotateWebhookSecret({ triggerId: HOOK })).webhookSecret).toMatch(
      /^whsec_/,
    );
    expect(checked('disarmTrigger', await api.disarmTrigger({ triggerId: HOOK })).armed).toBe(false);
    expect(checked('armTrigger', await api.armTrigger({ triggerId: HOOK })).trigger.armed).toBe(true);
    const dashboard = checked('dashboard', await api.dashboard());
    const agent = dashboard.agents[0];
    const tool = agent?.access[0]?.tool;
    if (!agent || !tool) throw new Error('the watcher package has an agent with access');
    expect(dashboard.packages.map((pkg) => pkg.name)).toEqual([receipt.name]);
    const changed = checked('setToolAccess', await api.setToolAccess({ agentId: agent.id, tool, granted: false }));
    expect(changed.access.find((row) => row.tool === tool)?.granted).toBe(false);
    const events = checked('activity', await api.activity({ limit: 50 })).events;
    expect(events.map((event) => event.kind)).toContain('install');
    expect(checked('uninstallPackage', await api.uninstallPackage({ name: receipt.name })).name).toBe(receipt.name);
  });

  it('settings and each change to them', async () => {
    const { api } = testApi();
    checked('settings', await api.settings());
    const saved = checked(
      'saveMcpServer',
      await api.saveMcpServer({ name: 'files', transport: 'stdio', command: 'x' }),
    );
    expect(saved.mcpServers.map((server) => server.name)).toEqual(['files']);
    checked('denyTool', await api.denyTool({ tool: 'shell' }));
    checked('removeDeniedTool', await api.removeDeniedTool({ tool: 'shell' }));
    expect(checked('setWebhookPort', await api.setWebhookPort({ port: 48_000 })).webhookPort).toMatchObject({
      port: 48_000,
      chosen: true,
    });
    checked('removeMcpServer', await api.removeMcpServer({ name: 'files' }));
  });

  it('trusted keys, the integrity check and the waiting runs', async () => {
    const { api, dataDir } = testApi();
    expect(checked('previewKey', await api.previewKey({ publicKey: KEY })).trustedAs).toBeNull();
    const trusted = checked('trustKey', await api.trustKey({ publicKey: KEY, name: 'Example' }));
    const keyId = trusted[0]?.keyId;
    if (!keyId) throw new Error('the key is trusted');
    expect(checked('previewKey', await api.previewKey({ publicKey: KEY })).trustedAs).toBe('Example');
    expect(checked('trustedKeys', await api.trustedKeys()).map((key) => key.name)).toEqual(['Example']);
    expect(checked('untrustKey', await api.untrustKey({ keyId }))).toEqual([]);

    const apo = join(tempDir('apollia-apo-'), 'package.apo');
    writeFileSync(apo, packFolder(WATCHER_DIR));
    const handle = await api.registerSource(apo, 'open-file');
    if (!handle.ok) throw new Error(handle.error.message);
    expect(checked('inspect', await api.inspect({ sourceId: handle.value.id })).ok).toBe(true);
    const receipt = checked(
      'install',
      await api.install({ sourceId: handle.value.id, decisions: { agents: {}, triggers: {} } }),
    );
    const dir = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8')).packages[receipt.name].dir;
    writeFileSync(join(dataDir, dir, 'added.py'), 'print(1)\n');
    const verified = checked('verifyInstalled', await api.verifyInstalled());
    expect(verified.map((pkg) => [pkg.name, pkg.integrity.state, pkg.newlyChanged])).toEqual([
      [receipt.name, 'changed', true],
    ]);
    const changed = checked('dashboard', await api.dashboard()).packages[0]?.integrity;
    expect(changed?.added).toEqual(['added.py']);

    const fired = (n: number) => ({
      id: `00000000-0000-4000-8000-00000000000${n}`,
      trigger: HOOK,
      target: 'watcher/tidy',
      input: { text: null },
      fired_at: new Date(Date.UTC(2026, 11, 1, 8, n)).toISOString(),
      cause: 'webhook' as const,
      payload: { untrusted: true as const, webhook_id: `msg_${n}`, type: 'scan.ready', body: {} },
    });
    await writeRunRequest(dataDir, fired(1));
    await writeRunRequest(dataDir, fired(2));
    await writeRunRequest(dataDir, fired(3));
    const waiting = checked('waitingRuns', await api.waitingRuns());
    expect(waiting.runs.map((run) => [run.cause, run.payloadType])).toEqual([
      ['webhook', 'scan.ready'],
      ['webhook', 'scan.ready'],
      ['webhook', 'scan.ready'],
    ]);
    expect(waiting.triggers.map((trigger) => [trigger.trigger, trigger.waiting])).toEqual([[HOOK, 3]]);
    const first = waiting.runs[0]?.id;
    if (!first) throw new Error('a run waits');
    expect(checked('discardWaitingRun', await api.discardWaitingRun({ runId: first })).discarded).toEqual([first]);
    expect(checked('discardTriggerRuns', await api.discardTriggerRuns({ triggerId: HOOK })).discarded).toHaveLength(2);
  });

  it('a template previewed and applied', async () => {
    const { api } = testApi();
    checked('saveMcpServer', await api.saveMcpServer({ name: 'slack', transport: 'stdio', command: 'slack-mcp' }));
    checked('saveSecret', await api.saveSecret({ name: 'PARALLEL_API_KEY', value: 'key-1' }));
    const handle = await api.registerSource(writeTemplate(), 'dialog');
    if (!handle.ok) throw new Error(handle.error.message);
    expect(checked('inspect', await api.inspect({ sourceId: handle.value.id })).ok).toBe(true);
    const request = { sourceId: handle.value.id, parameters: { channel: 'C0123ABCD' }, grants: ['mcp:slack/send'] };
    const preview = checked('previewApply', await api.previewApply(request));
    const send = preview.mcp[0]?.tools.find((tool) => tool.name === 'send');
    expect(send?.pin).toEqual({ channel_id: 'C0123ABCD', event: [null, 'COMMENT'] });
    expect(preview.triggers.map((trigger) => trigger.type)).toEqual(['schedule', 'webhook', 'at']);
    const receipt = checked('apply', await api.apply({ ...request, arm: [], requestId: 'r1' }));
    expect(receipt.preview).toEqual(preview);
  });

  it('refuses an answer with a field its type does not declare (the check is not blind)', () => {
    const validate = validators.get('startAtLogin');
    expect(validate?.({ available: false, on: false })).toBe(true);
    expect(validate?.({ available: false, on: false, extra: 1 })).toBe(false);
  });
});
