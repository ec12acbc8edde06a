/**
 * The plugin manifest's connections and profiles (spec "Connections and profiles"): the
 * connection shapes it supports and its named profiles with their config keys, read with the
 * field reader.
 */
import type { ConnectionShape, PluginProfileView } from '../../../shared/manifests/plugin-manifest';
import { isObject, type JsonObject, type Reader, typeName } from './field-reader';
import { childPath } from './strict-json';

/** Connection shapes by the names writers use, old names (`user_owned`, `layered`) included. */
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

/** A config key that names a secret: config keys describe settings and must never carry secret values. */
const SECRET_LOOKING_KEY = /(secret|password|passwd|token|api[_-]?key|private[_-]?key|credential)/i;

/**
 * Reads `connection_shapes[]`, each normalised to its canonical name.
 *
 * A shape this app does not know is kept as written, with a warning, rather than refused: it is shown, not used.
 */
export function readConnectionShapes(r: Reader, root: JsonObject): string[] {
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

/**
 * Reads `profiles[]`: each profile's name, text and config keys (a list, or keys with hints).
 *
 * A config key that looks like a secret is a warning (`plugin.profile_secret_key`), a repeated name an error.
 */
export function readProfiles(r: Reader, root: JsonObject): PluginProfileView[] {
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
