/**
 * Starts without a display (README "The command line of the installed app"). Electron picks
 * Chromium's Ozone platform in `PreSandboxStartup`, before the main script runs, so a switch
 * appended from JavaScript is too late, and Chromium's `--headless` is a `chrome/` switch Electron
 * does not build: the switches must be on argv. The deb's `/usr/bin/apollia-desktop`
 * (resources/linux/apollia-desktop-launcher.sh) adds them when neither `DISPLAY` nor
 * `WAYLAND_DISPLAY` is set, and the systemd unit's `ExecStart` names them (test/linux-launcher.test.ts
 * holds the three to this list). No `electron` import: `index.ts` passes `app.commandLine`.
 */

/**
 * The switches of a display-less start: Ozone's headless platform (no X11 or Wayland connection),
 * and no GPU process probing a driver that is not there.
 */
export const HEADLESS_SWITCHES: readonly string[] = ['--ozone-platform=headless', '--disable-gpu'];

/** The part of `app.commandLine` read here. */
export interface SwitchReader {
  getSwitchValue(name: string): string;
}

/** True when Chromium runs on Ozone's headless platform: no window can show. */
export function startedHeadless(commandLine: SwitchReader): boolean {
  return commandLine.getSwitchValue('ozone-platform') === 'headless';
}

/**
 * What the app says, and exits 1 with, when started without a command on the headless platform: a
 * window there never shows (and `new BrowserWindow()` can hang), so the app does not pretend to run.
 */
export const HEADLESS_WINDOW_REFUSAL =
  'Apollia Desktop: there is no display here, so the window cannot open. Run a command instead ' +
  '(`apollia-desktop --help`), or start the app from a desktop session.\n';
