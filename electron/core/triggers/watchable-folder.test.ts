import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/pack';
import { RECORD_FILES, tempDir, testApi, treeHash } from '../../../test/helpers/test-api';
import type { CoreApi } from '../api';
import { folderOverlap, resolveWatchFolder, watchFolderRefusal } from './watchable-folder';

const WATCHER_DIR = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;

describe('folderOverlap (pure, every platform)', () => {
  it.each([
    ['/', '/home/ann/.config/Apollia Desktop', 'linux', 'root'],
    ['/home/ann/.config/Apollia Desktop', '/home/ann/.config/Apollia Desktop', 'linux', 'data'],
    ['/home/ann/.config/Apollia Desktop/packages', '/home/ann/.config/Apollia Desktop', 'linux', 'inside'],
    ['/home/ann', '/home/ann/.config/Apollia Desktop', 'linux', 'contains'],
    ['/home', '/home/ann/.config/Apollia Desktop', 'linux', 'contains'],
    ['/home/ann/Documents', '/home/ann/.config/Apollia Desktop', 'linux', null],
    ['/home/ann/.config/Apollia Desktop2', '/home/ann/.config/Apollia Desktop', 'linux', null],
    ['/home/ann/.config/Apollia', '/home/ann/.config/Apollia Desktop', 'linux', null],
    // Linux file systems tell case apart: another folder.
    ['/home/ann/.config/apollia desktop', '/home/ann/.config/Apollia Desktop', 'linux', null],
    // macOS folds case by default: the same folder.
    [
      '/users/ann/library/application support/apollia desktop',
      '/Users/ann/Library/Application Support/Apollia Desktop',
      'darwin',
      'data',
    ],
    ['/USERS/ANN', '/Users/ann/Library/Application Support/Apollia Desktop', 'darwin', 'contains'],
    ['/Users/ann/Desktop', '/Users/ann/Library/Application Support/Apollia Desktop', 'darwin', null],
    ['C:\\', 'C:\\Users\\Ann\\AppData\\Roaming\\Apollia Desktop', 'win32', 'root'],
    [
      'c:\\users\\ann\\appdata\\roaming\\apollia desktop\\runs',
      'C:\\Users\\Ann\\AppData\\Roaming\\Apollia Desktop',
      'win32',
      'inside',
    ],
    ['C:\\Users\\ANN', 'C:\\Users\\Ann\\AppData\\Roaming\\Apollia Desktop', 'win32', 'contains'],
    [
      'D:\\Users\\Ann\\AppData\\Roaming\\Apollia Desktop',
      'C:\\Users\\Ann\\AppData\\Roaming\\Apollia Desktop',
      'win32',
      null,
    ],
    ['C:\\Users\\Ann\\Documents', 'C:\\Users\\Ann\\AppData\\Roaming\\Apollia Desktop', 'win32', null],
  ] as const)('%s against %s on %s: %s', (folder, dataDir, platform, expected) => {
    expect(folderOverlap(folder, dataDir, platform)).toBe(expected);
  });

  it('says in words why each is refused, naming the data folder', () => {
    const data = '/home/ann/.config/Apollia Desktop';
    expect(watchFolderRefusal('/', data, 'linux')).toBe(
      '/ is the top of the file system: a trigger cannot watch the whole disk. Pick a folder of your own.',
    );
    expect(watchFolderRefusal(data, data, 'linux')).toBe(
      `${data} is Apollia Desktop's own data folder: the app's own writes would set the trigger off. Pick another folder.`,
    );
    expect(watchFolderRefusal(`${data}/runs`, data, 'linux')).toBe(
      `${data}/runs is inside Apollia Desktop's own data folder (${data}): the app's own writes would set the trigger off. Pick a folder outside it.`,
    );
    expect(watchFolderRefusal('/home/ann', data, 'linux')).toBe(
      `/home/ann contains Apollia Desktop's own data folder (${data}): the app's own writes would set the trigger off. Pick a folder inside it instead, such as your Documents folder.`,
    );
    expect(watchFolderRefusal('/home/ann/Documents', data, 'linux')).toBeNull();
  });
});

describe('resolveWatchFolder (real files)', () => {
  it('answers the real path of a link, and refuses a link that leads into the data folder', async () => {
    const dataDir = join(tempDir('apollia-wf-'), 'data');
    mkdirSync(join(dataDir, 'packages'), { recursive: true });
    const real = join(tempDir('apollia-wf-real-'), 'Invoices');
    mkdirSync(real);
    const links = tempDir('apollia-wf-links-');
    symlinkSync(real, join(links, 'shortcut'));
    symlinkSync(join(dataDir, 'packages'), join(links, 'lure'));
    expect(await resolveWatchFolder(join(links, 'shortcut'), dataDir)).toBe(real);
    await expect(resolveWatchFolder(join(links, 'lure'), dataDir)).rejects.toMatchObject({
      code: 'trigger.folder_forbidden',
      message: expect.stringContaining('is inside Apollia Desktop'),
    });
    await expect(resolveWatchFolder(join(links, 'missing'), dataDir)).rejects.toMatchObject({
      code: 'folder.not_found',
    });
  });

  it('refuses a folder around a data folder that does not exist yet', async () => {
    const parent = tempDir('apollia-wf-');
    await expect(resolveWatchFolder(parent, join(parent, 'not-made', 'data'))).rejects.toMatchObject({
      code: 'trigger.folder_forbidden',
      message: expect.stringContaining('contains Apollia Desktop'),
    });
  });
});

