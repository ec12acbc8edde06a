/**
 * Plugin manifests (spec: aperium-plugin-manifest.md), read-only: the JSON wire shape of a
 * `PluginManifest`, read as data under a size limit and checked against the spec's invariants.
 * A plugin is shown, never installed; nothing in it is evaluated. Field names: README.md here.
 */
import { open } from 'node:fs/promises';
import type { Inspection, Problem } from '../../../shared/manifests/inspection';
import type { PluginManifestView, PluginSummary } from '../../../shared/manifests/plugin-manifest';
import { looksLikePluginManifest, readPluginManifest } from './manifest-reader';
import { readStrictJson } from './strict-json';

export { PLUGIN_NAME_PATTERN } from './identity-and-auth';
export { looksLikePluginManifest, readPluginManifest } from './manifest-reader';
export type { PluginManifestReading } from './manifest-reader';
export { readStrictJson } from './strict-json';

/** The largest plugin manifest this app reads; a real one is tens of KiB. */
export const MAX_PLUGIN_MANIFEST_BYTES = 4 * 1024 * 1024;

/** A plugin inspection: `summary` and `details` are set exactly when it is accepted. */
export type PluginInspection = Inspection<PluginSummary, PluginManifestView> & { kind: 'plugin' };

function refused(error: Problem, warnings: Problem[] = []): PluginInspection {
  return { kind: 'plugin', ok: false, errors: [error], warnings, summary: null, details: null };
}

/**
 * Reads a file's bytes, refusing it once it is known to exceed `limit` (by its size, or while
 * reading if it grows), so a huge file costs neither time nor memory.
 */
async function readBounded(
  path: string,
  limit: number,
): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; error: Problem }> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (caught) {
    return {
      ok: false,
      error: {
        code: 'plugin.unreadable',
        message: `plugin manifest: cannot open the file (${(caught as NodeJS.ErrnoException).code ?? 'error'})`,
      },
    };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile())
      return {
        ok: false,
        error: { code: 'plugin.not_a_file', message: 'plugin manifest: this is not a regular file' },
      };
    const tooLarge: Problem = {
      code: 'plugin.too_large',
      message: `plugin manifest: the file is larger than ${limit / (1024 * 1024)} MiB`,
    };
    if (info.size > limit) return { ok: false, error: tooLarge };
    const buffer = new Uint8Array(limit + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > limit) return { ok: false, error: tooLarge };
    return { ok: true, bytes: buffer.subarray(0, filled) };
  } finally {
    await handle.close();
  }
}

/**
 * Checks a plugin manifest held in memory: strict UTF-8, strict JSON, then the spec's rules.
 * For a dispatcher that already holds a JSON file's bytes; the caller keeps the 4 MiB limit.
 */
export function inspectPluginManifestBytes(bytes: Uint8Array): PluginInspection {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return refused({ code: 'plugin.not_utf8', message: 'plugin manifest: the file is not valid UTF-8 text' });
  }
  const parsed = readStrictJson(text);
  if (!parsed.ok) {
    const { code, message, path } = parsed.error;
    return refused(path === '' ? { code, message } : { code, message, path });
  }
  const reading = readPluginManifest(parsed.value);
  if (reading.view === null || reading.summary === null) {
    return {
      kind: 'plugin',
      ok: false,
      errors: reading.errors,
      warnings: reading.warnings,
      summary: null,
      details: null,
    };
  }
  return {
    kind: 'plugin',
    ok: true,
    errors: [],
    warnings: reading.warnings,
    summary: reading.summary,
    details: reading.view,
  };
}

/**
 * True when `bytes` are a JSON object shaped like a plugin manifest (identity plus `capabilities`
 * or `tools`): how a dispatcher recognises one by content, whatever the file is called.
 */
export function isPluginManifestContent(bytes: Uint8Array): boolean {
  if (bytes.length > MAX_PLUGIN_MANIFEST_BYTES) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  const parsed = readStrictJson(text);
  return parsed.ok && looksLikePluginManifest(parsed.value);
}

/**
 * Reads and checks a plugin manifest JSON file (at most 4 MiB): strict JSON with positions,
 * the spec's shape and construction-time invariants. Never evaluates anything.
 */
export async function inspectPluginManifest(path: string): Promise<Inspection> {
  const read = await readBounded(path, MAX_PLUGIN_MANIFEST_BYTES);
  if (!read.ok) return refused(read.error);
  return inspectPluginManifestBytes(read.bytes);
}
