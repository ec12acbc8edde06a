/**
 * IPC channel names, shared by main's binding (electron/main/ipc.ts, open-requests.ts) and the
 * preload: in `shared/` so both may import them, with no `electron` import, so the sandboxed
 * preload bundles them as plain data.
 */

/** The channel of an Api method: `apollia:<method>`. */
export const apiChannel = (method: string): string => `apollia:${method}`;

/** The channel the preload's drop helper sends a dropped file's path on. */
export const DROP_CHANNEL = 'apollia:drop';

/** The channel main pushes opened sources on (`ApiEvents.opened`). */
export const OPENED_CHANNEL = 'apollia:opened';
