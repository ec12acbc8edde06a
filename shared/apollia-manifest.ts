/**
 * The `apollia.toml` manifest of an `.apo` package, as typed data after the strict schema
 * accepted it (spec: apollia-package-manifest.md, "Tables").
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

export interface PackageTable {
  name: string;
  version: string;
  publisher: string;
  description?: string;
  sdk: string;
}

export interface ModelRequest {
  temperature?: number;
  top_p?: number;
  top_k?: number;
  repetition_penalty?: number;
  max_tokens?: number;
  seed?: number;
}

export interface AgentDefaults {
  access?: string[];
  sources?: string[];
  autonomy?: AutonomyTier;
  planning?: PlanningMode;
  model?: { model?: string; preset?: string; request?: ModelRequest };
}

export interface AgentEntry {
  id: string;
  name: string;
  mission: string;
  examples?: string[];
  defaults?: AgentDefaults;
}

export interface ToolEntry {
  name: string;
  module: string;
  description: string;
  action: ActionFamily;
  inputs?: Record<string, unknown>;
}

export interface WorkflowEntry extends ToolEntry {
  steps?: string[];
}

export interface RequiresEntry {
  type: string;
  reason?: string;
}

export interface McpServerEntry {
  name: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  transport?: McpTransport;
  url?: string;
  init_timeout_secs?: number;
  call_timeout_secs?: number;
  max_response_bytes?: number;
  max_tools?: number;
  tags?: string[];
  /** Retired: read, warned about (`package.manifest.retired_key`), and ignored. */
  /** Retired: read, warned about, ignored; any value (spec "[[mcp_servers]]"). */
  requires_approval?: unknown;
}

/** `[triggers.source]`, tagged by `type` (spec: "[triggers.source] is tagged by type"). */
export type TriggerSource =
  | { type: 'cron'; schedule: string }
  | { type: 'interval'; every: string }
  | { type: 'file_watch'; recursive?: boolean }
  | { type: 'webhook' };

export interface TriggerEntry {
  id: string;
  target: string;
  input?: string;
  source: TriggerSource;
}

export interface ApolliaManifest {
  package: PackageTable;
  agents?: AgentEntry[];
  tools?: ToolEntry[];
  workflows?: WorkflowEntry[];
  requires?: RequiresEntry[];
  mcp_servers?: McpServerEntry[];
  pip?: { packages?: string[] };
  triggers?: TriggerEntry[];
}
