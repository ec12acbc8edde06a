/**
 * The fixture every spec uses: a `page` showing the app, and an `app` driver for what a person does
 * outside the window (double-click a file, answer a native dialog) and for reading the store.
 * In browser mode (no Electron binary) it talks to the harness; in Electron mode it launches the
 * built app with a fresh data folder and drives main through `electronApp.evaluate`.
 */
import AxeBuilder from '@axe-core/playwright';
import {
  _electron,
  expect,
  test as base,
  type Browser,
  type ElectronApplication,
  type Locator,
  type Page,
} from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_METHODS } from '../../shared/contract/api';
import { installBridge } from '../harness/bridge';
import { electronBinary, REPO_ROOT } from './electron-binary';
import { startHarness, type HarnessProcess } from './harness-process';

/** What a person does outside the window, and what a test reads back. */
export interface AppDriver {
  /** Opens `path` as a double-click would (harness `/test/open`; in Electron, a second launch). */
  open(path: string): Promise<void>;
  /** Hands install links over at once, as the OS does when a page opens them (harness `/test/link`; in Electron, a second launch). */
  openLinks(links: readonly string[]): Promise<void>;
  /** Answers the next native open dialog of that kind with `path` (null: the user cancels). */
  answerDialog(kind: 'file' | 'folder', path: string | null): Promise<void>;
  /** The data folder the app's store writes to. */
  dataDir(): Promise<string>;
  /** The store's `state.json`, parsed (null when nothing was stored yet). */
  readState(): Promise<Record<string, unknown> | null>;
}

/** Per-test options. */
export interface AppOptions {
  /** Fix the core's clock (ISO 8601) so next fire times are known. */
  now: string | null;
  /** The organization's policy file for this test (`APOLLIA_POLICY_FILE`), or none. */
  policyFile: string | null;
}

/**
 * Where screenshots go: `test-results/screenshots/` (ignored), so a test run leaves the tree as it
 * was; `npm run screenshots` sets `E2E_SCREENSHOTS_DIR` to `e2e/screenshots/`, the committed
 * gallery, refreshed on purpose so that a changed screen is a diff to review.
 */
export const SCREENSHOTS = process.env['E2E_SCREENSHOTS_DIR'] ?? join(REPO_ROOT, 'test-results', 'screenshots');

/** Saves a full-page screenshot as `<name>.png` in {@link SCREENSHOTS}. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // What changes on every run (a fresh webhook secret, a temp folder's random name) is masked, so a
  // committed screenshot changes only when the screen does.
  // Live views mark what changes by run (times, ports, run ids) with `data-volatile`.
  // An activity detail naming a run id, a pid, the listener's address or a temp folder is masked too.
  const volatile = [
    page.getByLabel(/^Webhook secret for /),
    page.locator('code').filter({ hasText: tmpdir() }),
    page.locator('[data-volatile]'),
    page.locator('.activity-list p').filter({ hasText: /run [0-9a-f-]{36}|pid \d+|127\.0\.0\.1:\d+/ }),
    page.locator('.activity-list p').filter({ hasText: tmpdir() }),
  ];
  // A full-page picture is the page whole: what sticks to the window's edge (a long step's actions)
  // is put back where it stands in the page while it is taken, so it is not drawn over the content.
  await page.locator('html').evaluate((html) => html.setAttribute('data-full-page-capture', ''));
  try {
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true, mask: volatile });
  } finally {
    await page.locator('html').evaluate((html) => html.removeAttribute('data-full-page-capture'));
  }
}

/**
 * The window as a person sees it at 1280×800 and at 800×600, `target` scrolled into view: saved as
 * `<name>-1280x800.png` and `<name>-800x600.png`, the window put back as it was.
 */
