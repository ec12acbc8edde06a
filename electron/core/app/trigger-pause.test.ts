/**
 * Pause and resume (DESIGN.md "Triggers at run time": paused is armed, its folder and secret kept, not firing, with
 * who paused it; only the person disarms): Pause keeps the watched folder and the webhook's sealed secret, Resume
 * gives them back, both recorded once; a trigger that is off cannot be paused; Resume is a door as Arm is (the
 * policy read now refuses it); the trigger host does not fire a paused trigger and fires it again once resumed;
 * Disarm of a paused trigger deletes the secret and lifts the pause.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/pack';
import { tempDir, testApi } from '../../../test/helpers/test-api';
import { FakeClock, runRequests } from '../../../test/helpers/trigger-host';
import type { CoreApi } from '../api';
import { sharedChecker } from '../bounded/index';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { TriggerHost } from '../triggers/trigger-host';

const WATCHER_DIR = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;

beforeAll(() => sharedChecker().warm(), 120_000);
const hosts: TriggerHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
});

const stateOf = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
const stateText = (dataDir: string) => readFileSync(join(dataDir, 'state.json'), 'utf8');

async function events(api: CoreApi) {
  const answer = await api.activity();
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value.events.map((e) => [e.kind, e.trigger ?? null, e.detail]);
}

/** Watcher installed with its three triggers armed: a folder watched, a webhook with a made secret, hourly. */
async function installedWatcher(policyPath?: string) {
  const folder = tempDir('apollia-paused-folder-');
  const { api, dataDir } = testApi({
    folders: [folder],
    ...(policyPath ? { policy: { machine: null, env: policyPath } } : {}),
  });
  const picked = await api.pickWatchFolder();
  if (!picked.ok || !picked.value) throw new Error('no folder');
  const apo = join(tempDir('apollia-paused-apo-'), 'watcher.apo');
  writeFileSync(apo, packFolder(WATCHER_DIR));
  const handle = await api.registerSource(apo, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const inspected = await api.inspect({ sourceId: handle.value.id });
  if (!inspected.ok) throw new Error(inspected.error.message);
  const installed = await api.install({
    sourceId: handle.value.id,
    decisions: {
      agents: {},
      triggers: {
        'on-call': { armed: true },
        'on-change': { armed: true, folderId: picked.value.folderId },
        hourly: { armed: true },
      },
    },
  });
  if (!installed.ok) throw new Error(installed.error.message);
  return { api, dataDir, folder };
}

describe('pause keeps the folder and the secret; resume gives them back', () => {
  it('pauses a watched folder and a webhook: still armed, kept, no next fire; recorded once; resume lifts it', async () => {
    const { api, dataDir, folder } = await installedWatcher();
    const before = stateOf(dataDir);
    const secretRef = before.triggers['watcher/on-call'].secretRef as string;
    const sealed = before.webhookSecrets[secretRef] as string;
    expect(sealed).toEqual(expect.any(String));

    const watch = await api.pauseTrigger({ triggerId: 'watcher/on-change' });
    const hook = await api.pauseTrigger({ triggerId: 'watcher/on-call' });
    const hourly = await api.pauseTrigger({ triggerId: 'watcher/hourly' });
    if (!watch.ok || !hook.ok || !hourly.ok) throw new Error('not paused');
    expect([watch.value.armed, watch.value.folder, watch.value.pausedAt]).toEqual([
      true,
      folder,
      '2026-12-01T10:00:00.000Z',
    ]);
    expect([hook.value.armed, hook.value.webhookSecretSet, hook.value.pausedAt !== null]).toEqual([true, true, true]);
    expect(hourly.value.next).toEqual([]);
    const paused = stateOf(dataDir);
    expect(paused.triggers['watcher/on-change']).toMatchObject({
      armed: true,
      folder,
      pausedAt: '2026-12-01T10:00:00.000Z',
    });
    expect(paused.triggers['watcher/on-call'].secretRef).toBe(secretRef);
    expect(paused.webhookSecrets[secretRef]).toBe(sealed);

    // Pausing again changes nothing and records nothing.
    const text = stateText(dataDir);
    expect((await api.pauseTrigger({ triggerId: 'watcher/on-change' })).ok).toBe(true);
    expect(stateText(dataDir)).toBe(text);

    const resumed = await api.resumeTrigger({ triggerId: 'watcher/on-call' });
    expect(resumed.ok && [resumed.value.pausedAt, resumed.value.webhookSecretSet]).toEqual([null, true]);
    expect(stateOf(dataDir).webhookSecrets[secretRef]).toBe(sealed);
    const hourlyBack = await api.resumeTrigger({ triggerId: 'watcher/hourly' });
    expect(hourlyBack.ok && hourlyBack.value.next.length).toBe(3);

    const recorded = (await events(api)).filter(([kind]) => kind === 'pause' || kind === 'resume');
    expect(recorded).toEqual([
      ['resume', 'watcher/hourly', 'resumed by you: it fires again, with what it kept'],
      ['resume', 'watcher/on-call', 'resumed by you: it fires again, with what it kept'],
      ['pause', 'watcher/hourly', 'paused by you: still armed, its schedule kept; it fires when resumed'],
      [
        'pause',
        'watcher/on-call',
        'paused by you: still armed, its signing secret kept; its sender’s calls are not taken while paused; it fires when resumed',
      ],
      ['pause', 'watcher/on-change', `paused by you: still armed, its folder kept (${folder}); it fires when resumed`],
    ]);
  });

  it('disarming a paused webhook deletes its secret and lifts the pause; a trigger that is off cannot be paused', async () => {
    const { api, dataDir } = await installedWatcher();
    const secretRef = stateOf(dataDir).triggers['watcher/on-call'].secretRef as string;
    await api.pauseTrigger({ triggerId: 'watcher/on-call' });
    const off = await api.disarmTrigger({ triggerId: 'watcher/on-call' });
    expect(off.ok && [off.value.armed, off.value.pausedAt, off.value.webhookSecretSet]).toEqual([false, null, false]);
    expect(Object.hasOwn(stateOf(dataDir).webhookSecrets, secretRef)).toBe(false);
    const text = stateText(dataDir);
    const refused = await api.pauseTrigger({ triggerId: 'watcher/on-call' });
    expect(refused.ok === false && [refused.error.code, refused.error.message]).toEqual([
      'trigger.not_armed',
      'trigger `watcher/on-call` is not armed: there is nothing to pause (arm it first)',
    ]);
    const notResumed = await api.resumeTrigger({ triggerId: 'watcher/on-call' });
    expect(notResumed.ok === false && notResumed.error.code).toBe('trigger.not_armed');
    expect(stateText(dataDir)).toBe(text);
    const unknown = await api.pauseTrigger({ triggerId: 'watcher/nope' });
    expect(unknown.ok === false && unknown.error.code).toBe('trigger.unknown');
  });

  it('arming a paused trigger again lifts the pause', async () => {
    const { api, dataDir } = await installedWatcher();
    await api.pauseTrigger({ triggerId: 'watcher/hourly' });
    const armed = await api.armTrigger({ triggerId: 'watcher/hourly' });
    expect(armed.ok && armed.value.trigger.pausedAt).toBeNull();
    expect(stateOf(dataDir).triggers['watcher/hourly'].pausedAt).toBeNull();
  });
});

describe('resume is a door as arm is', () => {
  it('a policy that now forbids the kind refuses Resume with its reason; the trigger stays paused; lifted, it resumes', async () => {
    const policyPath = join(tempDir('apollia-paused-policy-'), 'policy.json');
    writeFileSync(policyPath, JSON.stringify({ version: 1 }));
    const { api, dataDir } = await installedWatcher(policyPath);
    await api.pauseTrigger({ triggerId: 'watcher/on-change' });
    writeFileSync(policyPath, JSON.stringify({ version: 1, triggers: { file_watch: false } }));
    const text = stateText(dataDir);
    const refused = await api.resumeTrigger({ triggerId: 'watcher/on-change' });
    expect(refused.ok === false && [refused.error.code, refused.error.message]).toEqual([
      'policy.trigger_kind',
      expect.stringContaining('trigger `watcher/on-change` was not resumed: your organization does not allow'),
    ]);
    expect(stateText(dataDir)).toBe(text);
    writeFileSync(policyPath, '{ not json');
    const unreadable = await api.resumeTrigger({ triggerId: 'watcher/on-change' });
    expect(unreadable.ok === false && unreadable.error.code).toBe('policy.unreadable');
    // Pausing only takes away: it works under any policy.
    expect((await api.pauseTrigger({ triggerId: 'watcher/hourly' })).ok).toBe(true);
    writeFileSync(policyPath, JSON.stringify({ version: 1 }));
    const resumed = await api.resumeTrigger({ triggerId: 'watcher/on-change' });
    expect(resumed.ok && resumed.value.pausedAt).toBeNull();
  });
});

describe('the trigger host and a paused trigger', () => {
  it('does not fire a paused schedule; fires it again once resumed', async () => {
    const { api, dataDir } = await installedWatcher();
    await api.disarmTrigger({ triggerId: 'watcher/on-change' });
    await api.disarmTrigger({ triggerId: 'watcher/on-call' });
    await api.pauseTrigger({ triggerId: 'watcher/hourly' });
    const clock = new FakeClock(Date.parse('2026-12-01T10:00:00Z'));
    const host = new TriggerHost({
      dataDir,
      secretBox: createFileKeySecretBox(dataDir),
      port: 0,
      watchStore: false,
      clock,
      policy: { machine: null, env: null },
    });
    await host.start();
    hosts.push(host);
    clock.advanceTo('2026-12-01T13:30:00Z');
    await host.settled();
    expect(runRequests(dataDir)).toEqual([]);
    expect(Object.hasOwn(host.status().triggers, 'watcher/hourly')).toBe(false);

    await api.resumeTrigger({ triggerId: 'watcher/hourly' });
    await host.reload();
    clock.advanceTo('2026-12-01T15:30:00Z');
    await host.settled();
    expect(runRequests(dataDir).length).toBeGreaterThan(0);
  });
});
