/**
 * Electron glue for the background tray (decisions in `background.ts`, tested with fakes): a `Tray`
 * with the app's icon and a context menu (Linux's AppIndicator shows only the menu).
 */
import { Menu, nativeImage, Tray } from 'electron';
import type { TrayLike } from './background';

/** A tray icon from `iconPath` (a PNG shipped in the app's resources); `template`: macOS's template image. */
export function electronTray(iconPath: string, template: boolean): TrayLike {
  const image = nativeImage.createFromPath(iconPath);
  if (template) image.setTemplateImage(true);
  const tray = new Tray(image);
  return {
    setMenu: (items) => tray.setContextMenu(Menu.buildFromTemplate(items)),
    setToolTip: (text) => tray.setToolTip(text),
    destroy: () => tray.destroy(),
  };
}
