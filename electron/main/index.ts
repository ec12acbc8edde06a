/**
 * The Electron entry: lifecycle only. A CLI command (`apollia-desktop inspect FILE`) runs the
 * command line and exits, before anything else (cli-dispatch.ts). Otherwise one instance (a second
 * launch hands its files over and quits); the `app://` scheme and file-open routing registered
 * before `ready` (macOS `open-file`); then the app-wide security rules, the renderer served on
 * `app://`, the core Api with its Electron deps, the IPC binding, the menu and the window — which
 * opens while the keychain is still being probed (start-order.ts) —; and the one trigger host of
 * the data folder, started on ready and stopped on quit.
 */
import { APP_DOWNLOAD_PAGE } from '../../shared/base/app-links';
import { app, BrowserWindow, dialog, net, powerMonitor, shell } from 'electron';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type CoreApi, createApi } from '../core/api';
import { configureSharedChecker, sharedChecker } from '../core/bounded/index';
import { TriggerHost } from '../core/triggers';
import { FeedChecks } from '../core/app/feed-checks';
import { resolveAppLocation } from './app-location';
import { APP_INDEX_URL } from './app-protocol';
import { nativeDialogs } from './dialogs';
import { BackgroundTriggers, type CloseNotice, trayIcon } from './background';
import { closeNoticeMarker } from './close-notice';
import { HostShutdown } from './host-shutdown';
import { utilityProcessSpawn } from './checker-process';
import { bindApi } from './ipc';
import { installMenu } from './menu';
import { createOpenRouter } from './open-requests';
import { APP_SCHEME } from './install-link-gate';
import { createSafeStorageSecretBox } from './secret-box';
import { registerAppScheme, serveAppScheme } from './protocol';
import { quietOnBrokenPipe, runCliEntry } from '../core/cli/entry';
import { startEntry } from './cli-dispatch';
import { makeCommandSession } from './command-session';
import { startedHeadless } from './headless';
import { cliProgramHere, isTranslocated, TRANSLOCATION_WORDS } from './cli-program';
import { startedWithoutSandbox } from './sandbox';
import { applyAppSecurity } from './security';
import { startWindowFirst } from './start-order';
import { loginItemFor, startedInBackground } from './login-item';
import { electronTray } from './tray';
import { bringForward, createMainWindow, RENDERER_DIR } from './window';

/**
 * Said once at start when macOS runs the app from an App Translocation copy (cli-program.ts): the
 * person moves it into Applications; nothing is moved for them.
 */
function sayIfTranslocated(): void {
  if (!isTranslocated(process.platform, process.execPath)) return;
  console.error(`Apollia Desktop: ${TRANSLOCATION_WORDS}`);
  void dialog.showMessageBox({
    type: 'warning',
    message: 'Move Apollia Desktop into Applications',
    detail: TRANSLOCATION_WORDS,
  });
}

/**
 * Where the built-in templates and the tray icon are: beside the asar when packaged (electron-builder.yml
 * `extraResources`).
 */
function resourcesDir(): string {
  return app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources');
}

/** What this start of the app was given: no sandbox, the CLI's name here, started at login, the login item. */
function hostEnvironment() {
  const sandboxOff = startedWithoutSandbox({
    argv: process.argv,
    hasSwitch: (name) => app.commandLine.hasSwitch(name),
    env: process.env,
  });
  if (sandboxOff)
    console.error(
      'Apollia Desktop: started with --no-sandbox: every screen says so, and nothing is installed until it is started without it.',
    );
  const cliProgram = cliProgramHere({
    platform: process.platform,
    isPackaged: app.isPackaged,
    execPath: process.execPath,
    env: process.env,
  });
  // Started at login (opt-in, Settings): the tray only, no window; nothing live means nothing to keep running.
  const inBackground = startedInBackground(
    process.argv,
    process.platform === 'darwin' &&
      (app.getLoginItemSettings() as { wasOpenedAtLogin?: boolean }).wasOpenedAtLogin === true,
  );
  const loginItem = loginItemFor({
    platform: process.platform,
    isPackaged: app.isPackaged,
    execPath: process.execPath,
    env: process.env,
    app,
  });
  return { sandboxOff, cliProgram, loginItem, inBackground };
}

/**
 * The triggers go live with the app: the port is Settings' (the host rebinds when it changes). A host that cannot
 * start (`serve` already holds the data folder, the port is taken) is not fatal: the dashboard says whether triggers
 * are live, from the host lock and status file. A webhook's secret waits for the keychain; schedules and watched
 * folders do not. While they are live, closing the last window leaves them running, with a tray icon (background.ts).
 */
