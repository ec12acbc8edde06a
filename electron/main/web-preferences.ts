/**
 * The renderer's `webPreferences`, as a value a unit test can read (DESIGN.md "Security of the app
 * itself"; Electron security checklist items 2–4, 6 and 10). No `electron` import at runtime.
 */
import type { WebPreferences } from 'electron';

/**
 * The one set of `webPreferences` every app window gets. Loosening any of these (turning the
 * sandbox off, enabling Node, disabling isolation or web security, allowing `<webview>`) is a bug;
 * `web-preferences.test.ts` fails if anyone does.
 */
export function appWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  };
}
