/**
 * Checks a plugin manifest's JSON value (spec: aperium-plugin-manifest.md) and builds the
 * read-only view the plugin screen shows. Pure: no file access, nothing evaluated. The field names
 * read are listed in shared/plugin-manifest.ts and electron/core/plugin/README.md.
 */
import semver from 'semver';
import type { Problem } from '../../../shared/inspection';
import {
  higherRole,
  type ConnectionShape,
  type McpTransport,
  type MinimumRole,
  type PluginAuthView,
  type PluginCapabilityView,
  type PluginDatasetView,
  type PluginIdentityView,
  type PluginManifestView,
  type PluginMcpView,
  type PluginProfileView,
  type PluginRemoteMcpView,
  type PluginResourceView,
  type PluginSummary,
  type PluginToolView,
  type PushdownOperation,
  type QueryProfileView,
  type ToolAccessClass,
} from '../../../shared/plugin-manifest';
import { isHttpUrl } from '../../../shared/http-url';
import { pluginTextFields } from '../../../shared/plugin-text-fields';
import { jsonSchemaProblem } from '../json-schema-check';
import { textSafetyReport } from '../../../shared/display-text';
import { childPath, type JsonValue } from './strict-json';

/** The result of checking one manifest value: `view` and `summary` are null when it was refused. */
export interface PluginManifestReading {
  errors: Problem[];
  warnings: Problem[];
  view: PluginManifestView | null;
  summary: PluginSummary | null;
}

/** Spec "Identity": the plugin name is a slug equal to its entry-point name. */
export const PLUGIN_NAME_PATTERN = /^[a-z][a-z0-9_-]*$/;

const IDENTITY_KEYS = ['name', 'version', 'display_name', 'description', 'owner', 'homepage'] as const;
const TOP_KEYS = new Set<string>([
  ...IDENTITY_KEYS, 'identity', 'auth', 'auth_shape', 'capabilities', 'tools', 'resources', 'connection_shapes',
  'profiles', 'mcp', 'remote_mcp', 'datasets', 'query_surface',
]);
const KNOWN_AUTH_TYPES = new Set(['none', 'api_key', 'bearer', 'basic', 'oauth2', 'oauth2_client_credentials', 'service_account', 'custom']);
const CONNECTION_SHAPES: Record<string, ConnectionShape> = {
  user: 'user', user_owned: 'user', tenant: 'tenant', tenant_owned: 'tenant', either: 'either',
  user_plus_tenant: 'user_plus_tenant', layered: 'user_plus_tenant', none: 'none',
};
const PUSHDOWN_OPERATIONS: readonly PushdownOperation[] = ['filter', 'project', 'sort', 'limit', 'aggregate'];
const SECRET_LOOKING_KEY = /(secret|password|passwd|token|api[_-]?key|private[_-]?key|credential)/i;
const JSON_SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';

type JsonObject = { [key: string]: JsonValue };

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: JsonValue | undefined): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  return 'a boolean';
}