function backgroundTriggers(options: {
  dataDir: string;
  secretBox: ConstructorParameters<typeof TriggerHost>[0]['secretBox'];
  host: { current: TriggerHost | null };
  openWindow: () => void;
}): BackgroundTriggers {
  const { dataDir, secretBox, host } = options;
  return new BackgroundTriggers({
    platform: process.platform,
    createTray: () => {
      const icon = trayIcon(process.platform);
      return electronTray(join(resourcesDir(), 'icons', icon.file), icon.template);
    },
    openWindow: options.openWindow,
    startHost: async () => {
      const starting = new TriggerHost({
        dataDir,
        secretBox,
        onLine: (line) => console.log(`triggers: ${line}`),
      });
      try {
        await starting.start();
        host.current = starting;
        return true;
      } catch (error) {
        console.error('Apollia Desktop: the triggers are not live:', error instanceof Error ? error.message : error);
        return false;
      }
    },
    stopHost: async () => {
      const stopping = host.current;
      host.current = null;
      await stopping?.stop();
    },
    quit: () => app.quit(),
    windowOpen: () => BrowserWindow.getAllWindows().length > 0,
    closeNotice: process.platform === 'linux' ? linuxCloseNotice(dataDir) : undefined,
  });
}

/**
 * Linux: no API tells whether a tray icon can show (vanilla GNOME has no AppIndicator), so the first
 * close that leaves triggers running says so once, and offers to quit instead.
 */
function linuxCloseNotice(dataDir: string): CloseNotice {
  return {
    ...closeNoticeMarker(dataDir),
    ask: async () => {
      const { response } = await dialog.showMessageBox({
        type: 'info',
        title: 'Apollia Desktop',
        message: 'Apollia Desktop keeps running your armed triggers.',
        detail:
          'Its icon is in the tray, where you can open the window, pause the triggers or quit. Some desktops show no tray (GNOME without the AppIndicator extension): there, start Apollia Desktop again to open its window, and quit from the window’s menu to stop the triggers. This is said once.',
        buttons: ['Keep running', 'Quit Apollia Desktop'],
        defaultId: 0,
        cancelId: 0,
      });
      return response === 1 ? 'quit' : 'keep running';
    },
  };
}

/**
 * What the store needs once the app runs: installed files re-checked (a change disarms the package's triggers), MCP
 * credentials saved before they were sealed sealed now, and secrets the keychain asks to seal again (`shouldReEncrypt`,
 * or sealed where the box no longer keeps them) sealed again.
 */
function maintainStore(api: CoreApi): void {
  void api.verifyInstalled();
  api
    .sealClearMcpCredentials()
    .catch((error: unknown) =>
      console.error(
        'Apollia Desktop: saved MCP credentials were not sealed:',
        error instanceof Error ? error.message : error,
      ),
    );
  api
    .resealSecrets()
    .catch((error: unknown) =>
      console.error('Apollia Desktop: secrets were not sealed again:', error instanceof Error ? error.message : error),
    );
}

/**
 * Feeds checked soon after start and daily (jittered); mode auto's updates that ask nothing new applied only while this
 * app holds the trigger host (`serve` applies them when it does): core's `FeedChecks`.
 */
function startFeedChecks(api: CoreApi, holdsHost: () => boolean): FeedChecks {
  const checks = new FeedChecks({
    check: () => api.feeds.outdated(),
    applyAuto: () => api.feeds.applyAuto(),
    holdsHost,
    setTimer: (callback, ms) => setTimeout(callback, ms),
    clearTimer: (timer) => clearTimeout(timer as NodeJS.Timeout),
    random: Math.random,
    log: (message, error) => console.error(message, error instanceof Error ? error.message : error),
  });
  checks.start();
  return checks;
}

/**
 * Registers the app as the handler of `apollia:` install links (DESIGN.md "Feeds, updates and install
 * links"). In development (`electron .`) Windows and Linux need the app's path on the command line.
 */
function registerInstallLinks(): void {
  if (process.defaultApp && process.argv.length >= 2)
    app.setAsDefaultProtocolClient(APP_SCHEME, process.execPath, [resolve(process.argv[1] as string)]);
  else app.setAsDefaultProtocolClient(APP_SCHEME);
}

