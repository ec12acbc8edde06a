/**
 * What a person reading the activity record expects to find (DESIGN.md "Triggers at run time", the
 * record's one list): MCP servers saved and removed, where a webhook's secret came from, every
 * agent the record names offered by the filter, decisions apart from traffic, each kind in words.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTIVITY_KIND_WORDS, activityOutcomeWords } from '../../../shared/activity/activity-kinds';
import { packFolder } from '../../../test/helpers/pack';
import { activityText, tempDir, testApi } from '../../../test/helpers/test-api';
import { ActivityLog } from '../activity/activity-log';

const WATCHER_DIR = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;
const GIVEN = `whsec_${Buffer.alloc(32, 4).toString('base64')}`;

describe('the activity record as a person reads it', () => {
  it('records MCP servers saved and removed, never a credential', async () => {
    const { api, dataDir } = testApi();
    await api.saveMcpServer({
      name: 'db',
      transport: 'stdio',
      command: 'pg-mcp',
      args: ['postgresql://admin:Sup3rSecretPw@db/prod'],
    });
    await api.removeMcpServer({ name: 'db' });
    const events = await new ActivityLog(dataDir).list({ decisionsOnly: true });
    expect(events.map((e) => [e.kind, e.outcome, e.detail])).toEqual([
      ['mcp_server_removed', 'ok', 'db was removed'],
      [
        'mcp_server_saved',
        'ok',
        'db (stdio): pg-mcp postgresql://admin:[hidden]@db/prod; its credentials are kept sealed',
      ],
    ]);
    expect(activityText(dataDir)).not.toContain('Sup3rSecretPw');
  });

  it('says a secret the sender gave was given, not made (arm, rotate)', async () => {
    const { api, dataDir } = testApi();
    const path = join(tempDir('apollia-apo-'), 'watcher.apo');
    writeFileSync(path, packFolder(WATCHER_DIR));
    const handle = await api.registerSource(path, 'open-file');
    if (!handle.ok) throw new Error(handle.error.message);
    await api.inspect({ sourceId: handle.value.id });
    const installed = await api.install({
      sourceId: handle.value.id,
      decisions: {
        agents: {},
        triggers: { 'on-call': { armed: true, webhookSecret: { kind: 'given', secret: GIVEN } } },
      },
    });
    if (!installed.ok) throw new Error(installed.error.message);
    await api.rotateWebhookSecret({
      triggerId: 'watcher/on-call',
      webhookSecret: { kind: 'given', secret: `whsec_${Buffer.alloc(32, 5).toString('base64')}` },
    });
    await api.disarmTrigger({ triggerId: 'watcher/on-call' });
    await api.armTrigger({ triggerId: 'watcher/on-call', webhookSecret: { kind: 'given', secret: GIVEN } });
    const details = (await new ActivityLog(dataDir).list({}))
      .filter((e) => e.trigger === 'watcher/on-call')
      .map((e) => [e.kind, e.detail]);
    expect(details).toEqual([
      ['arm', 'armed: webhook, with the signing secret its sender gave'],
      ['disarm', 'disarmed; its signing secret was deleted'],
      ['secret_rotated', 'replaced by the signing secret its sender gave; the old one no longer signs'],
      ['arm', 'armed: webhook, with the signing secret its sender gave'],
    ]);
    expect(activityText(dataDir)).not.toContain(GIVEN.slice(6));
  });

  it('answers the filter with every agent the record names, and decisions alone on request', async () => {
    const { api, dataDir } = testApi();
    const log = new ActivityLog(dataDir);
    await log.record({ kind: 'install', package: 'crm', agent: 'crm/scorer', outcome: 'ok', detail: 'installed' });
    await log.record({ kind: 'grant', package: 'gone', agent: 'gone/agent', outcome: 'ok', detail: 'allowed x' });
    await log.record({ kind: 'run_queued', agent: 'crm/scorer', trigger: 'crm/t', outcome: 'ok', detail: 'run 1' });
    const all = await api.activity();
    expect(all.ok && all.value.agents).toEqual(['crm/scorer', 'gone/agent']);
    const decisions = await api.activity({ decisionsOnly: true });
    expect(decisions.ok && decisions.value.events.map((e) => e.kind)).toEqual(['grant', 'install']);
  });

  it('says every kind in words (a key change is not a raw code), and a queued run waits rather than being done', () => {
    expect(ACTIVITY_KIND_WORDS.key_change_accepted).toBe('Accepted a new signing key');
    expect(ACTIVITY_KIND_WORDS.key_change_refused).toBe("Didn't update: the signing key changed");
    expect(activityOutcomeWords('run_queued', 'ok')).toBe('Waiting');
    expect(activityOutcomeWords('delivery_accepted', 'ok')).toBe('Waiting');
    expect(activityOutcomeWords('delivery_refused', 'skipped')).toBe('Skipped');
    expect(activityOutcomeWords('install', 'ok')).toBe('Done');
  });
});