function has(obj: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/**
 * True when a parsed JSON value looks like a plugin manifest: an object with identity (`name`, or
 * an `identity` object) and `capabilities` or `tools`. How the `inspect` dispatcher tells a plugin
 * manifest from other JSON, by content rather than by file name.
 */
export function looksLikePluginManifest(value: JsonValue): boolean {
  if (!isObject(value)) return false;
  const identity = has(value, 'identity') ? isObject(value.identity) : has(value, 'name');
  return identity && (has(value, 'capabilities') || has(value, 'tools'));
}

/** Collects problems while reading; every message names the field by its full path. */
class Reader {
  readonly errors: Problem[] = [];
  readonly warnings: Problem[] = [];

  error(code: string, path: string, what: string): void {
    this.errors.push({ code, path, message: `plugin manifest: \`${path}\` ${what}` });
  }

  warn(code: string, path: string, what: string): void {
    this.warnings.push({ code, path, message: `plugin manifest: \`${path}\` ${what}` });
  }

  /** Spec: fields this app does not know are listed, not guessed at. */
  unknownFields(obj: JsonObject, path: string, known: Iterable<string>): void {
    const allowed = new Set(known);
    for (const key of Object.keys(obj)) {
      if (!allowed.has(key)) this.warn('plugin.unknown_field', childPath(path, key), 'is a field this app does not know; it is not shown');
    }
  }

  object(value: JsonValue | undefined, path: string): JsonObject | null {
    if (isObject(value)) return value;
    this.error('plugin.invalid_type', path, `must be an object, not ${typeName(value)}`);
    return null;
  }

  /** A required (or optional when `optional`) string; null when absent, null-valued or wrong. */
  string(obj: JsonObject, key: string, path: string, opts: { optional?: boolean; nonEmpty?: boolean } = {}): string | null {
    const fieldPath = childPath(path, key);
    const value = obj[key];
    if (!has(obj, key) || (value === null && opts.optional)) {
      if (!opts.optional) this.error('plugin.missing_field', fieldPath, 'is required');
      return null;
    }
    if (typeof value !== 'string') {
      this.error('plugin.invalid_type', fieldPath, `must be a string, not ${typeName(value)}`);
      return null;
    }
    if (opts.nonEmpty && value.trim() === '') {
      this.error('plugin.empty_field', fieldPath, 'must not be empty');
      return null;
    }
    return value;
  }

  boolean(obj: JsonObject, key: string, path: string): boolean | undefined {
    if (!has(obj, key)) return undefined;
    const value = obj[key];
    if (typeof value === 'boolean') return value;
    this.error('plugin.invalid_type', childPath(path, key), `must be true or false, not ${typeName(value)}`);
    return undefined;
  }

  stringList(obj: JsonObject, key: string, path: string, opts: { acceptString?: boolean } = {}): string[] {
    const fieldPath = childPath(path, key);
    if (!has(obj, key) || obj[key] === null) return [];
    const value = obj[key];
    if (opts.acceptString && typeof value === 'string') return [value];
    if (!Array.isArray(value)) {
      this.error('plugin.invalid_type', fieldPath, `must be a list of strings, not ${typeName(value)}`);
      return [];
    }
    const out: string[] = [];
    value.forEach((item, i) => {
      if (typeof item === 'string') out.push(item);
      else this.error('plugin.invalid_type', childPath(fieldPath, i), `must be a string, not ${typeName(item)}`);
    });
    return out;
  }

  list(obj: JsonObject, key: string, path: string): JsonValue[] {
    if (!has(obj, key) || obj[key] === null) return [];
    const value = obj[key];
    if (Array.isArray(value)) return value;
    this.error('plugin.invalid_type', childPath(path, key), `must be a list, not ${typeName(value)}`);
    return [];
  }

  /**
   * A JSON Schema, checked as every package schema is (`json-schema-check.ts`): as data, never
   * compiled (compiling generates code from package data).
   */
  jsonSchema(obj: JsonObject, key: string, path: string): Record<string, unknown> | null {
    if (!has(obj, key) || obj[key] === null) return null;
    const fieldPath = childPath(path, key);
    const value = obj[key];
    if (typeof value === 'boolean') return value ? {} : { not: {} };
    if (!isObject(value)) {
      this.error('plugin.invalid_type', fieldPath, `must be a JSON Schema object, not ${typeName(value)}`);
      return null;
    }
    const dialect = value.$schema;
    if (dialect !== undefined && dialect !== JSON_SCHEMA_2020 && dialect !== `${JSON_SCHEMA_2020}#`) {
      this.warn('plugin.schema_dialect', childPath(fieldPath, '$schema'), `names the dialect \`${String(dialect)}\`; only JSON Schema 2020-12 is checked, so this schema is shown unchecked`);
      return value;
    }
    // The same data-only check as every other package schema (json-schema-check.ts): the 2020-12
    // meta-schema, unknown keywords, patterns that do not compile, `$ref`s that do not resolve.
    const problem = jsonSchemaProblem(value, {}, fieldPath);
    if (problem !== null) {
      this.error('plugin.invalid_schema', fieldPath, `is not a valid JSON Schema: ${problem}`);
      return null;
    }
    return value;
  }
}

function readIdentity(r: Reader, root: JsonObject): PluginIdentityView | null {
  const nested = has(root, 'identity');
  const flatKeys = IDENTITY_KEYS.filter((key) => has(root, key));
  if (nested && flatKeys.length > 0) {
    r.error('plugin.identity_ambiguous', 'identity', `and top-level \`${flatKeys.join('`, `')}\` both give the identity; use one form`);
    return null;
  }
  let source = root;
  let path = '';
  if (nested) {
    const obj = r.object(root.identity, 'identity');
    if (!obj) return null;
    r.unknownFields(obj, 'identity', IDENTITY_KEYS);
    source = obj;
    path = 'identity';
  }
  const before = r.errors.length;
  const name = r.string(source, 'name', path, { nonEmpty: true });
  const version = r.string(source, 'version', path, { nonEmpty: true });
  const displayName = r.string(source, 'display_name', path, { nonEmpty: true });
  const description = r.string(source, 'description', path);
  const owner = r.string(source, 'owner', path, { nonEmpty: true });
  const homepage = r.string(source, 'homepage', path, { optional: true });
  if (name !== null && !PLUGIN_NAME_PATTERN.test(name)) {
    r.error('plugin.invalid_name', childPath(path, 'name'), `\`${name}\` is not a slug: it must match ^[a-z][a-z0-9_-]*$ (a lower-case letter, then lower-case letters, digits, \`_\` or \`-\`)`);
  }
  if (version !== null && semver.valid(version) === null) {
    r.warn('plugin.version_not_semver', childPath(path, 'version'), `\`${version}\` is not a semantic version`);
  }
  if (homepage !== null && !isHttpUrl(homepage)) {
    r.error('plugin.invalid_url', childPath(path, 'homepage'), 'must be an http or https URL');
  }
  if (r.errors.length > before || name === null || version === null || displayName === null || description === null || owner === null) return null;
  return { name, version, display_name: displayName, description, owner, homepage };
}

/** Spec "Auth": prefer the canonical `auth_shape` over the legacy `auth.type`. */
function readAuth(r: Reader, root: JsonObject): PluginAuthView | null {
  let auth: PluginAuthView | null = null;
  if (has(root, 'auth_shape') && root.auth_shape !== null) {
    const value = root.auth_shape;
    if (typeof value === 'string') {
      auth = { type: value, source: 'auth_shape', scopes: [] };
    } else if (isObject(value)) {
      r.unknownFields(value, 'auth_shape', ['type', 'scopes']);
      const type = r.string(value, 'type', 'auth_shape', { nonEmpty: true });
      const scopes = r.stringList(value, 'scopes', 'auth_shape');
      if (type !== null) auth = { type, source: 'auth_shape', scopes };
    } else {
      r.error('plugin.invalid_type', 'auth_shape', `must be a string or an object, not ${typeName(value)}`);
    }
  }
  if (has(root, 'auth') && root.auth !== null) {
    const obj = r.object(root.auth, 'auth');
    if (obj) {
      r.unknownFields(obj, 'auth', ['type', 'scopes']);
      const type = r.string(obj, 'type', 'auth', { nonEmpty: true });
      const scopes = r.stringList(obj, 'scopes', 'auth');
      if (type !== null && auth === null) auth = { type, source: 'auth.type', scopes };
      if (type !== null && auth !== null && auth.source === 'auth_shape' && auth.type.toLowerCase() !== type.toLowerCase()) {
        r.warn('plugin.auth_mismatch', 'auth.type', `is \`${type}\` but \`auth_shape\` is \`${auth.type}\`; the canonical \`auth_shape\` is shown`);
      }
    }
  }
  if (auth !== null && !KNOWN_AUTH_TYPES.has(auth.type.toLowerCase())) {
    r.warn('plugin.unknown_auth_type', auth.source === 'auth_shape' ? 'auth_shape' : 'auth.type', `is \`${auth.type}\`, a credential shape this app does not know`);
  }
  return auth;
}

function readCapabilities(r: Reader, root: JsonObject): PluginCapabilityView[] {
  const out: PluginCapabilityView[] = [];
  const seen = new Map<string, number>();
  r.list(root, 'capabilities', '').forEach((item, i) => {
    const path = childPath('capabilities', i);
    const obj = r.object(item, path);
    if (!obj) return;
    r.unknownFields(obj, path, ['name', 'description', 'routing_hints', 'routing_examples', 'approval_required', 'minimum_role']);
    const name = r.string(obj, 'name', path, { nonEmpty: true });
    const description = r.string(obj, 'description', path, { optional: true }) ?? '';
    const routingHints = r.stringList(obj, 'routing_hints', path, { acceptString: true });
    const routingExamples = r.stringList(obj, 'routing_examples', path);
    const approvalRequired = r.boolean(obj, 'approval_required', path) ?? false;
    let minimumRole: MinimumRole | null = null;
    if (has(obj, 'minimum_role') && obj.minimum_role !== null) {
      const role = obj.minimum_role;
      if (role === 'TENANT_ADMIN' || role === 'SUPER_ADMIN') minimumRole = role;
      else r.error('plugin.invalid_value', childPath(path, 'minimum_role'), `must be null, \`TENANT_ADMIN\` or \`SUPER_ADMIN\`, not ${typeof role === 'string' ? `\`${role}\`` : typeName(role)}`);
    }
    if (name === null) return;
    const first = seen.get(name);
    if (first !== undefined) {
      r.error('plugin.duplicate_capability', childPath(path, 'name'), `repeats capability name \`${name}\` of \`capabilities[${first}]\`; capability names must be unique`);
      return;
    }
    seen.set(name, i);
    out.push({ name, description, routing_hints: routingHints, routing_examples: routingExamples, approval_required: approvalRequired, minimum_role: minimumRole });
  });
  return out;
}

