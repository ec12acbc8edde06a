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
import { someNames } from '../base/word-lists';

/** A plugin's MCP exposure (spec "MCP exposure": `STDIO`, `SSE`, `HTTP`), in words. */
export const PLUGIN_TRANSPORT_WORDS: Record<'STDIO' | 'SSE' | 'HTTP', string> = {
  STDIO: 'for a program on this computer that starts it',
  SSE: 'over the network (an event stream)',
  HTTP: 'over the network (HTTP)',
};

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

/*
 * The plain-words risk summary of a plugin, worst first, with what it does not do. Names in the
 * lines are package text: a screen shows them through shared/words/display-text.ts like any other field.
 */

/** One line of the summary: `sensitive` lines come first, `cannot` lines say what it does not do. */
export interface PluginRiskLine {
  level: 'sensitive' | 'notice' | 'cannot';
  text: string;
}

/** Who a role floor lets in, in words (spec "Role floor"). */
export function roleFloorWords(role: MinimumRole | null): string {
  if (role === 'SUPER_ADMIN') return 'Only the platform operator';
  if (role === 'TENANT_ADMIN') return 'Only tenant admins and the platform operator';
  return 'Anyone on the tenant';
}

/** Up to four names, then how many more. */
function names(list: string[]): string {
  return someNames(list, 4);
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What the plugin would be able to do if a host installed it, worst first. */
export function pluginRiskSummary(view: PluginManifestView): PluginRiskLine[] {
  const sensitive: PluginRiskLine[] = [];
  const notice: PluginRiskLine[] = [];
  const cannot: PluginRiskLine[] = [];
  const writes = view.tools.filter((t) => t.access_class === 'write');
  const reads = view.tools.filter((t) => t.access_class === 'read');
  const minting = writes.filter((t) => !t.idempotent);

  if (view.remote_mcp) {
    sensitive.push({
      level: 'sensitive',
      text: 'Gets its tools from a remote MCP server at runtime: what it can do is decided by that server, not by this manifest.',
    });
  }
  if (view.mcp && view.mcp.transport !== 'STDIO') {
    sensitive.push({
      level: 'sensitive',
      text: `Exposes its tools as an MCP server ${PLUGIN_TRANSPORT_WORDS[view.mcp.transport]}${view.mcp.port !== null ? ` on port ${view.mcp.port}` : ''}: other programs that can reach that port could call them.`,
    });
  }
  if (writes.length > 0) {
    sensitive.push({
      level: 'sensitive',
      text: `Can change or create things: ${count(writes.length, 'write tool', 'write tools')} (${names(writes.map((t) => t.name))}).`,
    });
  }
  if (minting.length > 0) {
    sensitive.push({
      level: 'sensitive',
      text: `Running ${minting.length === 1 ? 'this tool' : 'these tools'} twice does it twice (not idempotent): ${names(minting.map((t) => t.name))}.`,
    });
  }
  if (view.mcp && view.mcp.transport === 'STDIO') {
    notice.push({
      level: 'notice',
      text: 'Can also be run as an MCP server by an MCP client outside Aperium that starts it on this computer.',
    });
  }
  const gated = view.capabilities.filter((c) => c.approval_required);
  if (gated.length > 0) {
    notice.push({
      level: 'notice',
      text: `Asks for approval before using ${count(gated.length, 'capability', 'capabilities')}: ${names(gated.map((c) => c.name))}.`,
    });
  }
  const floored = view.capabilities.filter((c) => c.minimum_role !== null);
  if (floored.length > 0) {
    notice.push({
      level: 'notice',
      text: `Restricted to admins: ${names(floored.map((c) => `${c.name} (${roleFloorWords(c.minimum_role).toLowerCase()})`))}.`,
    });
  }
  if (view.auth && view.auth.type.toLowerCase() !== 'none') {
    notice.push({
      level: 'notice',
      text: `Needs credentials of the shape ${view.auth.type}${view.auth.scopes.length > 0 ? ` with ${count(view.auth.scopes.length, 'scope', 'scopes')}` : ''}; the manifest holds no credential values.`,
    });
  }
  if (reads.length > 0) {
    notice.push({
      level: 'notice',
      text: `Can read data: ${count(reads.length, 'read tool', 'read tools')} (${names(reads.map((t) => t.name))}).`,
    });
  }

  if (writes.length === 0) cannot.push({ level: 'cannot', text: 'Declares no write tools: it only reads.' });
  if (!view.mcp) cannot.push({ level: 'cannot', text: 'Does not expose an MCP server.' });
  if (!view.remote_mcp) cannot.push({ level: 'cannot', text: 'Does not use a remote MCP server.' });
  if (!view.auth || view.auth.type.toLowerCase() === 'none')
    cannot.push({ level: 'cannot', text: 'Declares no credentials.' });
  return [...sensitive, ...notice, ...cannot];
}
