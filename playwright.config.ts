/**
 * e2e (DESIGN.md "Testing"): the same specs run two ways.
 * - An Electron binary is installed (a developer's machine): each test launches the built app with
 *   `_electron.launch` (see `e2e/support/app.ts`).
 * - No Electron (this build machine, CI): the built renderer runs in Debian's Chromium against
 *   `e2e/harness/server.ts`, which serves the real core Api over HTTP; each worker starts its own
 *   harness on a free local port (`e2e/support/harness-process.ts`).
 * Build first: `npm run build`. Override the browser with CHROMIUM_PATH, force the browser mode
 * with E2E_MODE=browser.
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/chromium';
import { electronBinary } from './e2e/support/electron-binary';

// Decided once in the runner; workers inherit the environment.
process.env['E2E_MODE'] ??= electronBinary() !== null ? 'electron' : 'browser';

export default defineConfig({
  testDir: 'e2e/specs',
  globalSetup: './e2e/support/global-setup.ts',
  outputDir: 'test-results/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // A budget, not a timed assertion: axe scans and screenshots at several sizes take minutes on a loaded 2-core
  // machine.
  timeout: 180_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  forbidOnly: !!process.env['CI'],
  use: {
    timezoneId: 'UTC',
    locale: 'en-US',
    viewport: { width: 1180, height: 820 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
    },
  },
});
