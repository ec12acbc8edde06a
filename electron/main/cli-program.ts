/**
 * What the app shows a person as its command line (`AppInfo.cliProgram`): a program that works
 * where it runs, never `npx` of a name (outside the repository npx fetches whoever owns the name on
 * the registry). The installed app's binary is the command (`cli-dispatch.ts`):
 * - Linux, deb: `/usr/bin/apollia-desktop`, linked by the package to `/opt/Apollia Desktop/apollia-desktop`;
 * - Linux, any other place the binary was unpacked: its path;
 * - macOS: the binary inside the bundle, `/Applications/Apollia Desktop.app/Contents/MacOS/Apollia Desktop`;
 * - Windows: none. The app is a GUI-subsystem binary: a console does not wait for it nor show its
 *   output, so the screens say to install the command line (README "Command line") instead;
 * - an AppImage: none. Its path is a mounted image that changes at every start.
 * - macOS, translocated (opened from Downloads or a disk image without being moved: Gatekeeper
 *   runs it from a random read-only copy under /private/var/folders/…/AppTranslocation/): none,
 *   that path is gone at the next start; the app says to move it into Applications.
 * Not packaged (`npm start`): `apollia-desktop`, the repository's `npm link`ed CLI.
 * No `electron` import: unit-tested with plain values.
 */
import { CLI_NAME, shellQuoted } from '../../shared/base/command-line';

/**
 * Where the deb installs the binary it links as `/usr/bin/apollia-desktop` (electron-builder:
 * `/opt/<productName>/<executableName>`).
 */
export const DEB_BINARY = '/opt/Apollia Desktop/apollia-desktop';

/** The facts the answer depends on. */
export interface ProgramFacts {
  platform: NodeJS.Platform;
  isPackaged: boolean;
  /** `process.execPath`. */
  execPath: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * Whether macOS runs this binary from an App Translocation copy: a random, read-only mount under
 * the per-user temporary folder (`/private/var/folders/<xx>/<id>/T/AppTranslocation/<uuid>/d/…`,
 * or the same without `/private`), made for an app opened where it was downloaded.
 */
export function isTranslocated(platform: NodeJS.Platform, execPath: string): boolean {
  return platform === 'darwin' && /^(?:\/private)?\/var\/folders\/.+\/AppTranslocation\//.test(execPath);
}

/** What the app says once when it runs translocated (`isTranslocated`). */
export const TRANSLOCATION_WORDS =
  'Apollia Desktop is running from a temporary read-only copy that macOS made because the app was opened where it was downloaded (App Translocation). Its command line path changes at every start, and updates and Start at login do not work from there. Quit it, move Apollia Desktop.app into the Applications folder with the Finder, and open it from there.';

/** The program a person types here to run the app's command line, or null where there is none. */
export function cliProgramHere(facts: ProgramFacts): string | null {
  if (!facts.isPackaged) return CLI_NAME;
  if (facts.platform === 'win32') return null;
  if (isTranslocated(facts.platform, facts.execPath)) return null;
  if (facts.platform === 'linux') {
    if (facts.env['APPIMAGE']) return null;
    if (facts.execPath === DEB_BINARY) return CLI_NAME;
  }
  return shellQuoted(facts.execPath);
}
