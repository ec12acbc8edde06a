/**
 * The `apollia.toml` manifest of an `.apo` package, as typed data after the strict schema
 * accepted it (spec: apollia-package-manifest.md, "Tables"). The shape is defined once with its
 * schema (`shared/manifests/apollia-manifest-schema.ts`, TypeBox, loaded only by the schema compiler and tests)
 * and re-exported here as types; this module holds the value lists the schema and the app share.
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

export type {
  AgentDefaults,
  AgentEntry,
  ApolliaManifest,
  McpServerEntry,
  ModelRequest,
  PackageTable,
  RequiresEntry,
  ToolEntry,
  TriggerEntry,
  TriggerSource,
  WorkflowEntry,
} from './apollia-manifest-schema';