/**
 * Reads `tools[]`. `declared` holds every tool name written, with its class when readable, so a
 * later reference to a tool that was refused for another reason is not reported twice.
 */
function readTools(r: Reader, root: JsonObject, capabilities: PluginCapabilityView[]): { tools: PluginToolView[]; declared: Map<string, ToolAccessClass | null> } {
  const out: PluginToolView[] = [];
  const declared = new Map<string, ToolAccessClass | null>();
  const seen = new Map<string, number>();
  const byName = new Map(capabilities.map((cap) => [cap.name, cap]));
  r.list(root, 'tools', '').forEach((item, i) => {
    const path = childPath('tools', i);
    const obj = r.object(item, path);
    if (!obj) return;
    r.unknownFields(obj, path, ['name', 'capability', 'description', 'access_class', 'idempotent', 'input_schema', 'output_schema']);
    const before = r.errors.length;
    const name = r.string(obj, 'name', path, { nonEmpty: true });
    const capability = r.string(obj, 'capability', path, { nonEmpty: true });
    const description = r.string(obj, 'description', path, { optional: true }) ?? '';
    let accessClass: ToolAccessClass | null = null;
    const rawClass = r.string(obj, 'access_class', path);
    if (rawClass !== null) {
      const lower = rawClass.toLowerCase();
      if (lower === 'read' || lower === 'write') accessClass = lower;
      else r.error('plugin.invalid_value', childPath(path, 'access_class'), `must be \`read\` or \`write\`, not \`${rawClass}\``);
    }
    const idempotent = r.boolean(obj, 'idempotent', path);
    const inputSchema = r.jsonSchema(obj, 'input_schema', path);
    const outputSchema = r.jsonSchema(obj, 'output_schema', path);
    const label = name === null ? 'this tool' : `tool \`${name}\``;
    if (name !== null && !declared.has(name)) declared.set(name, accessClass);

    if (name !== null) {
      const first = seen.get(name);
      if (first !== undefined) r.error('plugin.duplicate_tool', childPath(path, 'name'), `repeats tool name \`${name}\` of \`tools[${first}]\`; tool names must be unique`);
      else seen.set(name, i);
    }
    // Spec "PluginManifest": every ToolSpec.capability resolves to a capability on the same manifest.
    const cap = capability === null ? undefined : byName.get(capability);
    if (capability !== null && cap === undefined) {
      r.error('plugin.unknown_capability', childPath(path, 'capability'), `names capability \`${capability}\`, which this manifest does not declare (${label})`);
    }
    if (accessClass === 'write') {
      // Spec "PluginManifest": write-class tools live under an approval_required capability
      // and declare idempotent explicitly.
      if (cap !== undefined && !cap.approval_required) {
        r.error('plugin.write_without_approval', childPath(path, 'capability'), `puts write ${label} under capability \`${cap.name}\`, which is not \`approval_required\`; write tools must need approval`);
      }
      if (idempotent === undefined && !has(obj, 'idempotent')) {
        r.error('plugin.idempotent_missing', childPath(path, 'idempotent'), `is required on write ${label}: declare true or false explicitly`);
      }
    }
    // Spec "Tools": READ tools are idempotent by definition.
    if (accessClass === 'read' && idempotent === false) {
      r.error('plugin.read_not_idempotent', childPath(path, 'idempotent'), `is false on read ${label}, but read tools are idempotent by definition`);
    }
    if (r.errors.length > before || name === null || capability === null || accessClass === null) return;
    out.push({
      name, capability, description, access_class: accessClass,
      idempotent: accessClass === 'read' ? true : (idempotent ?? false),
      input_schema: inputSchema, output_schema: outputSchema,
    });
  });
  return { tools: out, declared };
}

