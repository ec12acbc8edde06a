/**
 * The app's integrity check and the trigger host take one path (DESIGN.md "Triggers at run time": a changed package's
 * triggers are paused by integrity, armed, their folder and secret kept; `triggers/integrity-pause.ts`): the check at
 * the window's start (`verifyInstalled`) pauses, never disarms; the mark is recorded once, whoever saw the change
 * first; the host neither fires nor makes live what the mark pauses; a reinstall of the installed bytes resumes every
 * paused trigger with its folder and its secret, the lift recorded.
 */
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, testApi } from '../../../test/helpers/test-api';
import { packFolder } from '../../../test/helpers/pack';
import { activity, FakeClock, runRequests } from '../../../test/helpers/trigger-host';
import { sharedChecker } from '../bounded/index';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { TriggerHost } from '../triggers/trigger-host';
import type { CoreApi } from '../api';

beforeAll(() => sharedChecker().warm(), 120_000);
const hosts: TriggerHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
});

const WATCHER = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;
const ALL = ['watcher/hourly', 'watcher/on-call', 'watcher/on-change'];
const state = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
const changedEvents = async (dataDir: string) =>
  (await activity(dataDir)).filter((e) => e.kind === 'integrity_changed');

async function inspectedWatcher(api: CoreApi, apo: string): Promise<string> {
  const handle = await api.registerSource(apo, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const inspected = await api.inspect({ sourceId: handle.value.id });
  if (!inspected.ok) throw new Error(inspected.error.message);
  return handle.value.id;
}

/** The watcher installed with its three triggers armed (a folder watched, a webhook's secret made), then tampered. */
async function armedThenTampered() {
  const folder = tempDir('apollia-watched-');
  const { api, dataDir } = testApi({ folders: [folder] });
  const apo = join(tempDir('apollia-pause-apo-'), 'watcher.apo');
  writeFileSync(apo, packFolder(WATCHER));
  const picked = await api.pickWatchFolder();
  if (!picked.ok || !picked.value) throw new Error('no folder');
  const installed = await api.install({
    sourceId: await inspectedWatcher(api, apo),
    decisions: {
      agents: {},
      triggers: {
        hourly: { armed: true },
        'on-call': { armed: true },
        'on-change': { armed: true, folderId: picked.value.folderId },
      },
    },
  });
  if (!installed.ok) throw new Error(installed.error.message);
  const armed = state(dataDir);
  const [version] = readdirSync(join(dataDir, 'packages', 'watcher'));
  appendFileSync(join(dataDir, 'packages', 'watcher', version as string, 'tools', 'tidy.py'), '\nimport os\n');
  return { api, dataDir, apo, folder, armed };
}

function hostOf(dataDir: string, clock: FakeClock): TriggerHost {
  const host = new TriggerHost({
    dataDir,
    secretBox: createFileKeySecretBox(dataDir),
    port: 0,
    watchStore: false,
    clock,
    policy: { machine: null, env: null },
  });
  hosts.push(host);
  return host;
}

describe('the app’s integrity check pauses a changed package’s triggers by integrity', () => {
  it('keeps each armed, with its folder and its secret; records it once; the host neither fires it nor takes it live', async () => {
    const { api, dataDir, folder, armed } = await armedThenTampered();
    const verified = await api.verifyInstalled();
    if (!verified.ok) throw new Error(verified.error.message);
    expect(verified.value.map((v) => [v.name, v.integrity.state, v.newlyChanged, v.paused])).toEqual([
      ['watcher', 'changed', true, ALL],
    ]);
    const after = state(dataDir);
    // Disarming would turn each off, forget the folder and delete the webhook's secret.
    expect(ALL.map((id) => after.triggers[id].armed)).toEqual([true, true, true]);
    expect(after.triggers['watcher/on-change'].folder).toBe(armed.triggers['watcher/on-change'].folder);
    expect(after.triggers['watcher/on-change'].folder).toContain(folder.split('/').pop());
    const secretRef = armed.triggers['watcher/on-call'].secretRef;
    expect(secretRef).toEqual(expect.any(String));
    expect(after.triggers['watcher/on-call'].secretRef).toBe(secretRef);
    expect(after.webhookSecrets[secretRef]).toEqual(armed.webhookSecrets[secretRef]);
    expect(after.packageTrust.watcher.integrity).toMatchObject({ state: 'changed', changed: ['tools/tidy.py'] });
    expect(after.packageTrust.watcher.integrity.disarmed).toBeUndefined();

    // The dashboard says who paused each (the agent's triggers): integrity, the trigger still armed.
    const dashboard = await api.dashboard();
    if (!dashboard.ok) throw new Error(dashboard.error.message);
    const rows = dashboard.value.agents.find((a) => a.id === 'watcher/tidy')?.triggers ?? [];
    expect(
      rows.map((t) => [t.id, t.armed, t.integrity?.startsWith('paused by integrity: the files of watcher')]),
    ).toEqual([
      ['watcher/hourly', true, true],
      ['watcher/on-change', true, true],
      ['watcher/on-call', true, true],
    ]);
    // Seen again (the dashboard opens, `verify` again): nothing new, nothing recorded twice.
    const again = await api.verifyInstalled();
    expect(again.ok && again.value.map((v) => [v.newlyChanged, v.paused])).toEqual([[false, ALL]]);

    // The app's trigger host: the hourly due at 11:00 does not fire, nothing of the package is live, and the host,
    // seeing the mark the check set, records nothing more.
    const clock = new FakeClock(Date.parse('2026-12-01T10:30:00Z'));
    const host = hostOf(dataDir, clock);
    await host.start();
    expect(Object.keys(host.status().triggers)).toEqual([]);
    clock.advanceTo('2026-12-01T11:30:00Z');
    await host.settled();
    expect(runRequests(dataDir)).toEqual([]);
    await host.stop();
    const events = await changedEvents(dataDir);
    expect(events.map((e) => [e.package, e.outcome, e.detail])).toEqual([
      [
        'watcher',
        'refused',
        `the files of watcher changed on this computer since install (1 changed: tools/tidy.py); triggers paused by integrity, still armed: ${ALL.join(', ')} (a reinstall of the installed bytes resumes them)`,
      ],
    ]);
    // Arming and granting it are refused until it is reinstalled; disarming is the person's and still works.
    const arm = await api.armTrigger({ triggerId: 'watcher/hourly' });
    expect(arm.ok === false && arm.error.code).toBe('package.changed');
    const grant = await api.setToolAccess({ agentId: 'watcher/tidy', tool: 'file_list', granted: true });
    expect(grant.ok === false && grant.error.code).toBe('package.changed');
  });

  it('a reinstall of the installed bytes resumes them with the same folder and secret, the lift recorded; the host fires again', async () => {
    const { api, dataDir, apo, armed } = await armedThenTampered();
    expect((await api.verifyInstalled()).ok).toBe(true);
    const reinstalled = await api.install({
      sourceId: await inspectedWatcher(api, apo),
      decisions: { agents: {}, triggers: {} },
    });
    if (!reinstalled.ok) throw new Error(reinstalled.error.message);
    expect([reinstalled.value.outcome, [...reinstalled.value.armed].sort(), reinstalled.value.webhookSecrets]).toEqual([
      'reinstalled',
      ALL,
      [],
    ]);
    const after = state(dataDir);
    expect(after.packageTrust.watcher.integrity.state).toBe('ok');
    const dashboard = await api.dashboard();
    expect(dashboard.ok && dashboard.value.agents[0]?.triggers.map((t) => t.integrity ?? null)).toEqual([
      null,
      null,
      null,
    ]);
    for (const id of ALL) {
      expect(after.triggers[id].armed).toBe(true);
      expect(after.triggers[id].folder).toBe(armed.triggers[id].folder);
      expect(after.triggers[id].secretRef).toBe(armed.triggers[id].secretRef);
      expect(after.triggers[id].armedAt).toBe(armed.triggers[id].armedAt);
    }
    const lifted = (await activity(dataDir)).filter((e) => e.kind === 'update');
    expect(lifted.map((e) => e.detail)).toEqual([
      expect.stringContaining(`the pause by integrity is lifted: ${ALL.join(', ')} resume`),
    ]);
    // Nothing else armed or disarmed by the reinstall.
    expect((await activity(dataDir)).filter((e) => e.kind === 'arm' || e.kind === 'disarm').length).toBe(3);

    const clock = new FakeClock(Date.parse('2026-12-01T10:30:00Z'));
    const host = hostOf(dataDir, clock);
    await host.start();
    expect(Object.keys(host.status().triggers).sort()).toEqual(ALL);
    clock.advanceTo('2026-12-01T11:30:00Z');
    await host.settled();
    expect(runRequests(dataDir).map((r) => r.trigger)).toEqual(['watcher/hourly']);
  });

  it('after the trigger host saw the change first: the app’s check disarms nothing and records nothing more', async () => {
    const { api, dataDir } = await armedThenTampered();
    const clock = new FakeClock(Date.parse('2026-12-01T10:30:00Z'));
    const host = hostOf(dataDir, clock);
    await host.start();
    await host.settled();
    expect(Object.keys(host.status().triggers)).toEqual([]);
    await host.stop();
    expect(state(dataDir).packageTrust.watcher.integrity.state).toBe('changed');
    const verified = await api.verifyInstalled();
    expect(verified.ok && verified.value.map((v) => [v.newlyChanged, v.paused])).toEqual([[false, ALL]]);
    expect(ALL.map((id) => state(dataDir).triggers[id].armed)).toEqual([true, true, true]);
    expect((await changedEvents(dataDir)).length).toBe(1);
  });

  it('a host already running takes the mark the app’s check set: the triggers leave the live set and do not fire', async () => {
    const folder = tempDir('apollia-watched-');
    const { api, dataDir } = testApi({ folders: [folder] });
    const apo = join(tempDir('apollia-pause-apo-'), 'watcher.apo');
    writeFileSync(apo, packFolder(WATCHER));
    const installed = await api.install({
      sourceId: await inspectedWatcher(api, apo),
      decisions: { agents: {}, triggers: { hourly: { armed: true }, 'on-call': { armed: true } } },
    });
    if (!installed.ok) throw new Error(installed.error.message);
    const clock = new FakeClock(Date.parse('2026-12-01T10:30:00Z'));
    const host = hostOf(dataDir, clock);
    await host.start();
    expect(Object.keys(host.status().triggers).sort()).toEqual(['watcher/hourly', 'watcher/on-call']);
    const [version] = readdirSync(join(dataDir, 'packages', 'watcher'));
    appendFileSync(join(dataDir, 'packages', 'watcher', version as string, 'tools', 'tidy.py'), '\nimport os\n');
    expect((await api.verifyInstalled()).ok).toBe(true);
    // The store changed (the app's host watches it; this one is told): the mark alone pauses, before any fire.
    await host.reload();
    expect(Object.keys(host.status().triggers)).toEqual([]);
    clock.advanceTo('2026-12-01T11:30:00Z');
    await host.settled();
    expect(runRequests(dataDir)).toEqual([]);
    await host.stop();
    expect((await changedEvents(dataDir)).length).toBe(1);
  });
});
