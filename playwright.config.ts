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
import { electronBinary } from './e2e/support/electron-binary';

// Decided once in the runner; workers inherit the environment.
process.env['E2E_MODE'] ??= electronBinary() !== null ? 'electron' : 'browser';

/** TOOLCHAIN.md: without the networking flags Chromium floods the closed network. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export default defineConfig({
  testDir: 'e2e/specs',
  outputDir: 'test-results/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  forbidOnly: !!process.env['CI'],
  use: {
    timezoneId: 'UTC',
    locale: 'en-US',
    viewport: { width: 1180, height: 820 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
});
