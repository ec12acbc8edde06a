/**
 * The plugin manifest's identity (spec "Identity": name, version, display name, description,
 * owner, homepage; flat or in one `identity` object) and its auth shape (spec "Auth": the
 * canonical `auth_shape` or the legacy `auth`), read with the field reader.
 */
import valid from 'semver/functions/valid.js';
import type { PluginAuthView, PluginIdentityView } from '../../../shared/manifests/plugin-manifest';
import { isHttpUrl } from '../../../shared/base/http-url';
import { has, isObject, type JsonObject, type Reader, typeName } from './field-reader';
import { childPath } from './strict-json';

/** Spec "Identity": the plugin name is a slug equal to its entry-point name. */
export const PLUGIN_NAME_PATTERN = /^[a-z][a-z0-9_-]*$/;

/**
 * The identity fields, flat at the top level or inside one `identity` object.
 *
 * Listed once: the identity reader checks them, the manifest reader knows them as top-level keys.
 */
export const IDENTITY_KEYS = ['name', 'version', 'display_name', 'description', 'owner', 'homepage'] as const;

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

/**
 * Reads the plugin's identity, or null when any identity field is refused.
 *
 * Both forms at once are refused (`plugin.identity_ambiguous`): which one a reader shows would be a guess.
 */
export function readIdentity(r: Reader, root: JsonObject): PluginIdentityView | null {
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
export function readAuth(r: Reader, root: JsonObject): PluginAuthView | null {
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