function readResources(r: Reader, root: JsonObject): PluginResourceView[] {
  const out: PluginResourceView[] = [];
  const seen = new Map<string, number>();
  r.list(root, 'resources', '').forEach((item, i) => {
    const path = childPath('resources', i);
    let resource: PluginResourceView | null = null;
    let namePath = path;
    if (typeof item === 'string') {
      if (item.trim() === '') r.error('plugin.empty_field', path, 'must not be empty');
      else resource = { name: item, description: null };
    } else if (isObject(item)) {
      r.unknownFields(item, path, ['name', 'description']);
      const name = r.string(item, 'name', path, { nonEmpty: true });
      const description = r.string(item, 'description', path, { optional: true });
      namePath = childPath(path, 'name');
      if (name !== null) resource = { name, description };
    } else {
      r.error('plugin.invalid_type', path, `must be a name or an object with \`name\`, not ${typeName(item)}`);
    }
    if (resource === null) return;
    const first = seen.get(resource.name);
    if (first !== undefined) {
      r.error('plugin.duplicate_resource', namePath, `repeats resource name \`${resource.name}\` of \`resources[${first}]\`; resource names must be unique`);
      return;
    }
    seen.set(resource.name, i);
    out.push(resource);
  });
  return out;
}

function readConnectionShapes(r: Reader, root: JsonObject): string[] {
  const shapes = r.stringList(root, 'connection_shapes', '');
  return shapes.map((shape, i) => {
    const known = CONNECTION_SHAPES[shape.toLowerCase().replace(/-/g, '_')];
    if (known === undefined) {
      r.warn('plugin.unknown_connection_shape', childPath('connection_shapes', i), `is \`${shape}\`, a connection shape this app does not know`);
      return shape;
    }
    return known;
  });
}

