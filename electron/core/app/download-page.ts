/**
 * Opening the page where the newest Apollia Desktop is: the action of a refusal that says to update
 * the app (a package made for a newer SDK, a data folder written by a newer app). The address is the
 * app's own constant (`shared/base/app-links.ts`), never one a request or a package names; the host opens
 * it (`ApiDeps.openExternal`: Electron's `shell.openExternal`), so core never imports Electron.
 */
import { APP_DOWNLOAD_PAGE } from '../../../shared/base/app-links';
import { CoreError } from '../errors/index';
import type { ApiContext } from './context';

/** Opens {@link APP_DOWNLOAD_PAGE} in the person's browser and answers the address opened. */
export async function openDownloadPage(ctx: ApiContext): Promise<{ url: string }> {
  const open = ctx.deps.openExternal;
  if (!open)
    throw new CoreError(
      'link.unavailable',
      `No browser can be opened from here: get the newest Apollia Desktop at ${APP_DOWNLOAD_PAGE}.`,
    );
  try {
    await open(APP_DOWNLOAD_PAGE);
  } catch (error) {
    throw new CoreError(
      'link.failed',
      `The browser could not be opened (${error instanceof Error ? error.message : String(error)}): get the newest Apollia Desktop at ${APP_DOWNLOAD_PAGE}.`,
    );
  }
  return { url: APP_DOWNLOAD_PAGE };
}
