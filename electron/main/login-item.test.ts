import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/test-api';
import {
  autostartEntry,
  BACKGROUND_SWITCH,
  desktopExecArgument,
  LOGIN_ITEM_ARGS,
  type LoginItemApp,
  loginItemFor,
  startedInBackground,
} from './login-item';

/**
 * A faked `app` that keeps one login item as Electron does on `platform`: Windows writes a Run
 * entry with the path and args, and reads `openAtLogin` true only when the args asked about
 * (default: none) are that entry's (login_item_settings_win / app.md); macOS ignores args.
 */
function fakeApp(platform: NodeJS.Platform = 'linux') {
  const settings = { openAtLogin: false, args: [] as string[] };
  const app: LoginItemApp = {
    getLoginItemSettings: (options) => ({
      openAtLogin:
        settings.openAtLogin &&
        (platform !== 'win32' || JSON.stringify(options?.args ?? []) === JSON.stringify(settings.args)),
    }),
    setLoginItemSettings: (next) => Object.assign(settings, { args: [], ...next }),
  };
  return { app, settings };
}

describe('start at login', () => {
  it('on Linux, writes and removes an XDG autostart entry that starts the app in the background', async () => {
    const config = tempDir('apollia-autostart-');
    const item = loginItemFor({
      platform: 'linux',
      isPackaged: true,
      execPath: '/opt/Apollia Desktop/apollia-desktop',
      env: { XDG_CONFIG_HOME: config },
      app: fakeApp().app,
    });
    if (!item) throw new Error('no login item on Linux');
    const path = join(config, 'autostart', 'apollia-desktop.desktop');
    expect(await item.get()).toBe(false);
    await item.set(true);
    expect(await item.get()).toBe(true);
    expect(readFileSync(path, 'utf8')).toContain('Exec="/opt/Apollia Desktop/apollia-desktop" --background\n');
    await item.set(false);
    expect(existsSync(path)).toBe(false);
    expect(await item.get()).toBe(false);
  });

  it('names the AppImage, not its transient mount', async () => {
    const config = tempDir('apollia-autostart-');
    const item = loginItemFor({
      platform: 'linux',
      isPackaged: true,
      execPath: '/tmp/.mount_Apol123/apollia-desktop',
      env: { XDG_CONFIG_HOME: config, APPIMAGE: '/home/ada/Apollia.AppImage' },
      app: fakeApp().app,
    });
    await item?.set(true);
    expect(readFileSync(join(config, 'autostart', 'apollia-desktop.desktop'), 'utf8')).toContain(
      'Exec="/home/ada/Apollia.AppImage" --background',
    );
  });

  it('on macOS and Windows, keeps a login item with the background switch', async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const { app, settings } = fakeApp(platform);
      const item = loginItemFor({ platform, isPackaged: true, execPath: 'x', env: {}, app });
      await item?.set(true);
      expect(settings).toEqual({ openAtLogin: true, args: [BACKGROUND_SWITCH] });
      expect(await item?.get()).toBe(true);
      await item?.set(false);
      expect(await item?.get()).toBe(false);
    }
  });

  it('on Windows, reads the item back with the args it was set with (Electron compares the whole command line)', async () => {
    const { app } = fakeApp('win32');
    const item = loginItemFor({
      platform: 'win32',
      isPackaged: true,
      execPath: 'C:\\A\\Apollia Desktop.exe',
      env: {},
      app,
    });
    await item?.set(true);
    expect(app.getLoginItemSettings().openAtLogin).toBe(false); // read without args: Electron says off
    expect(await item?.get()).toBe(true);
    expect(LOGIN_ITEM_ARGS).toEqual([BACKGROUND_SWITCH]);
  });

  it('is unavailable when not packaged (electron . cannot start itself)', () => {
    expect(
      loginItemFor({ platform: 'linux', isPackaged: false, execPath: 'electron', env: {}, app: fakeApp().app }),
    ).toBeUndefined();
  });

  it('quotes the Exec path as the Desktop Entry spec says', () => {
    expect(desktopExecArgument('/opt/a "b" $c `d` \\e')).toBe('"/opt/a \\"b\\" \\$c \\`d\\` \\\\e"');
    expect(autostartEntry('/x').split('\n')).toContain('Type=Application');
  });

  it('knows a login start', () => {
    expect(startedInBackground(['/opt/x/apollia-desktop', '--background'])).toBe(true);
    expect(startedInBackground(['/opt/x/apollia-desktop'])).toBe(false);
    expect(startedInBackground(['/Applications/Apollia Desktop.app/Contents/MacOS/Apollia Desktop'], true)).toBe(true);
  });
});
