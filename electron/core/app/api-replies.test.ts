/**
 * The replies defined once with their schemas (shared/api-replies.ts) are what the core answers:
 * each live answer of a real install, arm, rotate, disarm, uninstall, the dashboard, the settings
 * and the status calls meets its
 * method's schema, closed (a field the type does not declare fails), so the reply, its type and its
 * schema cannot drift apart.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../../shared/api';
import { API_REPLY_SCHEMAS, type ApiRepliedMethod } from '../../../shared/api-replies';
import { packFolder } from '../../../test/helpers/pack';
import { tempDir, testApi } from '../../../test/helpers/test-api';

const WATCHER_DIR = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;
const HOOK = 'watcher/on-call';

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
    checked('startAtLogin', await api.startAtLogin());
    checked('triggerStatus', await api.triggerStatus());
    const apo = join(tempDir('apollia-apo-'), 'package.apo');
    writeFileSync(apo, packFolder(WATCHER_DIR));
    const handle = await api.registerSource(apo, 'open-file');
    if (!handle.ok) throw new Error(handle.error.message);
    expect((await api.inspect({ sourceId: handle.value.id })).ok).toBe(true);
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

  it('refuses an answer with a field its type does not declare (the check is not blind)', () => {
    const validate = validators.get('startAtLogin');
    expect(validate?.({ available: false, on: false })).toBe(true);
    expect(validate?.({ available: false, on: false, extra: 1 })).toBe(false);
  });
});