export async function windowShots(page: Page, target: Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const size = page.viewportSize();
  for (const [width, height] of [
    [1280, 800],
    [800, 600],
  ] as const) {
    await page.setViewportSize({ width, height });
    await target.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}x${height}.png`) });
  }
  if (size) await page.setViewportSize(size);
}

/**
 * One screen, settled, pictured and scanned: waits until no preview is being re-fetched
 * ("Updating…"), saves the screenshot, then runs axe.
 */
export async function snapshot(page: Page, name: string): Promise<void> {
  await expect(page.getByText('Updating…')).toHaveCount(0);
  await shot(page, name);
  await axeCheck(page, name);
}

/**
 * {@link snapshot} at the window's size, then again at 800×600 as `<name>-800x600` (every
 * step at both sizes), the window put back as it was.
 */
export async function snapshotBoth(page: Page, name: string): Promise<void> {
  await snapshot(page, name);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 800, height: 600 });
  await snapshot(page, `${name}-800x600`);
  if (size) await page.setViewportSize(size);
}

/** Presses Tab until `target` has focus (at most `limit` times): how a keyboard user reaches it. */
export async function tabTo(page: Page, target: Locator, limit = 60) {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((element) => element === element.ownerDocument.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`could not reach ${target.toString()} with Tab in ${limit} presses`);
}

/** Nothing is wider than the window: no horizontal scroll bar. On failure, names what sticks out. */
export async function expectNoHorizontalScroll(page: Page, label: string) {
  const { overflow, wide } = await page.locator('html').evaluate((html) => {
    const limit = html.clientWidth;
    const wide = [...html.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > limit + 0.5)
      .slice(0, 5)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${element.className} (${Math.round(element.getBoundingClientRect().right)}px): ${(element.textContent ?? '').slice(0, 60)}`,
      );
    return { overflow: html.scrollWidth - limit, wide };
  });
  expect(overflow, `horizontal overflow on ${label}: ${wide.join(' | ')}`).toBeLessThanOrEqual(0);
}

/** A step's heading ("Step 2 of 5: …") in a guided form. */
export const stepHeading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 2, name });

/**
 * Presses Next and waits for the step it leads to. Two presses in a row must not race the page:
 * leaving a long step scrolls the page, and a second click aimed where Next was can land on nothing.
 */
export async function nextStep(page: Page, heading: string | RegExp): Promise<void> {
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, heading)).toBeVisible();
}

/** Runs axe on the page; fails on any serious or critical violation, naming each. */
export async function axeCheck(page: Page, label = 'page'): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  expect(blocking, `accessibility violations on ${label}`).toEqual([]);
}

