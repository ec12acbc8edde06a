/**
 * Plugin manifests (spec: aperium-plugin-manifest.md): the normalised, read-only view this app
 * shows of `PluginManifest.model_dump_json()`. Plugins are shown, never installed.
 *
 * The spec gives the model's shape but not every JSON field name, so these are the names this app
 * reads (electron/core/plugin/README.md says the same, with examples). Anything else is reported as
 * a `plugin.unknown_field` warning with its path, never guessed at.
 *
 * Top level (one JSON object, UTF-8, at most 4 MiB):
 * - identity, either flat at the top level or as one `identity` object (not both):
 *   `name` (slug `^[a-z][a-z0-9_-]*$`), `version`, `display_name`, `description`, `owner`
 *   (all required strings), `homepage` (optional http(s) URL or null).
 * - `auth_shape` (canonical: a string such as `"oauth2"`, or `{ "type": "oauth2", "scopes": [..] }`)
 *   or the legacy `auth: { "type": "api_key" }`. Shapes only: credential values are never here.
 * - `capabilities[]`: `name`, `description`, `routing_hints` (string or string[]),
 *   `routing_examples` (string[]), `approval_required` (boolean, default false),
 *   `minimum_role` (null | `"TENANT_ADMIN"` | `"SUPER_ADMIN"`, default null).
 * - `tools[]`: `name`, `capability`, `description`, `access_class` (`"read"` | `"write"`, upper case
 *   accepted), `idempotent` (boolean; required on write tools), `input_schema` / `output_schema`
 *   (JSON Schema objects, checked against the 2020-12 meta-schema, never compiled or run).
 * - `resources[]`: a name string, or `{ "name", "description"? }`.
 * - `connection_shapes[]`: `"user"`, `"tenant"`, `"either"`, `"user_plus_tenant"`, `"none"`.
 * - `profiles[]`: `name`, `display_name`?, `description`?, `config_keys` (string[], or an object
 *   of key → hint text; hints only, never secret values).
 * - `mcp` (null or `{ "transport": "STDIO" | "SSE" | "HTTP", "port"?, "host"?, "path"? }`; port
 *   required for HTTP and SSE).
 * - `remote_mcp` (null or `{ "url_template", "name"?, "description"?, "credential_keys"?: string[],
 *   "allowed_tools"?: string[] }`).
 * - `datasets[]`: `name`, `description`?, `tool`? (the read tool it resolves through), `schema`
 *   (JSON Schema object for a fixed schema, or null for a dynamic one), `schema_probe`? (string),
 *   `pushdown`? (`{ "operations": ("filter"|"project"|"sort"|"limit"|"aggregate")[],
 *   "aggregates"?: string[] }`).
 * - `query_surface` (null or `{ "rationale": string }`): the recorded opt-out of the query profile.
 */

/** Who may invoke a capability's tools (spec "Role floor"); null lets any actor on the tenant ladder. */
export type MinimumRole = 'TENANT_ADMIN' | 'SUPER_ADMIN';

/** A tool's class (spec "Tools"): READ tools are idempotent by definition. */
export type ToolAccessClass = 'read' | 'write';

/** MCP transports a plugin may expose its tools over (spec "MCP exposure"). */
export type McpTransport = 'STDIO' | 'SSE' | 'HTTP';

/** Who owns a connection record (spec "Connections and profiles"). */
export type ConnectionShape = 'user' | 'tenant' | 'either' | 'user_plus_tenant' | 'none';

/** The plugin's identity (spec "Identity"). */
export interface PluginIdentityView {
  name: string;
  version: string;
  display_name: string;
  description: string;
  owner: string;
  homepage: string | null;
}

/** The credential shape a plugin declares; never a value (spec "Auth"). */
export interface PluginAuthView {
  /** As written, e.g. `oauth2`, `api_key`, `none`. */
  type: string;
  /** Which field declared it: the canonical `auth_shape` or the legacy `auth.type`. */
  source: 'auth_shape' | 'auth.type';
  scopes: string[];
}