function readProfiles(r: Reader, root: JsonObject): PluginProfileView[] {
  const out: PluginProfileView[] = [];
  const seen = new Set<string>();
  r.list(root, 'profiles', '').forEach((item, i) => {
    const path = childPath('profiles', i);
    const obj = r.object(item, path);
    if (!obj) return;
    r.unknownFields(obj, path, ['name', 'display_name', 'description', 'config_keys']);
    const name = r.string(obj, 'name', path, { nonEmpty: true });
    const displayName = r.string(obj, 'display_name', path, { optional: true });
    const description = r.string(obj, 'description', path, { optional: true });
    const keysPath = childPath(path, 'config_keys');
    const configKeys: { key: string; hint: string | null }[] = [];
    const raw = obj.config_keys;
    if (isObject(raw)) {
      for (const [key, hint] of Object.entries(raw)) {
        if (typeof hint === 'string' || hint === null) configKeys.push({ key, hint });
        else r.error('plugin.invalid_type', childPath(keysPath, key), `must be a hint string or null, not ${typeName(hint)}`);
      }
    } else {
      for (const key of r.stringList(obj, 'config_keys', path)) configKeys.push({ key, hint: null });
    }
    // Spec "Connections and profiles": config_keys never carry secret values.
    configKeys.forEach(({ key }) => {
      if (SECRET_LOOKING_KEY.test(key)) r.warn('plugin.profile_secret_key', keysPath, `lists \`${key}\`, which looks like a secret; config keys must never carry secret values`);
    });
    if (name === null) return;
    if (seen.has(name)) {
      r.error('plugin.duplicate_profile', childPath(path, 'name'), `repeats profile name \`${name}\``);
      return;
    }
    seen.add(name);
    out.push({ name, display_name: displayName, description, config_keys: configKeys });
  });
  return out;
}

