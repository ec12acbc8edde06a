/**
 * The preload: exposes `window.apollia` through `contextBridge` — exactly the methods of
 * `API_METHODS`, each one fixed channel, plus `onOpened` and `openDropped` (STYLE.md "one
 * contract for the boundary"). Never `ipcRenderer` itself, never a generic invoke. Runs sandboxed,
 * so it is bundled as one CommonJS file (`out/preload/index.cjs`).
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { API_METHODS, type ApolliaBridge, type SourceHandle } from '../../shared/contract/api';
import { apiChannel, DROP_CHANNEL, OPENED_CHANNEL } from '../../shared/contract/ipc-channels';

/**
 * Sources opened before the page subscribed (a double-click that launched the app) are kept until
 * the first listener arrives, so none is lost to the race between page load and subscription.
 */
const pendingOpened: SourceHandle[] = [];
const openedListeners = new Set<(handle: SourceHandle) => void>();
ipcRenderer.on(OPENED_CHANNEL, (_event, handle: SourceHandle) => {
  if (openedListeners.size === 0) pendingOpened.push(handle);
  for (const listener of openedListeners) listener(handle);
});

const methods = Object.fromEntries(
  API_METHODS.map((method) => [method, (request?: unknown) => ipcRenderer.invoke(apiChannel(method), request)]),
) as unknown as ApolliaBridge;

const bridge: ApolliaBridge = {
  ...methods,
  onOpened(listener) {
    openedListeners.add(listener);
    for (const handle of pendingOpened.splice(0)) listener(handle);
    return () => {
      openedListeners.delete(listener);
    };
  },
  openDropped(file) {
    // Only a real File the user dropped has a path; anything else gives "" and main refuses it.
    let path = '';
    try {
      path = webUtils.getPathForFile(file as Parameters<typeof webUtils.getPathForFile>[0]);
    } catch {
      path = '';
    }
    return ipcRenderer.invoke(DROP_CHANNEL, path);
  },
};

contextBridge.exposeInMainWorld('apollia', bridge);