async function installedWatcher(folders: string[]): Promise<{ api: CoreApi; dataDir: string }> {
  const { api, dataDir } = testApi({ folders });
  const apo = join(tempDir('apollia-apo-'), 'watcher.apo');
  writeFileSync(apo, packFolder(WATCHER_DIR));
  const handle = await api.registerSource(apo, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  await api.inspect({ sourceId: handle.value.id });
  const done = await api.install({ sourceId: handle.value.id, decisions: { agents: {}, triggers: {} } });
  if (!done.ok) throw new Error(done.error.message);
  return { api, dataDir };
}

describe('watch folders through the Api', () => {
  it('refuses to pick the data folder, a folder inside it, its parent and the root, by code and in words', async () => {
    const probe = testApi();
    const dataDir = probe.dataDir;
    mkdirSync(join(dataDir, 'packages'));
    const picks = [dataDir, join(dataDir, 'packages'), dirname(dataDir), '/'];
    const { api } = testApi({ dataDir, folders: picks });
    const before = treeHash(dataDir);
    const answers = [];
    for (let i = 0; i < picks.length; i++) answers.push(await api.pickWatchFolder());
    expect(answers.map((a) => (a.ok ? 'ok' : a.error.code))).toEqual(Array(4).fill('trigger.folder_forbidden'));
    expect(answers.map((a) => (a.ok ? '' : a.error.message))).toEqual([
      `${dataDir} is Apollia Desktop's own data folder: the app's own writes would set the trigger off. Pick another folder.`,
      `${dataDir}/packages is inside Apollia Desktop's own data folder (${dataDir}): the app's own writes would set the trigger off. Pick a folder outside it.`,
      `${dirname(dataDir)} contains Apollia Desktop's own data folder (${dataDir}): the app's own writes would set the trigger off. Pick a folder inside it instead, such as your Documents folder.`,
      '/ is the top of the file system: a trigger cannot watch the whole disk. Pick a folder of your own.',
    ]);
    expect(treeHash(dataDir)).toBe(before);
  });

  it('stores and shows the real path of a picked link, never the link', async () => {
    const real = join(tempDir('apollia-real-'), 'Invoices');
    mkdirSync(real);
    const link = join(tempDir('apollia-links-'), 'invoices-shortcut');
    symlinkSync(real, link);
    const { api, dataDir } = await installedWatcher([link]);
    const picked = await api.pickWatchFolder();
    expect(picked.ok && picked.value?.displayPath).toBe(real);
    if (!picked.ok || !picked.value) throw new Error('no folder');
    const armed = await api.armTrigger({ triggerId: 'watcher/on-change', folderId: picked.value.folderId });
    expect(armed.ok && armed.value.trigger.folder).toBe(real);
    expect(armed.ok && armed.value.trigger.words).toBe(`When ${real} changes (subfolders too)`);
    expect(JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8')).triggers['watcher/on-change'].folder).toBe(
      real,
    );
  });

  it('refuses to arm with a folder swapped for a link into the data folder since it was picked; nothing written', async () => {
    const inbox = join(tempDir('apollia-real-'), 'Inbox');
    mkdirSync(inbox);
    const { api, dataDir } = await installedWatcher([inbox, inbox]);
    const first = await api.pickWatchFolder();
    if (!first.ok || !first.value) throw new Error('no folder');
    renameSync(inbox, `${inbox}-aside`);
    symlinkSync(join(dataDir, 'packages'), inbox);
    const before = treeHash(dataDir);
    const armed = await api.armTrigger({ triggerId: 'watcher/on-change', folderId: first.value.folderId });
    expect(armed).toMatchObject({
      ok: false,
      error: {
        code: 'trigger.folder_forbidden',
        message: `${join(dataDir, 'packages')} is inside Apollia Desktop's own data folder (${dataDir}): the app's own writes would set the trigger off. Pick a folder outside it.`,
      },
    });
    expect(treeHash(dataDir)).toBe(before);
  });

  it('refuses an install arming a folder that has become a link elsewhere (folder.changed); nothing written', async () => {
    const inbox = join(tempDir('apollia-real-'), 'Inbox');
    mkdirSync(inbox);
    const elsewhere = tempDir('apollia-elsewhere-');
    const { api, dataDir } = testApi({ folders: [inbox] });
    const picked = await api.pickWatchFolder();
    if (!picked.ok || !picked.value) throw new Error('no folder');
    renameSync(inbox, `${inbox}-aside`);
    symlinkSync(elsewhere, inbox);
    const apo = join(tempDir('apollia-apo-'), 'watcher.apo');
    writeFileSync(apo, packFolder(WATCHER_DIR));
    const handle = await api.registerSource(apo, 'open-file');
    if (!handle.ok) throw new Error(handle.error.message);
    await api.inspect({ sourceId: handle.value.id });
    const before = treeHash(dataDir, RECORD_FILES);
    const done = await api.install({
      sourceId: handle.value.id,
      decisions: { agents: {}, triggers: { 'on-change': { armed: true, folderId: picked.value.folderId } } },
    });
    expect(done).toMatchObject({
      ok: false,
      error: {
        code: 'folder.changed',
        message: `${inbox} has changed since you picked it (it now leads to ${elsewhere}): pick the folder again.`,
      },
    });
    expect(treeHash(dataDir, RECORD_FILES)).toBe(before);
  });
});