/** Spec "MCP exposure": STDIO, SSE or HTTP; port required for HTTP/SSE. */
function readMcp(r: Reader, root: JsonObject): PluginMcpView | null {
  if (!has(root, 'mcp') || root.mcp === null) return null;
  const obj = r.object(root.mcp, 'mcp');
  if (!obj) return null;
  r.unknownFields(obj, 'mcp', ['transport', 'port', 'host', 'path']);
  const before = r.errors.length;
  const raw = r.string(obj, 'transport', 'mcp');
  let transport: McpTransport | null = null;
  if (raw !== null) {
    const upper = raw.toUpperCase();
    if (upper === 'STDIO' || upper === 'SSE' || upper === 'HTTP') transport = upper;
    else r.error('plugin.invalid_value', 'mcp.transport', `must be \`STDIO\`, \`SSE\` or \`HTTP\`, not \`${raw}\``);
  }
  let port: number | null = null;
  if (has(obj, 'port') && obj.port !== null) {
    const value = obj.port;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535) port = value;
    else r.error('plugin.invalid_value', 'mcp.port', `must be a whole number from 1 to 65535, not ${JSON.stringify(value)}`);
  } else if (transport === 'HTTP' || transport === 'SSE') {
    r.error('plugin.mcp_port_missing', 'mcp.port', `is required when \`mcp.transport\` is \`${transport}\``);
  }
  const host = r.string(obj, 'host', 'mcp', { optional: true });
  const path = r.string(obj, 'path', 'mcp', { optional: true });
  if (r.errors.length > before || transport === null) return null;
  return { transport, port, host, path };
}

function readRemoteMcp(r: Reader, root: JsonObject): PluginRemoteMcpView | null {
  if (!has(root, 'remote_mcp') || root.remote_mcp === null) return null;
  const obj = r.object(root.remote_mcp, 'remote_mcp');
  if (!obj) return null;
  r.unknownFields(obj, 'remote_mcp', ['url_template', 'name', 'description', 'credential_keys', 'allowed_tools']);
  const before = r.errors.length;
  const template = r.string(obj, 'url_template', 'remote_mcp', { nonEmpty: true });
  const name = r.string(obj, 'name', 'remote_mcp', { optional: true });
  const description = r.string(obj, 'description', 'remote_mcp', { optional: true });
  const credentialKeys = r.stringList(obj, 'credential_keys', 'remote_mcp');
  const allowedTools = r.stringList(obj, 'allowed_tools', 'remote_mcp');
  if (template === null || r.errors.length > before) return null;
  const placeholders = [...new Set([...template.matchAll(/\{\{?\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}?\}/g)].map((m) => m[1] ?? ''))];
  const sample = template.replace(/\{\{?\s*[A-Za-z_][A-Za-z0-9_.-]*\s*\}?\}/g, 'x');
  let protocol = '';
  try {
    protocol = new URL(sample).protocol;
  } catch {
    r.error('plugin.invalid_url', 'remote_mcp.url_template', 'is not a URL once its placeholders are filled');
    return null;
  }
  if (protocol === 'http:') r.warn('plugin.remote_mcp_insecure', 'remote_mcp.url_template', 'uses plain http: credentials rendered into it would cross the network unencrypted');
  else if (protocol !== 'https:') {
    r.error('plugin.invalid_url', 'remote_mcp.url_template', `must be an http or https URL, not \`${protocol}\``);
    return null;
  }
  return { url_template: template, placeholders, name, description, credential_keys: credentialKeys, allowed_tools: allowedTools };
}