function readStateFile(dataDir: string): Record<string, unknown> | null {
  try {
    return JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8')) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function harnessPost(baseURL: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(new URL(path, baseURL), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const value: unknown = await response.json();
  if (!response.ok) throw new Error(`harness ${path} answered ${response.status}: ${JSON.stringify(value)}`);
  return value;
}

function browserDriver(baseURL: string): AppDriver {
  return {
    async open(path) {
      const result = (await harnessPost(baseURL, '/test/open', { path })) as { ok: boolean };
      expect(result, `opening ${path}`).toMatchObject({ ok: true });
    },
    async answerDialog(kind, path) {
      await harnessPost(baseURL, '/test/dialog', { kind, path });
    },
    async openLinks(links) {
      await harnessPost(baseURL, '/test/link', { links });
    },
    async dataDir() {
      const response = await fetch(new URL('/test/state', baseURL));
      return ((await response.json()) as { dataDir: string }).dataDir;
    },
    async readState() {
      return readStateFile(await this.dataDir());
    },
  };
}

function electronDriver(electronApp: ElectronApplication): AppDriver {
  const answers: Record<'file' | 'folder', (string | null)[]> = { file: [], folder: [] };
  return {
    async open(path) {
      // The same route as a second launch with the file on its command line.
      await electronApp.evaluate(({ app }, file) => {
        app.emit('second-instance', { preventDefault() {} }, [process.execPath, file], process.cwd(), {});
      }, path);
    },
    async openLinks(links) {
      // Windows and Linux hand a clicked link to the running app as a second launch's argument.
      await electronApp.evaluate(({ app }, argv) => {
        app.emit('second-instance', { preventDefault() {} }, [process.execPath, ...argv], process.cwd(), {});
      }, links);
    },
    async answerDialog(kind, path) {
      answers[kind].push(path);
      await electronApp.evaluate(({ dialog }, queued) => {
        const wanted = queued as Record<'file' | 'folder', (string | null)[]>;
        dialog.showOpenDialog = (async (...args: unknown[]) => {
          const options = (args.length > 1 ? args[1] : args[0]) as { properties?: string[] };
          const kind = options.properties?.includes('openDirectory') ? 'folder' : 'file';
          const next = wanted[kind].shift() ?? null;
          return { canceled: next === null, filePaths: next === null ? [] : [next] };
        }) as typeof dialog.showOpenDialog;
      }, answers);
      answers.file = [];
      answers.folder = [];
    },
    async dataDir() {
      return electronApp.evaluate(({ app }) => app.getPath('userData'));
    },
    async readState() {
      return readStateFile(await this.dataDir());
    },
  };
}

/** `test` with the app fixtures: `page` shows the app, `app` drives the outside world. */
export const test = base.extend<
  AppOptions & { app: AppDriver; electronApp: ElectronApplication | null },
  { harnessBrowser: Browser | null; harness: HarnessProcess | null }
>({
  now: [null, { option: true }],
  policyFile: [null, { option: true }],

  // One harness server per worker (browser mode only), so workers never share a data folder.
  harness: [
    async ({}, use) => {
      if (process.env['E2E_MODE'] === 'electron') return use(null);
      const harness = await startHarness();
      await use(harness);
      await harness.stop();
    },
    { scope: 'worker' },
  ],

  baseURL: async ({ harness }, use) => {
    await use(harness?.url);
  },

  // Launched only in browser mode, so an Electron run never needs Chromium.
  harnessBrowser: [
    async ({ playwright, launchOptions }, use) => {
      if (process.env['E2E_MODE'] === 'electron') return use(null);
      const browser = await playwright.chromium.launch(launchOptions);
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],

  electronApp: async ({ now, policyFile }, use) => {
    const binary = process.env['E2E_MODE'] === 'electron' ? electronBinary() : null;
    if (!binary) return use(null);
    void now;
    const home = mkdtempSync(join(tmpdir(), 'apollia-e2e-home-'));
    const electronApp = await _electron.launch({
      executablePath: binary,
      args: [join(REPO_ROOT, 'out', 'main', 'index.js')],
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        APPDATA: join(home, 'AppData'),
        TZ: 'UTC',
        ...(policyFile ? { APOLLIA_POLICY_FILE: policyFile } : {}),
      },
    });
    await use(electronApp);
    await electronApp.close();
    rmSync(home, { recursive: true, force: true });
  },

  page: async (
    { electronApp, harnessBrowser, baseURL, now, policyFile, viewport, deviceScaleFactor, timezoneId, locale },
    use,
  ) => {
    if (electronApp) {
      const window = await electronApp.firstWindow();
      if (now) await window.clock.setFixedTime(new Date(now));
      await window.waitForLoadState('domcontentloaded');
      return use(window);
    }
    if (!baseURL || !harnessBrowser) throw new Error('baseURL is not set: run through playwright.config.ts');
    await harnessPost(baseURL, '/test/reset', { ...(now ? { now } : {}), ...(policyFile ? { policyFile } : {}) });
    const context = await harnessBrowser.newContext({
      baseURL,
      viewport,
      timezoneId,
      locale,
      ...(deviceScaleFactor ? { deviceScaleFactor } : {}),
    });
    const page = await context.newPage();
    // The renderer computes next fire times from its own clock: fix it with the core's.
    if (now) await page.clock.setFixedTime(new Date(now));
    await page.addInitScript(installBridge, { methods: [...API_METHODS] });
    await page.goto('/');
    await use(page);
    await context.close();
  },

  app: async ({ electronApp, baseURL }, use) => {
    await use(electronApp ? electronDriver(electronApp) : browserDriver(baseURL ?? ''));
  },
});

export { expect };