/** The window app: everything but the command line. Runs once this instance holds the lock. */
function startApp(): void {
  registerAppScheme(); // privileged schemes must be registered before `ready`
  // Packages are checked in a utility process (its worker under the same budgets): a crash there
  // refuses the package and leaves the app running. The command line keeps its worker thread.
  configureSharedChecker({ spawn: utilityProcessSpawn() });
  const location = resolveAppLocation(app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'], APP_INDEX_URL);
  registerInstallLinks();
  const router = createOpenRouter();
  const dialogs = nativeDialogs();
  const triggerHost: { current: TriggerHost | null } = { current: null };
  const shutdown = new HostShutdown(triggerHost, (error) =>
    console.error('Apollia Desktop: the trigger host did not stop cleanly:', error),
  );
  let background: BackgroundTriggers | null = null;
  let feedChecks: FeedChecks | null = null;

  const start = () => {
    applyAppSecurity(location);
    serveAppScheme(RENDERER_DIR);
    sayIfTranslocated();
    const dataDir = app.getPath('userData');
    const { sandboxOff, cliProgram, loginItem, inBackground } = hostEnvironment();
    let api: CoreApi | null = null;
    const openWindow = () => {
      if (!api) return;
      const window = createMainWindow(location);
      // Windows log-off or shutdown: no will-quit follows; the host stops while it can (host-shutdown.ts).
      window.on('session-end', () => void shutdown.stopThen(() => {}));
      router.attach(api, window);
    };
    // A reboot or shutdown (Linux, macOS) waits for the host to stop, then quits. Electron emits an
    // event that can delay it (power-monitor.md), which its typings leave out.
    (powerMonitor as NodeJS.EventEmitter).on('shutdown', (event?: { preventDefault?(): void }) => {
      if (shutdown.stopThen(() => app.quit())) event?.preventDefault?.();
    });
    // The window opens first; the keychain is probed meanwhile (start-order.ts).
    startWindowFirst({
      makeSecretBox: () => createSafeStorageSecretBox(dataDir),
      onBoxError: (error) =>
        console.error(
          'Apollia Desktop: the keychain could not be used; no secret can be kept:',
          error instanceof Error ? error.message : error,
        ),
      wire: (secretBox) => {
        api = createApi({
          dataDir,
          resourcesDir: resourcesDir(),
          dialogs,
          secretBox,
          now: () => new Date(),
          trash: (path) => shell.trashItem(path),
          // Only the app's own download page: core passes nothing else, and main checks it again.
          openExternal: (url) =>
            url === APP_DOWNLOAD_PAGE ? shell.openExternal(url) : Promise.reject(new Error('not the download page')),
          sandboxOff,
          cliProgram,
          ...(loginItem ? { loginItem } : {}),
          // Feeds are fetched with Chromium's network stack: the system's proxy and certificates.
          fetch: (url, init) => net.fetch(url, init),
        });
        bindApi(api, location);
        installMenu(dialogs, router);
      },
      openWindow: () => {
        if (!inBackground) openWindow();
      },
      afterWindow: (secretBox) => {
        void sharedChecker().warm(); // the package checker's worker loads while the window does, not at the first package
        background = backgroundTriggers({
          dataDir,
          secretBox,
          host: triggerHost,
          openWindow: () => {
            const open = router.window();
            if (open && !open.isDestroyed()) bringForward(open);
            else openWindow();
          },
        });
        void background.start().then((live) => {
          if (!live && inBackground && BrowserWindow.getAllWindows().length === 0) app.quit();
        });
        if (!api) return;
        maintainStore(api);
        feedChecks = startFeedChecks(api, () => triggerHost.current !== null);
      },
    });
    // Running in the tray with no window: a second launch, or a double-click on macOS (`open-file`),
    // opens one (the router queued its files and delivers them once the window is attached).
    const openIfNone = () => {
      const open = router.window();
      if (!open || open.isDestroyed()) openWindow();
    };
    app.on('second-instance', openIfNone);
    app.on('open-file', openIfNone);
    app.on('activate', () => {
      // macOS: clicking the Dock icon with no window open makes one again.
      if (BrowserWindow.getAllWindows().length === 0) openWindow();
    });
  };

  app.on('will-quit', (event) => {
    background?.dispose();
    feedChecks?.stop();
    // Stop the host (timers, watchers, listener, the final status and host lock) before exiting.
    if (shutdown.stopThen(() => app.quit())) event.preventDefault();
  });
  app.on('window-all-closed', () => {
    // Live triggers keep the app running in the tray; otherwise quit (macOS keeps its Dock app).
    if (background) background.windowsAllClosed();
    else if (process.platform !== 'darwin') app.quit();
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('Apollia Desktop could not start:', error);
      app.quit();
    });
}

startEntry(app, {
  argv: process.argv,
  defaultApp: process.defaultApp === true,
  runCli: runCliEntry,
  io: {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
  },
  resourcesDir: resourcesDir(),
  startApp,
  headless: process.platform === 'linux' && startedHeadless(app.commandLine),
  commandSession: () => makeCommandSession(tmpdir()),
  onSignal: (listener) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => listener(signal));
  },
  // An empty write's callback runs once everything written before it has been handed on.
  onBrokenPipe: (stop) => {
    quietOnBrokenPipe(process.stdout, stop);
    quietOnBrokenPipe(process.stderr, stop);
  },
  flushOutput: () =>
    Promise.all(
      [process.stdout, process.stderr].map(
        (stream) => new Promise<void>((resolve) => stream.write('', () => resolve())),
      ),
    ).then(() => undefined),
});
