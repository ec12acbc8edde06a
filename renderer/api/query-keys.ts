/**
 * The one `queryKeys` factory (STYLE.md "State in the renderer"): every react-query key the
 * renderer uses is made here, so invalidation after a change always names the right queries.
 */
export const queryKeys = {
  all: ['apollia'] as const,
  appInfo: () => [...queryKeys.all, 'appInfo'] as const,
  builtinTemplates: () => [...queryKeys.all, 'builtinTemplates'] as const,
  inspections: () => [...queryKeys.all, 'inspection'] as const,
  inspection: (sourceId: string) => [...queryKeys.inspections(), sourceId] as const,
  previews: () => [...queryKeys.all, 'previewApply'] as const,
  previewApply: (sourceId: string, request: unknown) => [...queryKeys.previews(), sourceId, request] as const,
  dashboard: () => [...queryKeys.all, 'dashboard'] as const,
  /** The policy page: under the dashboard's key, so every change that refreshes the dashboard refreshes it. */
  policyPage: () => [...queryKeys.dashboard(), 'policyPage'] as const,
  settings: () => [...queryKeys.all, 'settings'] as const,
  startAtLogin: () => [...queryKeys.all, 'startAtLogin'] as const,
  // What the trigger host and the activity log say (refreshed after every change, and polled).
  live: () => [...queryKeys.all, 'live'] as const,
  /** A secret being typed, asked whether another trigger holds it: kept in memory only while the field shows it. */
  webhookSecretShared: (triggerId: string, secret: string) =>
    [...queryKeys.all, 'webhookSecretShared', triggerId, secret] as const,
  triggerStatus: () => [...queryKeys.live(), 'triggerStatus'] as const,
  activity: (agent: string | null, decisionsOnly = false) =>
    [...queryKeys.live(), 'activity', agent, decisionsOnly] as const,
  /** The collector the activity record is sent to (Settings → Activity record), with what the host last sent. */
  activityCollector: () => [...queryKeys.live(), 'activityCollector'] as const,
  /** What waits in `runs/pending/` (one trigger's, or every trigger's with null). */
  waitingRuns: (trigger: string | null) => [...queryKeys.live(), 'waitingRuns', trigger] as const,
  /** Trust: Settings → Trusted publishers. */
  trustedKeys: () => [...queryKeys.all, 'trustedKeys'] as const,
};
