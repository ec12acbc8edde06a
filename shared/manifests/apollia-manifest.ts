/**
 * The `apollia.toml` manifest of an `.apo` package, as typed data after the strict schema
 * accepted it (spec: apollia-package-manifest.md, "Tables"). The shape is defined once with its
 * schema (`shared/manifests/apollia-manifest-schema.ts`, TypeBox, loaded only by the schema compiler and tests)
 * and re-exported here as types, beside the value lists (`apollia-vocabulary.ts`) the schema and the app share.
 */
export {
  ACTION_FAMILIES,
  FAMILY_SEVERITY,
  AUTONOMY_TIERS,
  PLANNING_MODES,
  MCP_TRANSPORTS,
  isSensitive,
  TRIGGER_SOURCE_TYPES,
} from './apollia-vocabulary';
export type { ActionFamily, AutonomyTier, PlanningMode, McpTransport } from './apollia-vocabulary';

/** The command line an MCP server would run, exactly as the manifest gives it. */
export function mcpCommandLine(server: { command?: string; args?: string[] }): string {
  return [server.command ?? '', ...(server.args ?? [])].filter((part) => part !== '').join(' ');
}

/** Whether a pip requirement is pinned to one version (`pypdf==4.3.1`; spec `[pip]`: "Pin them"). */
export function isPinnedRequirement(requirement: string): boolean {
  return /^[A-Za-z0-9._-]+(\[[^\]]*\])?\s*===?\s*[^\s,;*]+$/.test(requirement.trim());
}

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
