/**
 * The Electron entry: lifecycle only. One instance (a second launch hands its files over and
 * quits); file-open routing registered before `ready` (macOS `open-file`); then the app-wide
 * security rules, the core Api with its Electron deps, the IPC binding, the window and the menu.
 */
import { app, BrowserWindow } from 'electron';
import { join } from 'node:path';
import { createApi } from '../core/api';
import { resolveAppLocation } from './app-location';
import { nativeDialogs } from './dialogs';
import { bindApi } from './ipc';
import { installMenu } from './menu';
import { createOpenRouter } from './open-requests';
import { createSafeStorageSecretBox } from './secret-box';
import { applyAppSecurity } from './security';
import { createMainWindow, INDEX_FILE_URL } from './window';

/** Where the catalogues and built-in templates are: beside the asar when packaged (electron-builder.yml `extraResources`). */
function resourcesDir(): string {
  return app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources');
}

if (!app.requestSingleInstanceLock()) {
  // Another instance runs: it receives our argv through `second-instance`.
  app.quit();
} else {
  const location = resolveAppLocation(app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'], INDEX_FILE_URL);
  const router = createOpenRouter();
  const dialogs = nativeDialogs();

  const start = async () => {
    applyAppSecurity(location);
    const api = createApi({
      dataDir: app.getPath('userData'),
      resourcesDir: resourcesDir(),
      dialogs,
      secretBox: await createSafeStorageSecretBox(),
      now: () => new Date(),
    });
    bindApi(api, location);
    installMenu(dialogs, router);
    const openWindow = () => router.attach(api, createMainWindow(location));
    openWindow();
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