/** One capability: the routing surface, the approval gate and the role floor (spec "Capabilities"). */
export interface PluginCapabilityView {
  name: string;
  description: string;
  routing_hints: string[];
  routing_examples: string[];
  approval_required: boolean;
  minimum_role: MinimumRole | null;
}

/** One tool bound to a capability (spec "Tools"). */
export interface PluginToolView {
  name: string;
  capability: string;
  description: string;
  access_class: ToolAccessClass;
  /** Always true for read tools; as declared for write tools. */
  idempotent: boolean;
  input_schema: Record<string, unknown> | null;
  output_schema: Record<string, unknown> | null;
}

/** A resource the plugin declares (its callable is not in the JSON). */
export interface PluginResourceView {
  name: string;
  description: string | null;
}

/** A deployment variant and its non-secret configuration keys (spec "Connections and profiles"). */
export interface PluginProfileView {
  name: string;
  display_name: string | null;
  description: string | null;
  config_keys: { key: string; hint: string | null }[];
}

/** The plugin's own MCP server exposure (spec "MCP exposure", `mcp`). */
export interface PluginMcpView {
  transport: McpTransport;
  port: number | null;
  host: string | null;
  path: string | null;
}

/** A remote MCP server the plugin's tools come from (spec "MCP exposure", `remote_mcp`). */
export interface PluginRemoteMcpView {
  url_template: string;
  /** The `{placeholder}` names of the template, in order, unique. */
  placeholders: string[];
  name: string | null;
  description: string | null;
  credential_keys: string[];
  allowed_tools: string[];
}

/** Plan operations a dataset lets the host push down to the source (spec "Query-profile"). */
export type PushdownOperation = 'filter' | 'project' | 'sort' | 'limit' | 'aggregate';

/** One queryable dataset (spec "Query-profile and pushdown contract"). */
export interface PluginDatasetView {
  name: string;
  description: string | null;
  tool: string | null;
  fixed_schema: boolean;
  schema_probe: string | null;
  pushdown: { operations: PushdownOperation[]; aggregates: string[] } | null;
}

/**
 * How a read-capable plugin satisfies the query-profile gate, in the spec's order of preference;
 * `none` when the plugin has no read tools (the gate does not apply).
 */
export type QueryProfileView =
  | { kind: 'pushdown'; datasets: string[] }
  | { kind: 'bounded_fetch'; datasets: string[]; autoAdaptedTools: string[] }
  | { kind: 'opt_out'; rationale: string }
  | { kind: 'none' };

/** `details` of a plugin inspection: everything the read-only plugin screen shows. */
export interface PluginManifestView {
  identity: PluginIdentityView;
  auth: PluginAuthView | null;
  capabilities: PluginCapabilityView[];
  tools: PluginToolView[];
  resources: PluginResourceView[];
  connection_shapes: string[];
  profiles: PluginProfileView[];
  mcp: PluginMcpView | null;
  remote_mcp: PluginRemoteMcpView | null;
  datasets: PluginDatasetView[];
  query_profile: QueryProfileView;
}

/** `summary` of a plugin inspection (the `inspect --json` summary for `kind: "plugin"`). */
export interface PluginSummary {
  name: string;
  version: string;
  owner: string;
  /** Names of write-class tools, in manifest order. */
  write_tools: string[];
  /** Names of capabilities with `approval_required`, in manifest order. */
  approval_capabilities: string[];
  /** The highest `minimum_role` any capability declares, or null. */
  role_floor: MinimumRole | null;
}

/** The ordering of role floors: SUPER_ADMIN is above TENANT_ADMIN. */
export function higherRole(a: MinimumRole | null, b: MinimumRole | null): MinimumRole | null {
  if (a === 'SUPER_ADMIN' || b === 'SUPER_ADMIN') return 'SUPER_ADMIN';
  if (a === 'TENANT_ADMIN' || b === 'TENANT_ADMIN') return 'TENANT_ADMIN';
  return null;
}
