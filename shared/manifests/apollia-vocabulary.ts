/**
 * The value lists of the `apollia.toml` manifest (spec: apollia-package-manifest.md, "Tables"): the action
 * families, autonomy tiers, planning modes, MCP transports and trigger source types. One home the manifest's schema
 * and the app share, so neither reaches into the other for them.
 */
/** The five action families (spec: "Action families"). Every one but `read` is sensitive. */
export const ACTION_FAMILIES = ['read', 'read_personal', 'write_or_delete', 'send_external', 'execute_code'] as const;
export type ActionFamily = (typeof ACTION_FAMILIES)[number];

/** Families in the order a consent screen lists them: worst first. */
export const FAMILY_SEVERITY: readonly ActionFamily[] = [
  'execute_code',
  'send_external',
  'write_or_delete',
  'read_personal',
  'read',
];

export const AUTONOMY_TIERS = ['assisted', 'supervised', 'bounded_autonomous', 'long_autonomous'] as const;
export type AutonomyTier = (typeof AUTONOMY_TIERS)[number];

export const PLANNING_MODES = ['never', 'auto', 'always'] as const;
export type PlanningMode = (typeof PLANNING_MODES)[number];

export const MCP_TRANSPORTS = ['stdio', 'streamable-http', 'sse'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/** Whether an action family makes access sensitive (spec: every family except `read`). */
export function isSensitive(family: ActionFamily): boolean {
  return family !== 'read';
}

/** The trigger source types (spec: "[triggers.source] is tagged by type"). */
export const TRIGGER_SOURCE_TYPES = ['cron', 'interval', 'file_watch', 'webhook'] as const;
