/**
 * Checks a plugin manifest's JSON value (spec: aperium-plugin-manifest.md) and builds the
 * read-only view the plugin screen shows. Pure: no file access, nothing evaluated. The field names
 * read are listed in shared/manifests/plugin-manifest.ts and electron/core/plugin/README.md.
 */
import valid from 'semver/functions/valid.js';
import type { Problem } from '../../../shared/manifests/inspection';
import {
  higherRole,
  type ConnectionShape,
  type McpTransport,
  type MinimumRole,
  type PluginAuthView,
  type PluginCapabilityView,
  type PluginIdentityView,
  type PluginManifestView,
  type PluginMcpView,
  type PluginProfileView,
  type PluginRemoteMcpView,
  type PluginResourceView,
  type PluginSummary,
  type PluginToolView,
  type ToolAccessClass,
} from '../../../shared/manifests/plugin-manifest';
import { isHttpUrl } from '../../../shared/base/http-url';
import { pluginTextFields } from '../../../shared/words/plugin-text-fields';
import { textSafetyReport } from '../../../shared/words/display-text';
import { has, isObject, type JsonObject, Reader, typeName } from './field-reader';
import { readDatasets, readQueryProfile } from './query-surface';
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
  ...IDENTITY_KEYS,
  'identity',
  'auth',
  'auth_shape',
  'capabilities',
  'tools',
  'resources',
  'connection_shapes',
  'profiles',
  'mcp',
  'remote_mcp',
  'datasets',
  'query_surface',
]);
const KNOWN_AUTH_TYPES = new Set([
  'none',
  'api_key',
  'bearer',
  'basic',
  'oauth2',
  'oauth2_client_credentials',
  'service_account',
  'custom',
]);
const CONNECTION_SHAPES: Record<string, ConnectionShape> = {
  user: 'user',
  user_owned: 'user',
  tenant: 'tenant',
  tenant_owned: 'tenant',
  either: 'either',
  user_plus_tenant: 'user_plus_tenant',
  layered: 'user_plus_tenant',
  none: 'none',
};
const SECRET_LOOKING_KEY = /(secret|password|passwd|token|api[_-]?key|private[_-]?key|credential)/i;

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

function readIdentity(r: Reader, root: JsonObject): PluginIdentityView | null {
  const nested = has(root, 'identity');
  const flatKeys = IDENTITY_KEYS.filter((key) => has(root, key));
  if (nested && flatKeys.length > 0) {
    r.error(
      'plugin.identity_ambiguous',
      'identity',
      `and top-level \`${flatKeys.join('`, `')}\` both give the identity; use one form`,
    );
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
    r.error(
      'plugin.invalid_name',
      childPath(path, 'name'),
      `\`${name}\` is not a slug: it must match ^[a-z][a-z0-9_-]*$ (a lower-case letter, then lower-case letters, digits, \`_\` or \`-\`)`,
    );
  }
  if (version !== null && valid(version) === null) {
    r.warn('plugin.version_not_semver', childPath(path, 'version'), `\`${version}\` is not a semantic version`);
  }
  if (homepage !== null && !isHttpUrl(homepage)) {
    r.error('plugin.invalid_url', childPath(path, 'homepage'), 'must be an http or https URL');
  }
  if (
    r.errors.length > before ||
    name === null ||
    version === null ||
    displayName === null ||
    description === null ||
    owner === null
  )
    return null;
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
      if (
        type !== null &&
        auth !== null &&
        auth.source === 'auth_shape' &&
        auth.type.toLowerCase() !== type.toLowerCase()
      ) {
        r.warn(
          'plugin.auth_mismatch',
          'auth.type',
          `is \`${type}\` but \`auth_shape\` is \`${auth.type}\`; the canonical \`auth_shape\` is shown`,
        );
      }
    }
  }
  if (auth !== null && !KNOWN_AUTH_TYPES.has(auth.type.toLowerCase())) {
    r.warn(
      'plugin.unknown_auth_type',
      auth.source === 'auth_shape' ? 'auth_shape' : 'auth.type',
      `is \`${auth.type}\`, a credential shape this app does not know`,
    );
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
    r.unknownFields(obj, path, [
      'name',
      'description',
      'routing_hints',
      'routing_examples',
      'approval_required',
      'minimum_role',
    ]);
    const name = r.string(obj, 'name', path, { nonEmpty: true });
    const description = r.string(obj, 'description', path, { optional: true }) ?? '';
    const routingHints = r.stringList(obj, 'routing_hints', path, { acceptString: true });
    const routingExamples = r.stringList(obj, 'routing_examples', path);
    const approvalRequired = r.boolean(obj, 'approval_required', path) ?? false;
    let minimumRole: MinimumRole | null = null;
    if (has(obj, 'minimum_role') && obj.minimum_role !== null) {
      const role = obj.minimum_role;
      if (role === 'TENANT_ADMIN' || role === 'SUPER_ADMIN') minimumRole = role;
      else
        r.error(
          'plugin.invalid_value',
          childPath(path, 'minimum_role'),
          `must be null, \`TENANT_ADMIN\` or \`SUPER_ADMIN\`, not ${typeof role === 'string' ? `\`${role}\`` : typeName(role)}`,
        );
    }
    if (name === null) return;
    const first = seen.get(name);
    if (first !== undefined) {
      r.error(
        'plugin.duplicate_capability',
        childPath(path, 'name'),
        `repeats capability name \`${name}\` of \`capabilities[${first}]\`; capability names must be unique`,
      );
      return;
    }
    seen.set(name, i);
    out.push({
      name,
      description,
      routing_hints: routingHints,
      routing_examples: routingExamples,
      approval_required: approvalRequired,
      minimum_role: minimumRole,
    });
  });
  return out;
}

