/**
 * The application menu: File ▸ Open (a package or plugin manifest) and File ▸ Open Template Folder,
 * both answered by main's own dialogs and routed like a double-click; plus the standard edit,
 * view and window menus (copy and paste in the form fields need the Edit menu on macOS).
 */
import { app, Menu, type MenuItemConstructorOptions } from 'electron';
import type { NativeDialogs } from './dialogs';
import type { OpenRouter } from './open-requests';

/** Builds and installs the menu. */
export function installMenu(dialogs: NativeDialogs, router: OpenRouter): void {
  const openWith = (pick: () => Promise<string | null>) => async () => {
    const path = await pick();
    if (path) router.request(path, 'menu');
  };
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open Package…', accelerator: 'CmdOrCtrl+O', click: openWith(dialogs.openFile) },
        { label: 'Open Template Folder…', accelerator: 'CmdOrCtrl+Shift+O', click: openWith(dialogs.openFolder) },
        { type: 'separator' },
        process.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
