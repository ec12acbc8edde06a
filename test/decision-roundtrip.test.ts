/**
 * One decision model: the consent form's submission (its answers, built by the form's own pure
 * module from a draft) and the CLI's flags give the same stored state for the same answers, over
 * an agent's life: first install, an untouched update, an update with new access, an update that
 * changes an armed trigger. The stored state is asserted, not a view of it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answersFromDraft } from '../renderer/src/screens/apo/form-answers';
import type { ConsentDraft } from '../renderer/src/stores/consent-store';
import { runCliCaptured } from './helpers/cli-run';
import { packFolder } from './helpers/pack';
import { editedPackage, tempDir, testApi } from './helpers/test-api';
import { ActivityLog } from '../electron/core/activity/activity-log';
import type { CoreApi } from '../electron/core/api';
import { sharedChecker } from '../electron/core/bounded/index';

beforeAll(() => sharedChecker().warm(), 120_000);

const WATCHER = new URL('./fixtures/apo/watcher', import.meta.url).pathname;

/** The watcher fixture at `version`, edited. */
function watcher(version: string, edit: (toml: string) => string = (t) => t): string {
  const dir = editedPackage(WATCHER, (toml) => edit(toml.replace('version = "0.1.0"', `version = "${version}"`)));
  const path = join(tempDir('apollia-rt-'), `watcher-${version}.apo`);
  writeFileSync(path, packFolder(dir));
  return path;
}

const withFileRead = (toml: string) =>
  toml.replace(
    'access = ["file_list", "pkg:watcher/tidy_folder"]',
    'access = ["file_list", "pkg:watcher/tidy_folder", "file_read"]',
  );
const tenMinutes = (toml: string) => toml.replace('every = "1h"', 'every = "10m"');

/** What the store holds of the person's decisions, without times, ids and ciphertexts (random per run). */
function decisionsStored(dataDir: string) {
  const state = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
  const agents = Object.fromEntries(
    Object.values(state.agents as Record<string, { id: string; access: unknown }>).map((a) => [a.id, a.access]),
  );
  const triggers = Object.fromEntries(
    Object.values(
      state.triggers as Record<
        string,
        { id: string; armed: boolean; folder: string | null; secretOrigin: string | null; secretRef: string | null }
      >,
    ).map((t) => [
      t.id,
      { armed: t.armed, folder: t.folder, secretOrigin: t.secretOrigin, secret: t.secretRef !== null },
    ]),
  );
  const versions = Object.values(state.packages as Record<string, { name: string; version: string }>).map(
    (p) => `${p.name} ${p.version}`,
  );
  return { versions, agents, triggers };
}

/** The sealed secret of a trigger, as stored (its ciphertext): the same bytes mean the same secret, never replaced. */
function sealedSecret(dataDir: string, triggerId: string): string | null {
  const state = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
  const ref = state.triggers[triggerId]?.secretRef;
  return ref ? (state.webhookSecrets[ref] ?? null) : null;
}

async function formInstall(
  api: CoreApi,
  path: string,
  draft: Pick<ConsentDraft, 'access' | 'triggers'>,
): Promise<void> {
  const source = await api.registerSource(path, 'open-file');
  if (!source.ok) throw new Error(source.error.message);
  const inspected = await api.inspect({ sourceId: source.value.id });
  if (!inspected.ok) throw new Error(inspected.error.message);
  const done = await api.install({ sourceId: source.value.id, decisions: answersFromDraft(draft) });
  if (!done.ok) throw new Error(`${done.error.code}: ${done.error.message}`);
}

async function cli(dataDir: string, args: string[]): Promise<void> {
  const run = await runCliCaptured(['--data-dir', dataDir, ...args]);
  if (run.code !== 0) throw new Error(`${args.join(' ')}: ${run.stderr}`);
}