function readDatasets(r: Reader, root: JsonObject, declaredTools: Map<string, ToolAccessClass | null>): PluginDatasetView[] {
  const out: PluginDatasetView[] = [];
  const seen = new Set<string>();
  r.list(root, 'datasets', '').forEach((item, i) => {
    const path = childPath('datasets', i);
    const obj = r.object(item, path);
    if (!obj) return;
    r.unknownFields(obj, path, ['name', 'description', 'tool', 'schema', 'schema_probe', 'pushdown']);
    const before = r.errors.length;
    const name = r.string(obj, 'name', path, { nonEmpty: true });
    const description = r.string(obj, 'description', path, { optional: true });
    const tool = r.string(obj, 'tool', path, { optional: true });
    const schema = r.jsonSchema(obj, 'schema', path);
    const schemaProbe = r.string(obj, 'schema_probe', path, { optional: true, nonEmpty: true });
    let pushdown: PluginDatasetView['pushdown'] = null;
    if (has(obj, 'pushdown') && obj.pushdown !== null) {
      const pd = r.object(obj.pushdown, childPath(path, 'pushdown'));
      if (pd) {
        const pdPath = childPath(path, 'pushdown');
        r.unknownFields(pd, pdPath, ['operations', 'aggregates']);
        const operations: PushdownOperation[] = [];
        r.stringList(pd, 'operations', pdPath).forEach((op, j) => {
          if ((PUSHDOWN_OPERATIONS as readonly string[]).includes(op)) operations.push(op as PushdownOperation);
          else r.error('plugin.invalid_value', childPath(childPath(pdPath, 'operations'), j), `must be one of ${PUSHDOWN_OPERATIONS.map((o) => `\`${o}\``).join(', ')}, not \`${op}\``);
        });
        pushdown = { operations, aggregates: r.stringList(pd, 'aggregates', pdPath) };
      }
    }
    if (tool !== null) {
      if (!declaredTools.has(tool)) r.error('plugin.unknown_dataset_tool', childPath(path, 'tool'), `names tool \`${tool}\`, which this manifest does not declare`);
      else if (declaredTools.get(tool) === 'write') r.error('plugin.dataset_write_tool', childPath(path, 'tool'), `names write tool \`${tool}\`; a dataset resolves through a read tool`);
    }
    // Spec "Query-profile": a dynamic dataset declaring pushdown must supply a schema_probe;
    // a fixed-schema dataset must not.
    if (pushdown !== null && schema === null && schemaProbe === null && !has(obj, 'schema_probe')) {
      r.error('plugin.dataset_schema_probe_missing', childPath(path, 'schema_probe'), 'is required: a dynamic dataset (no fixed `schema`) that declares `pushdown` must supply a schema probe');
    }
    if (schema !== null && schemaProbe !== null) {
      r.error('plugin.dataset_schema_probe_unexpected', childPath(path, 'schema_probe'), 'must not be set on a dataset with a fixed `schema`');
    }
    if (name === null || r.errors.length > before) return;
    if (seen.has(name)) {
      r.error('plugin.duplicate_dataset', childPath(path, 'name'), `repeats dataset name \`${name}\``);
      return;
    }
    seen.add(name);
    out.push({ name, description, tool, fixed_schema: schema !== null, schema_probe: schemaProbe, pushdown });
  });
  return out;
}

/**
 * Spec "Query-profile": a READ tool returning a single list of flat scalar-field rows is
 * auto-adapted into a queryable dataset.
 */
function returnsFlatRows(schema: Record<string, unknown> | null): boolean {
  if (schema === null || schema.type !== 'array') return false;
  const items = schema.items as Record<string, unknown> | undefined;
  if (typeof items !== 'object' || items === null || items.type !== 'object') return false;
  const properties = items.properties as Record<string, Record<string, unknown>> | undefined;
  if (typeof properties !== 'object' || properties === null || Object.keys(properties).length === 0) return false;
  const scalar = new Set(['string', 'number', 'integer', 'boolean', 'null']);
  return Object.values(properties).every((prop) => {
    const type = prop?.type;
    if (typeof type === 'string') return scalar.has(type);
    return Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && scalar.has(t));
  });
}