/**
 * Reads `tools[]`. `declared` holds every tool name written, with its class when readable, so a
 * later reference to a tool that was refused for another reason is not reported twice.
 */
function readTools(
  r: Reader,
  root: JsonObject,
  capabilities: PluginCapabilityView[],
): { tools: PluginToolView[]; declared: Map<string, ToolAccessClass | null> } {
  const out: PluginToolView[] = [];
  const declared = new Map<string, ToolAccessClass | null>();
  const seen = new Map<string, number>();
  const byName = new Map(capabilities.map((cap) => [cap.name, cap]));
  r.list(root, 'tools', '').forEach((item, i) => {
    const path = childPath('tools', i);
    const obj = r.object(item, path);
    if (!obj) return;
    r.unknownFields(obj, path, [
      'name',
      'capability',
      'description',
      'access_class',
      'idempotent',
      'input_schema',
      'output_schema',
    ]);
    const before = r.errors.length;
    const name = r.string(obj, 'name', path, { nonEmpty: true });
    const capability = r.string(obj, 'capability', path, { nonEmpty: true });
    const description = r.string(obj, 'description', path, { optional: true }) ?? '';
    let accessClass: ToolAccessClass | null = null;
    const rawClass = r.string(obj, 'access_class', path);
    if (rawClass !== null) {
      const lower = rawClass.toLowerCase();
      if (lower === 'read' || lower === 'write') accessClass = lower;
      else
        r.error(
          'plugin.invalid_value',
          childPath(path, 'access_class'),
          `must be \`read\` or \`write\`, not \`${rawClass}\``,
        );
    }
    const idempotent = r.boolean(obj, 'idempotent', path);
    const inputSchema = r.jsonSchema(obj, 'input_schema', path);
    const outputSchema = r.jsonSchema(obj, 'output_schema', path);
    const label = name === null ? 'this tool' : `tool \`${name}\``;
    if (name !== null && !declared.has(name)) declared.set(name, accessClass);

    if (name !== null) {
      const first = seen.get(name);
      if (first !== undefined)
        r.error(
          'plugin.duplicate_tool',
          childPath(path, 'name'),
          `repeats tool name \`${name}\` of \`tools[${first}]\`; tool names must be unique`,
        );
      else seen.set(name, i);
    }
    // Spec "PluginManifest": every ToolSpec.capability resolves to a capability on the same manifest.
    const cap = capability === null ? undefined : byName.get(capability);
    if (capability !== null && cap === undefined) {
      r.error(
        'plugin.unknown_capability',
        childPath(path, 'capability'),
        `names capability \`${capability}\`, which this manifest does not declare (${label})`,
      );
    }
    if (accessClass === 'write') {
      // Spec "PluginManifest": write-class tools live under an approval_required capability
      // and declare idempotent explicitly.
      if (cap !== undefined && !cap.approval_required) {
        r.error(
          'plugin.write_without_approval',
          childPath(path, 'capability'),
          `puts write ${label} under capability \`${cap.name}\`, which is not \`approval_required\`; write tools must need approval`,
        );
      }
      if (idempotent === undefined && !has(obj, 'idempotent')) {
        r.error(
          'plugin.idempotent_missing',
          childPath(path, 'idempotent'),
          `is required on write ${label}: declare true or false explicitly`,
        );
      }
    }
    // Spec "Tools": READ tools are idempotent by definition.
    if (accessClass === 'read' && idempotent === false) {
      r.error(
        'plugin.read_not_idempotent',
        childPath(path, 'idempotent'),
        `is false on read ${label}, but read tools are idempotent by definition`,
      );
    }
    if (r.errors.length > before || name === null || capability === null || accessClass === null) return;
    out.push({
      name,
      capability,
      description,
      access_class: accessClass,
      idempotent: accessClass === 'read' ? true : (idempotent ?? false),
      input_schema: inputSchema,
      output_schema: outputSchema,
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
      r.error(
        'plugin.duplicate_resource',
        namePath,
        `repeats resource name \`${resource.name}\` of \`resources[${first}]\`; resource names must be unique`,
      );
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
      r.warn(
        'plugin.unknown_connection_shape',
        childPath('connection_shapes', i),
        `is \`${shape}\`, a connection shape this app does not know`,
      );
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
        else
          r.error(
            'plugin.invalid_type',
            childPath(keysPath, key),
            `must be a hint string or null, not ${typeName(hint)}`,
          );
      }
    } else {
      for (const key of r.stringList(obj, 'config_keys', path)) configKeys.push({ key, hint: null });
    }
    // Spec "Connections and profiles": config_keys never carry secret values.
    configKeys.forEach(({ key }) => {
      if (SECRET_LOOKING_KEY.test(key))
        r.warn(
          'plugin.profile_secret_key',
          keysPath,
          `lists \`${key}\`, which looks like a secret; config keys must never carry secret values`,
        );
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
    else
      r.error(
        'plugin.invalid_value',
        'mcp.port',
        `must be a whole number from 1 to 65535, not ${JSON.stringify(value)}`,
      );
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
  const placeholders = [
    ...new Set([...template.matchAll(/\{\{?\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}?\}/g)].map((m) => m[1] ?? '')),
  ];
  const sample = template.replace(/\{\{?\s*[A-Za-z_][A-Za-z0-9_.-]*\s*\}?\}/g, 'x');
  let protocol = '';
  try {
    protocol = new URL(sample).protocol;
  } catch {
    r.error('plugin.invalid_url', 'remote_mcp.url_template', 'is not a URL once its placeholders are filled');
    return null;
  }
  if (protocol === 'http:')
    r.warn(
      'plugin.remote_mcp_insecure',
      'remote_mcp.url_template',
      'uses plain http: credentials rendered into it would cross the network unencrypted',
    );
  else if (protocol !== 'https:') {
    r.error('plugin.invalid_url', 'remote_mcp.url_template', `must be an http or https URL, not \`${protocol}\``);
    return null;
  }
  return {
    url_template: template,
    placeholders,
    name,
    description,
    credential_keys: credentialKeys,
    allowed_tools: allowedTools,
  };
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
    r.errors.push({
      code: 'plugin.not_a_manifest',
      path: '',
      message: `plugin manifest: the file holds ${typeName(value)}, not a JSON object`,
    });
    return { errors: r.errors, warnings: r.warnings, view: null, summary: null };
  }
  if (!looksLikePluginManifest(value)) {
    r.errors.push({
      code: 'plugin.not_a_manifest',
      path: '',
      message:
        'plugin manifest: this JSON object is not a plugin manifest (it needs an identity and `capabilities` or `tools`)',
    });
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
    identity,
    auth,
    capabilities,
    tools,
    resources,
    connection_shapes: connectionShapes,
    profiles,
    mcp,
    remote_mcp: remoteMcp,
    datasets,
    query_profile: queryProfile,
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
