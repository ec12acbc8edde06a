/**
 * Test support for the store and the Api (not shipped code paths): temp data folders, a
 * byte-for-byte fingerprint of a folder tree, and a ready-made Api over a temp folder.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, lstatSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApi, type ApiDeps, type CoreApi } from '../../electron/core/api';
import { createFileKeySecretBox } from '../../electron/core/secrets/secret-box';

/** A fresh empty folder under the OS temp folder. */
export function tempDir(prefix = 'apollia-store-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * The activity record's files in a data folder: its folder, its key, its sealed head (electron/core/activity) and
 * its commit in the state (`state.json#record`: a `FILE#field` entry leaves that field of the JSON file out).
 */
export const RECORD_FILES: readonly string[] = ['activity', 'record.key', 'activity-head.json', 'state.json#record'];

/** SHA-256 over every path, kind, mode and content under `dir` (sorted): equal hashes = byte for byte the same tree. */
export function treeHash(dir: string, except: readonly string[] = []): string {
  const hash = createHash('sha256');
  const walk = (current: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(current).sort();
    } catch {
      hash.update(`missing:${rel}\n`);
      return;
    }
    for (const name of names) {
      if (rel === '' && except.includes(name)) continue;
      const full = join(current, name);
      const info = lstatSync(full);
      hash.update(`${rel}/${name}:${info.isDirectory() ? 'd' : 'f'}:${info.mode.toString(8)}\n`);
      if (info.isDirectory()) walk(full, `${rel}/${name}`);
      else {
        const field = rel === '' ? except.find((e) => e.startsWith(`${name}#`))?.slice(name.length + 1) : undefined;
        if (field === undefined) hash.update(readFileSync(full));
        else {
          const { [field]: _left, ...kept } = JSON.parse(readFileSync(full, 'utf8')) as Record<string, unknown>;
          hash.update(JSON.stringify(kept));
        }
      }
    }
  };
  walk(dir, '');
  return hash.digest('hex');
}

/** Copies the fixture folder `from` to a temp folder, rewriting its apollia.toml with `edit`. */
export function editedPackage(from: string, edit: (toml: string) => string): string {
  const dir = tempDir('apollia-pkg-');
  cpSync(from, dir, { recursive: true });
  writeFileSync(join(dir, 'apollia.toml'), edit(readFileSync(join(dir, 'apollia.toml'), 'utf8')));
  return dir;
}

/** An Api over a temp data folder, with scripted dialogs and a fixed clock. */
export function testApi(overrides: Partial<ApiDeps> & { folders?: string[] } = {}): {
  api: CoreApi;
  dataDir: string;
  deps: ApiDeps;
} {
  const dataDir = overrides.dataDir ?? tempDir();
  const picks = [...(overrides.folders ?? [])];
  const deps: ApiDeps = {
    dataDir,
    resourcesDir: new URL('../../resources', import.meta.url).pathname,
    dialogs: { openFile: async () => null, openFolder: async () => picks.shift() ?? null },
    secretBox: createFileKeySecretBox(dataDir),
    now: () => new Date('2026-12-01T10:00:00Z'),
    log: () => undefined,
    ...overrides,
  };
  return { api: createApi(deps), dataDir, deps };
}

/**
 * Every line of the activity record of `dataDir` (decisions and traffic files), as one text; empty when there is none.
 */
export function activityText(dataDir: string): string {
  const dir = join(dataDir, 'activity');
  let names: string[] = [];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return '';
  }
  return names.map((name) => readFileSync(join(dir, name), 'utf8')).join('');
}
