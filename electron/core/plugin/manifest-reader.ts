/**
 * Checks a plugin manifest's JSON value (spec: aperium-plugin-manifest.md) and builds the
 * read-only view the plugin screen shows. Pure: no file access, nothing evaluated. The field names
 * read are listed in shared/manifests/plugin-manifest.ts and electron/core/plugin/README.md.
 *
 * This file checks the top level and puts the view together; each section of the manifest is read
 * in its own file: identity and auth, capabilities/tools/resources, connections and profiles, MCP
 * exposure, datasets and query surface.
 */
import type { Problem } from '../../../shared/manifests/inspection';
import {
  higherRole,
  type MinimumRole,
  type PluginManifestView,
  type PluginSummary,
} from '../../../shared/manifests/plugin-manifest';
import { pluginTextFields } from '../../../shared/words/plugin-text-fields';
import { textSafetyReport } from '../../../shared/words/display-text';
import { readCapabilities, readResources, readTools } from './capabilities-tools-resources';
import { readConnectionShapes, readProfiles } from './connections-and-profiles';
import { has, isObject, Reader, typeName } from './field-reader';
import { IDENTITY_KEYS, readAuth, readIdentity } from './identity-and-auth';
import { readMcp, readRemoteMcp } from './mcp-exposure';
import { readDatasets, readQueryProfile } from './query-surface';
import type { JsonValue } from './strict-json';

/** The result of checking one manifest value: `view` and `summary` are null when it was refused. */
export interface PluginManifestReading {
  errors: Problem[];
  warnings: Problem[];
  view: PluginManifestView | null;
  summary: PluginSummary | null;
}

/** Every top-level key this app reads; any other is a `plugin.unknown_field` warning. */
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
