/**
 * Electron glue for the background tray (decisions in `background.ts`, tested with fakes): a `Tray`
 * with the app's icon and a context menu (Linux's AppIndicator shows only the menu).
 */
import { Menu, nativeImage, Tray } from 'electron';
import type { TrayLike } from './background';

/** A tray icon from `iconPath` (a PNG shipped in the app's resources). */
export function electronTray(iconPath: string): TrayLike {
  const tray = new Tray(nativeImage.createFromPath(iconPath));
  return {
    setMenu: (items) => tray.setContextMenu(Menu.buildFromTemplate(items)),
    setToolTip: (text) => tray.setToolTip(text),
    destroy: () => tray.destroy(),
  };
}