describe('the form and the CLI store the same decisions for the same answers', () => {
  it('first install, untouched update, update with new access, update with a changed armed trigger', async () => {
    const folder = join(tempDir('apollia-rt-folder-'), 'inbox');
    mkdirSync(folder);
    const { api, dataDir: formDir } = testApi({ folders: [folder] });
    const cliDir = join(tempDir('apollia-rt-cli-'), 'data');
    const pick = await api.pickWatchFolder();
    if (!pick.ok || !pick.value) throw new Error('no folder');

    // 1. First install: leave one entry out, arm the schedule, the watched folder and the webhook.
    await formInstall(api, watcher('0.1.0'), {
      access: { tidy: { file_list: false } },
      triggers: {
        hourly: { arm: true },
        'on-change': { arm: true, folderId: pick.value.folderId, displayPath: folder },
        'on-call': { arm: true },
      },
    });
    await cli(cliDir, [
      'install',
      watcher('0.1.0'),
      '--yes',
      '--withhold',
      'file_list',
      '--arm',
      'hourly',
      '--arm',
      `on-change=${folder}`,
      '--arm',
      'on-call',
    ]);
    const first = decisionsStored(formDir);
    expect(decisionsStored(cliDir)).toEqual(first);
    expect(first.agents['watcher/tidy']).toEqual([
      { entry: 'file_list', family: 'read_personal', granted: false, permission: 'deny' },
      // The package's own code asks first: only its author says what it does.
      { entry: 'pkg:watcher/tidy_folder', family: 'write_or_delete', granted: true, permission: 'ask' },
    ]);
    expect(first.triggers).toEqual({
      'watcher/hourly': { armed: true, folder: null, secretOrigin: null, secret: false },
      'watcher/on-change': { armed: true, folder, secretOrigin: null, secret: false },
      'watcher/on-call': { armed: true, folder: null, secretOrigin: 'made', secret: true },
    });
    const formSecret = sealedSecret(formDir, 'watcher/on-call');
    const cliSecret = sealedSecret(cliDir, 'watcher/on-call');

    // 2. An update, untouched: everything kept, the same folder, the very same secret.
    await formInstall(api, watcher('0.2.0'), { access: {}, triggers: {} });
    await cli(cliDir, ['install', watcher('0.2.0'), '--yes']);
    const second = decisionsStored(formDir);
    expect(decisionsStored(cliDir)).toEqual(second);
    expect({ ...second, versions: [] }).toEqual({ ...first, versions: [] });
    expect(second.versions).toEqual(['watcher 0.2.0']);
    expect([sealedSecret(formDir, 'watcher/on-call'), sealedSecret(cliDir, 'watcher/on-call')]).toEqual([
      formSecret,
      cliSecret,
    ]);

    // 3. An update asking for something new: granted only where the person says so.
    await formInstall(api, watcher('0.3.0', withFileRead), { access: { tidy: { file_read: true } }, triggers: {} });
    await cli(cliDir, ['install', watcher('0.3.0', withFileRead), '--yes', '--grant', 'file_read']);
    const third = decisionsStored(formDir);
    expect(decisionsStored(cliDir)).toEqual(third);
    expect(third.agents['watcher/tidy']).toContainEqual({
      entry: 'file_read',
      family: 'read_personal',
      granted: true,
      permission: 'ask',
    });
    expect(third.triggers).toEqual(first.triggers);

    // 4. An update changing an armed schedule: turned off, said why in the activity record; the rest kept.
    await formInstall(
      api,
      watcher('0.4.0', (t) => tenMinutes(withFileRead(t))),
      { access: {}, triggers: {} },
    );
    await cli(cliDir, ['install', watcher('0.4.0', (t) => tenMinutes(withFileRead(t))), '--yes']);
    const fourth = decisionsStored(formDir);
    expect(decisionsStored(cliDir)).toEqual(fourth);
    expect(fourth.triggers['watcher/hourly']).toEqual({
      armed: false,
      folder: null,
      secretOrigin: null,
      secret: false,
    });
    expect(fourth.triggers['watcher/on-change']).toEqual(first.triggers['watcher/on-change']);
    expect([sealedSecret(formDir, 'watcher/on-call'), sealedSecret(cliDir, 'watcher/on-call')]).toEqual([
      formSecret,
      cliSecret,
    ]);
    for (const dir of [formDir, cliDir]) {
      const events = await new ActivityLog(dir).list({ limit: 50 });
      expect(events.find((e) => e.kind === 'disarm')).toMatchObject({
        trigger: 'watcher/hourly',
        detail:
          'turned off by the update to 0.4.0: it changed in this version (every hour, starting tidy with “Tidy the folder.” → every 10 minutes, starting tidy with “Tidy the folder.”)',
      });
    }
    const shown = await runCliCaptured(['--data-dir', cliDir, 'activity']);
    expect(shown.stdout).toContain('turned off by the update to 0.4.0');
  });
});

describe("the dashboard's switch decides with the same function", () => {
  it('granting a package tool again after revoking it asks first, unless the person chose otherwise; a denied tool cannot be granted', async () => {
    const { api, dataDir } = testApi();
    await formInstall(api, watcher('0.1.0'), { access: {}, triggers: {} });
    const permission = () =>
      JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8')).agents['watcher/tidy'].access.map(
        (a: { entry: string; permission: string }) => `${a.entry}=${a.permission}`,
      );
    expect(permission()).toEqual(['file_list=ask', 'pkg:watcher/tidy_folder=ask']);
    expect(
      (await api.setToolAccess({ agentId: 'watcher/tidy', tool: 'pkg:watcher/tidy_folder', granted: false })).ok,
    ).toBe(true);
    expect(permission()).toEqual(['file_list=ask', 'pkg:watcher/tidy_folder=deny']);
    expect(
      (await api.setToolAccess({ agentId: 'watcher/tidy', tool: 'pkg:watcher/tidy_folder', granted: true })).ok,
    ).toBe(true);
    expect(permission()).toEqual(['file_list=ask', 'pkg:watcher/tidy_folder=ask']);
    await api.denyTool({ tool: 'file_list' });
    await api.setToolAccess({ agentId: 'watcher/tidy', tool: 'file_list', granted: false });
    const refused = await api.setToolAccess({ agentId: 'watcher/tidy', tool: 'file_list', granted: true });
    expect(refused.ok ? null : refused.error.code).toBe('install.denied_tool');
  });
});
