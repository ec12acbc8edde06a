/**
 * e2e (DESIGN.md "Testing"): the same specs run two ways.
 * - An Electron binary is installed (a developer's machine): each test launches the built app with
 *   `_electron.launch` (see `e2e/support/app.ts`); no server.
 * - No Electron (this build machine, CI): the built renderer runs in Debian's Chromium against
 *   `e2e/harness/server.ts`, which serves the real core Api over HTTP on a free local port.
 * Build first: `npm run build`. Override the browser with CHROMIUM_PATH, force the browser mode
 * with E2E_MODE=browser.
 */
import { defineConfig } from '@playwright/test';
import { createServer } from 'node:net';
import { electronBinary } from './e2e/support/electron-binary';

/** A port the OS says is free right now. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

const useElectron = process.env['E2E_MODE'] !== 'browser' && electronBinary() !== null;
process.env['E2E_MODE'] = useElectron ? 'electron' : 'browser';
// The config is loaded again in each worker: the first load picks the port, workers inherit it.
process.env['E2E_PORT'] ??= String(await freePort());
const baseURL = `http://127.0.0.1:${process.env['E2E_PORT']}`;

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
  fullyParallel: false,
  // One harness server holds one data folder at a time.
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  forbidOnly: !!process.env['CI'],
  use: {
    baseURL,
    timezoneId: 'UTC',
    locale: 'en-US',
    viewport: { width: 1180, height: 820 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  webServer: useElectron
    ? undefined
    : {
        command: 'npx tsx e2e/harness/server.ts',
        url: `${baseURL}/test/health`,
        reuseExistingServer: false,
        timeout: 60_000,
        stdout: 'pipe',
        stderr: 'pipe',
        env: { E2E_PORT: process.env['E2E_PORT'], TZ: 'UTC' },
      },
});
