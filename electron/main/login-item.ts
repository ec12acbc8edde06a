/**
 * Start at login (opt-in, Settings): the app starts when the person logs in, in its tray without a
 * window (`--background`), so armed triggers run. macOS and Windows keep login items
 * (`app.setLoginItemSettings`); Electron has none on Linux, where it is an XDG autostart entry
 * (`~/.config/autostart/apollia-desktop.desktop`, which GNOME, KDE and the others read). No
 * `electron` import: tested with a faked `app` and a temp folder; `index.ts` passes the real ones.
 */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The switch a login start passes: no window, the tray only (quit at once if no trigger is live). */
export const BACKGROUND_SWITCH = '--background';

/** Whether this start is a login start (the switch, or macOS saying it opened the app at login). */
export function startedInBackground(argv: readonly string[], wasOpenedAtLogin = false): boolean {
  return wasOpenedAtLogin || argv.includes(BACKGROUND_SWITCH);
}

/**
 * A path as one argument of a desktop entry's `Exec` (Desktop Entry spec: double quotes, `"` `` ` `` `$` `\` escaped).
 */
export function desktopExecArgument(path: string): string {
  return `"${path.replace(/["`$\\]/g, (c) => `\\${c}`)}"`;
}

/** The XDG autostart entry that starts `executable` in the background. */
export function autostartEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Apollia Desktop',
    'Comment=Keeps armed triggers running in the tray',
    `Exec=${desktopExecArgument(executable)} ${BACKGROUND_SWITCH}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * The part of Electron's `app` used on macOS and Windows. On Windows `openAtLogin` is true only
 * when the Run entry's command line is the one asked about: `args` default to none, so the
 * `--background` the item was set with must be passed to read it (Electron's app.md,
 * `getLoginItemSettings`); macOS ignores them.
 */
export interface LoginItemApp {
  getLoginItemSettings(options?: { args?: string[] }): { openAtLogin: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void;
}

/** The arguments the login item is set, and read, with (one list for both, so they cannot drift apart). */
export const LOGIN_ITEM_ARGS: readonly string[] = [BACKGROUND_SWITCH];

/** The login item as the Api uses it (`ApiDeps.loginItem`). */
export interface LoginItem {
  get(): Promise<boolean>;
  set(on: boolean): Promise<void>;
}

/** What decides the login item here. */
export interface LoginItemFacts {
  platform: NodeJS.Platform;
  isPackaged: boolean;
  /** `process.execPath`. */
  execPath: string;
  env: Readonly<Record<string, string | undefined>>;
  app: LoginItemApp;
}

/** Where Linux's autostart entry goes. */
export function autostartPath(env: Readonly<Record<string, string | undefined>>): string {
  return join(
    env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config'),
    'autostart',
    'apollia-desktop.desktop',
  );
}

/** The login item here, or undefined where there is none to keep (not packaged: `electron .` cannot start itself). */
export function loginItemFor(facts: LoginItemFacts): LoginItem | undefined {
  if (!facts.isPackaged) return undefined;
  if (facts.platform === 'linux') {
    const path = autostartPath(facts.env);
    // An AppImage's binary lives in a mount that changes at every start: the entry names the image.
    const executable = facts.env['APPIMAGE'] || facts.execPath;
    return {
      get: () =>
        stat(path).then(
          () => true,
          () => false,
        ),
      set: async (on) => {
        if (!on) return rm(path, { force: true });
        await mkdir(join(path, '..'), { recursive: true });
        await writeFile(path, autostartEntry(executable), { mode: 0o644 });
      },
    };
  }
  if (facts.platform === 'darwin' || facts.platform === 'win32') {
    return {
      get: async () => facts.app.getLoginItemSettings({ args: [...LOGIN_ITEM_ARGS] }).openAtLogin,
      set: async (openAtLogin) => facts.app.setLoginItemSettings({ openAtLogin, args: [...LOGIN_ITEM_ARGS] }),
    };
  }
  return undefined;
}