function readQueryProfile(r: Reader, root: JsonObject, tools: PluginToolView[], datasets: PluginDatasetView[], toolsRead: boolean): QueryProfileView {
  const readTools = tools.filter((t) => t.access_class === 'read');
  let rationale: string | null = null;
  const present = has(root, 'query_surface') && root.query_surface !== null;
  if (present) {
    const obj = r.object(root.query_surface, 'query_surface');
    if (obj) {
      r.unknownFields(obj, 'query_surface', ['rationale']);
      const value = r.string(obj, 'rationale', 'query_surface');
      // Spec "Recorded opt-out": an empty rationale fails the gate.
      if (value !== null && value.trim() === '') r.error('plugin.query_surface_empty_rationale', 'query_surface.rationale', 'is empty: a recorded opt-out must say why the read surface is not tabular');
      else rationale = value;
    }
  }
  if (readTools.length === 0) {
    // Spec: "a stale key fails the gate". Only judged when every tool was read cleanly.
    if (present && toolsRead) r.error('plugin.query_surface_stale', 'query_surface', 'records a query-profile opt-out, but the plugin has no read tools');
    return { kind: 'none' };
  }
  const pushdown = datasets.filter((d) => d.pushdown !== null).map((d) => d.name);
  if (pushdown.length > 0) return { kind: 'pushdown', datasets: pushdown };
  const adapted = readTools.filter((t) => returnsFlatRows(t.output_schema)).map((t) => t.name);
  if (datasets.length > 0 || adapted.length > 0) return { kind: 'bounded_fetch', datasets: datasets.map((d) => d.name), autoAdaptedTools: adapted };
  if (rationale !== null) return { kind: 'opt_out', rationale };
  if (!present) {
    r.error('plugin.query_profile_missing', 'query_surface', `is missing: a plugin with read tools (${readTools.map((t) => `\`${t.name}\``).join(', ')}) must declare a query profile: a dataset with \`pushdown\`, a \`datasets\` entry, or an opt-out with a \`rationale\``);
  }
  return { kind: 'none' };
}

/**
 * Checks one manifest value against the spec's shape and construction-time invariants.
 *
 * Errors refuse the manifest (each names its field by path, `tools[2].capability`); fields this
 * app does not know are warnings (`plugin.unknown_field`). The view is built only when accepted.
 */
export function readPluginManifest(value: JsonValue): PluginManifestReading {
  const r = new Reader();
  if (!isObject(value)) {
    r.errors.push({ code: 'plugin.not_a_manifest', path: '', message: `plugin manifest: the file holds ${typeName(value)}, not a JSON object` });
    return { errors: r.errors, warnings: r.warnings, view: null, summary: null };
  }
  if (!looksLikePluginManifest(value)) {
    r.errors.push({ code: 'plugin.not_a_manifest', path: '', message: 'plugin manifest: this JSON object is not a plugin manifest (it needs an identity and `capabilities` or `tools`)' });
    return { errors: r.errors, warnings: r.warnings, view: null, summary: null };
  }
  r.unknownFields(value, '', TOP_KEYS);
  const identity = readIdentity(r, value);
  const auth = readAuth(r, value);
  const capabilities = readCapabilities(r, value);
  const toolErrorsBefore = r.errors.length;
  const { tools, declared } = readTools(r, value, capabilities);
  const toolsRead = r.errors.length === toolErrorsBefore;
  const resources = readResources(r, value);
  const connectionShapes = readConnectionShapes(r, value);
  const profiles = readProfiles(r, value);
  const mcp = readMcp(r, value);
  const remoteMcp = readRemoteMcp(r, value);
  const datasets = readDatasets(r, value, declared);
  const queryProfile = readQueryProfile(r, value, tools, datasets, toolsRead);

  if (r.errors.length > 0 || identity === null) {
    return { errors: r.errors, warnings: r.warnings, view: null, summary: null };
  }
  const view: PluginManifestView = {
    identity, auth, capabilities, tools, resources, connection_shapes: connectionShapes, profiles,
    mcp, remote_mcp: remoteMcp, datasets, query_profile: queryProfile,
  };
  const summary: PluginSummary = {
    name: identity.name,
    version: identity.version,
    owner: identity.owner,
    write_tools: tools.filter((t) => t.access_class === 'write').map((t) => t.name),
    approval_capabilities: capabilities.filter((c) => c.approval_required).map((c) => c.name),
    role_floor: capabilities.reduce<MinimumRole | null>((floor, c) => higherRole(floor, c.minimum_role), null),
  };
  return { errors: r.errors, warnings: [...r.warnings, ...textWarnings(view)], view, summary };
}

/**
 * Hidden characters and lookalike letters in the text people judge a plugin by, as warnings, so
 * `inspect` shows what the consent screen will mark. The label names the field's path.
 */
function textWarnings(view: PluginManifestView): Problem[] {
  const fields = pluginTextFields(view);
  return fields.flatMap((field) =>
    textSafetyReport([field]).map((w) => ({ code: w.code, path: field.path, message: w.message })),
  );
}
