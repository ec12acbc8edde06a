/**
 * IPC channel names, shared by main's binding and the preload (no `electron` import, so the
 * sandboxed preload bundles it as plain data).
 */

/** The channel of an Api method: `apollia:<method>`. */
export const apiChannel = (method: string): string => `apollia:${method}`;

/** The channel the preload's drop helper sends a dropped file's path on. */
export const DROP_CHANNEL = 'apollia:drop';

/** The channel main pushes opened sources on (`ApiEvents.opened`). */
export const OPENED_CHANNEL = 'apollia:opened';
