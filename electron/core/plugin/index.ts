/**
 * Plugin manifests (spec: aperium-plugin-manifest.md), read-only. INTERFACE STUB: the plugin work replaces it.
 */
import type { Inspection } from '../../../shared/inspection';

/** Reads and checks a plugin manifest JSON file. */
export async function inspectPluginManifest(path: string): Promise<Inspection> {
  void path;
  return { kind: 'plugin', ok: false, errors: [{ code: 'plugin.unimplemented', message: 'plugin manifests are not implemented yet' }], warnings: [], summary: null, details: null };
}
