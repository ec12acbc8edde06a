/**
 * The Electron IPC binding: the only file that calls `ipcMain` (STYLE.md "one contract for the
 * boundary"). One channel per method of `API_METHODS` (`apollia:<method>`), plus `apollia:drop`
 * for a file dropped on the window. Every handler goes through `handleInvoke`, which checks the
 * sender and turns throws into error values; the core Api validates each request.
 */
import { ipcMain } from 'electron';
import { isAbsolute } from 'node:path';
import { API_METHODS, type ApiResult, type SourceHandle } from '../../shared/contract/api';
import type { AppLocation } from './app-location';
import { apiChannel, DROP_CHANNEL } from '../../shared/contract/ipc-channels';
import type { CoreApi } from '../core/api';
import { handleInvoke } from './sender-check';

/** Registers a path the preload read from a dropped `File` (`webUtils.getPathForFile`). */
async function registerDrop(api: CoreApi, path: unknown): Promise<ApiResult<SourceHandle>> {
  if (typeof path !== 'string' || path === '' || !isAbsolute(path)) {
    return {
      ok: false,
      error: { code: 'source.not_a_file', message: 'What was dropped is not a file on this computer.' },
    };
  }
  return api.registerSource(path, 'drop');
}

/** Binds every Api method, and the drop channel, to the core Api. Call once. */
export function bindApi(api: CoreApi, location: AppLocation): void {
  for (const method of API_METHODS) {
    ipcMain.handle(apiChannel(method), (event, request: unknown) =>
      handleInvoke(event, location, () => api[method](request)),
    );
  }
  ipcMain.handle(DROP_CHANNEL, (event, path: unknown) => handleInvoke(event, location, () => registerDrop(api, path)));
}
