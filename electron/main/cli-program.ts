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

/** The program a person types here to run the app's command line, or null where there is none. */
export function cliProgramHere(facts: ProgramFacts): string | null {
  if (!facts.isPackaged) return CLI_NAME;
  if (facts.platform === 'win32') return null;
  if (facts.platform === 'linux') {
    if (facts.env['APPIMAGE']) return null;
    if (facts.execPath === DEB_BINARY) return CLI_NAME;
  }
  return shellQuoted(facts.execPath);
}
