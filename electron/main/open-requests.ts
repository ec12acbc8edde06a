/**
 * File-open routing: every way a user asks the app to open something from outside the window —
 * a double-click or command line on first launch, a second launch (`second-instance`), macOS
 * `open-file`, the File ▸ Open menu — ends in `api.registerSource(path, origin)`, then
 * `apollia:opened` with the handle, and the window brought forward. Requests that arrive before
 * the window and the Api exist (macOS sends `open-file` before `ready`) are queued. An install link
 * (argv on Windows and Linux, macOS `open-url`) is read strictly by core, its package fetched from
 * the feed and verified, then opened the same way: the same consent form as a double-click, one link
 * at a time (`InstallLinkGate`); a link installs, trusts, grants and arms nothing by itself.
 */
import { app, dialog, type BrowserWindow } from 'electron';
import { statSync } from 'node:fs';
import type { ApiResult, SourceHandle } from '../../shared/contract/api';
import type { CoreApi } from '../core/api';
import { OPENED_CHANNEL } from '../../shared/contract/ipc-channels';
import { apoPathsFromArgv } from './open-request-paths';
import { createLinkDispatcher, installLinksFromArgv, type LinkOpened, openInstallLink } from './install-link-gate';
import { bringForward } from './window';

interface OpenRequest {
  path: string;
  origin: SourceHandle['origin'];
  /** Set for an install link: `path` is then the link's text. */
  link?: boolean;
}

/** What a link answers when the window closed before it was handled. */
const noWindow: LinkOpened = {
  ok: false,
  error: { code: 'internal', message: 'The window closed before the link was opened.' },
};

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The router: `request()` any time; `attach()` once the Api and the window exist. */
export interface OpenRouter {
  request(path: string, origin: SourceHandle['origin']): void;
  attach(api: CoreApi, window: BrowserWindow): void;
  /** The window requests go to, once attached (null after it closed). */
  window(): BrowserWindow | null;
}

/**
 * Creates the router and registers `open-file` and `second-instance` immediately: call it before
 * `app.whenReady()`, after taking the single-instance lock. Queues the first launch's argv.
 */
export function createOpenRouter(): OpenRouter {
  const queue: OpenRequest[] = [];
  let target: { api: CoreApi; window: BrowserWindow } | null = null;

  const show = (result: LinkOpened | ApiResult<SourceHandle>, window: BrowserWindow) => {
    if (window.isDestroyed()) return;
    bringForward(window);
    if (result.ok) window.webContents.send(OPENED_CHANNEL, result.value);
    else
      void dialog.showMessageBox(window, {
        type: 'warning',
        message: 'This could not be opened',
        detail: result.error.message,
      });
  };
  // One link at a time (`createLinkDispatcher`): the next (only the latest that waited) once this one is shown.
  const links = createLinkDispatcher(
    (link) => (target ? openInstallLink(target.api, link) : Promise.resolve(noWindow)),
    (result) => {
      if (target) show(result, target.window);
    },
  );

  const flush = () => {
    if (!target) return;
    const { api, window } = target;
    for (const next of queue.splice(0)) {
      if (next.link) links.offer(next.path);
      else void api.registerSource(next.path, next.origin).then((result) => show(result, window));
    }
  };

  const router: OpenRouter = {
    request(path, origin) {
      queue.push({ path, origin });
      flush();
    },
    attach(api, window) {
      target = { api, window };
      window.on('closed', () => {
        if (target?.window === window) target = null;
      });
      // The preload buffers `apollia:opened` until the page subscribes, so sending once the page
      // has loaded is enough.
      if (window.webContents.isLoading()) window.webContents.once('did-finish-load', flush);
      else flush();
    },
    window: () => target?.window ?? null,
  };

  // macOS sends `open-file` for a double-click, possibly before `ready`: it must be handled here.
  app.on('open-file', (event, path) => {
    event.preventDefault();
    router.request(path, 'open-file');
  });

  // macOS opens an install link with `open-url`, possibly before `ready`.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    queue.push({ path: url, origin: 'open-file', link: true });
    flush();
  });

  // A second launch (double-click while running) hands us its argv and working directory; on
  // Windows and Linux an install link clicked while the app runs arrives this way too.
  app.on('second-instance', (_event, argv, workingDirectory) => {
    const paths = apoPathsFromArgv(argv, workingDirectory, isRegularFile);
    for (const path of paths) router.request(path, 'command-line');
    for (const link of installLinksFromArgv(argv)) queue.push({ path: link, origin: 'command-line', link: true });
    flush();
    const window = router.window();
    if (window && !window.isDestroyed()) bringForward(window);
  });

  for (const path of apoPathsFromArgv(process.argv, process.cwd(), isRegularFile))
    queue.push({ path, origin: 'command-line' });
  for (const link of installLinksFromArgv(process.argv)) queue.push({ path: link, origin: 'command-line', link: true });
  return router;
}
