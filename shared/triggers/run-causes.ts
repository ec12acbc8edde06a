/**
 * Why a run was queued: one list the run file, the Runs view's schema and the words share.
 */
/**
 * Why a run was asked for (`runs/pending/*.json` `cause`). `missed` is a schedule whose time passed
 * while the computer slept or no trigger host ran.
 */
export const RUN_CAUSES = ['schedule', 'missed', 'at', 'file_watch', 'webhook'] as const;
/** Why a run was asked for. */
export type RunCause = (typeof RUN_CAUSES)[number];
