/**
 * The native open dialogs core asks for (`deps.dialogs`): a `.apo` or plugin JSON file, or a
 * folder (a template, or a folder a file_watch trigger watches). The path they answer is one the
 * user picked in a main-process dialog, so core may register it (DESIGN.md "Security of the app
 * itself": the renderer never hands main a path).
 */
import { BrowserWindow, dialog, type OpenDialogOptions } from 'electron';

/** `deps.dialogs` of the core Api: each resolves to the chosen absolute path, or null if cancelled. */
export interface NativeDialogs {
  openFile(): Promise<string | null>;
  openFolder(): Promise<string | null>;
  /** A minisign public key file (Settings → Trusted publishers). */
  openKeyFile(): Promise<string | null>;
}

async function showOpen(options: OpenDialogOptions): Promise<string | null> {
  const parent = BrowserWindow.getFocusedWindow();
  const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  if (result.canceled) return null;
  return result.filePaths[0] ?? null;
}

/** The dialogs, as main shows them. */
export function nativeDialogs(): NativeDialogs {
  return {
    openFile: () =>
      showOpen({
        title: 'Open an agent package',
        properties: ['openFile'],
        filters: [
          { name: 'Agent packages and plugin manifests', extensions: ['apo', 'json'] },
          { name: 'Agent packages', extensions: ['apo'] },
          { name: 'Plugin manifests', extensions: ['json'] },
        ],
      }),
    openFolder: () => showOpen({ title: 'Choose a folder', properties: ['openDirectory'] }),
    openKeyFile: () =>
      showOpen({
        title: "Choose a publisher's public key",
        properties: ['openFile'],
        filters: [{ name: 'minisign public keys', extensions: ['pub'] }],
      }),
  };
}
