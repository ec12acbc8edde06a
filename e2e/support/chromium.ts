/**
 * How this project starts Chromium outside Electron (e2e in browser mode, the render bench):
 * Debian's binary, and TOOLCHAIN.md's flags — without the networking ones Chromium floods the
 * closed network of the build machines.
 */

/** The Chromium binary: `CHROMIUM_PATH`, else Debian's. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Launch flags for headless Chromium here and in CI. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
