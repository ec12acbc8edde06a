/**
 * The app's one window. Its `webPreferences` come from `web-preferences.ts` (unit-tested); this
 * file only creates the window and loads the app's page.
 */
import { BrowserWindow } from 'electron';
import { fileURLToPath } from 'node:url';
import type { AppLocation } from './app-location';
import { lockDownContents } from './security';
import { appWebPreferences } from './web-preferences';

/** The sandboxed preload, built by electron-vite as a single CommonJS file. */
export const PRELOAD_PATH = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));

/** The built renderer's folder (out/renderer), served as `app://renderer/` (app-protocol.ts). */
export const RENDERER_DIR = fileURLToPath(new URL('../renderer/', import.meta.url));

/** Creates the main window, locked down before its page loads, and loads the app. */
export function createMainWindow(location: AppLocation): BrowserWindow {
  const window = new BrowserWindow({
    width: 1180,
    height: 820,
    minWidth: 720,
    minHeight: 560,
    title: 'Apollia Desktop',
    show: false,
    backgroundColor: '#ffffff',
    webPreferences: appWebPreferences(PRELOAD_PATH),
  });
  lockDownContents(window.webContents, location);
  window.once('ready-to-show', () => window.show());
  if (location.kind === 'dev') void window.loadURL(location.origin);
  else void window.loadURL(location.indexUrl);
  return window;
}

/** Brings a window to the front: un-minimises, shows and focuses it. */
export function bringForward(window: BrowserWindow): void {
  if (window.isMinimized()) window.restore();
  if (!window.isVisible()) window.show();
  window.focus();
}
