/**
 * File-open routing: every way a user asks the app to open something from outside the window —
 * a double-click or command line on first launch, a second launch (`second-instance`), macOS
 * `open-file`, the File ▸ Open menu — ends in `api.registerSource(path, origin)`, then
 * `apollia:opened` with the handle, and the window brought forward. Requests that arrive before
 * the window and the Api exist (macOS sends `open-file` before `ready`) are queued.
 */
import { app, dialog, type BrowserWindow } from 'electron';
import { statSync } from 'node:fs';
import type { SourceHandle } from '../../shared/contract/api';
import type { CoreApi } from '../core/api';
import { OPENED_CHANNEL } from '../../shared/contract/ipc-channels';
import { apoPathsFromArgv } from './open-request-paths';
import { bringForward } from './window';

interface OpenRequest {
  path: string;
  origin: SourceHandle['origin'];
}

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

  const deliver = async ({ path, origin }: OpenRequest, api: CoreApi, window: BrowserWindow) => {
    const result = await api.registerSource(path, origin);
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

  const flush = () => {
    if (!target) return;
    const { api, window } = target;
    for (const next of queue.splice(0)) void deliver(next, api, window);
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

  // A second launch (double-click while running) hands us its argv and working directory.
  app.on('second-instance', (_event, argv, workingDirectory) => {
    const paths = apoPathsFromArgv(argv, workingDirectory, isRegularFile);
    for (const path of paths) router.request(path, 'command-line');
    const window = router.window();
    if (window && !window.isDestroyed()) bringForward(window);
  });

  for (const path of apoPathsFromArgv(process.argv, process.cwd(), isRegularFile))
    queue.push({ path, origin: 'command-line' });
  return router;
}
