/**
 * The Electron entry: lifecycle only. One instance (a second launch hands its files over and
 * quits); the `app://` scheme and file-open routing registered before `ready` (macOS `open-file`);
 * then the app-wide security rules, the renderer served on `app://`, the core Api with its
 * Electron deps, the IPC binding, the window and the menu.
 */
import { app, BrowserWindow, shell } from 'electron';
import { join } from 'node:path';
import { createApi } from '../core/api';
import { sharedChecker } from '../core/bounded/index';
import { resolveAppLocation } from './app-location';
import { APP_INDEX_URL } from './app-protocol';
import { nativeDialogs } from './dialogs';
import { bindApi } from './ipc';
import { installMenu } from './menu';
import { createOpenRouter } from './open-requests';
import { createSafeStorageSecretBox } from './secret-box';
import { registerAppScheme, serveAppScheme } from './protocol';
import { applyAppSecurity } from './security';
import { createMainWindow, RENDERER_DIR } from './window';

/** Where the catalogues and built-in templates are: beside the asar when packaged (electron-builder.yml `extraResources`). */
function resourcesDir(): string {
  return app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources');
}

if (!app.requestSingleInstanceLock()) {
  // Another instance runs: it receives our argv through `second-instance`.
  app.quit();
} else {
  registerAppScheme(); // privileged schemes must be registered before `ready`
  const location = resolveAppLocation(app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'], APP_INDEX_URL);
  const router = createOpenRouter();
  const dialogs = nativeDialogs();

  const start = async () => {
    applyAppSecurity(location);
    serveAppScheme(RENDERER_DIR);
    const api = createApi({
      dataDir: app.getPath('userData'),
      resourcesDir: resourcesDir(),
      dialogs,
      secretBox: await createSafeStorageSecretBox(),
      now: () => new Date(),
      trash: (path) => shell.trashItem(path),
    });
    bindApi(api, location);
    installMenu(dialogs, router);
    const openWindow = () => router.attach(api, createMainWindow(location));
    openWindow();
    void sharedChecker().warm(); // the package checker's worker loads while the window does, not at the first package
    void api.verifyInstalled(); // issue 14: installed files re-checked on app start (a change disarms the package's triggers)
    app.on('activate', () => {
      // macOS: clicking the Dock icon with no window open makes one again.
      if (BrowserWindow.getAllWindows().length === 0) openWindow();
    });
  };

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('Apollia Desktop could not start:', error);
      app.quit();
    });
}
