/**
 * The CLI's data folder and the little every command needs from it, kept apart from the Api
 * (`install-command.ts` `cliApi`) so a command that only reads, like `inspect`, starts without
 * loading the whole core: the readers then load once, in the bounded worker.
 */
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TrustedKey } from '../../../shared/trust/trust';
import type { ApiErrorCode } from '../../../shared/contract/api-errors';
import { CoreError } from '../errors/index';
import { Store } from '../store/store';
import { trustedKeysOf } from '../trust/stored-keys';
import type { StoreState } from '../store/state';
import { type CliIo, EXIT } from './cli-io';
import { PROGRAM } from './usage';

/** The app's data folder, as Electron's `userData` is for productName "Apollia Desktop". */
export function defaultDataDir(env: CliIo['env'], platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Apollia Desktop');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Apollia Desktop');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Apollia Desktop');
}

/** The data folder a CLI command works on: `--data-dir`, else the app's own. */
export function cliDataDir(io: CliIo): string {
  return io.dataDir ?? defaultDataDir(io.env);
}

/**
 * The folder of the app's resources (catalogues, built-in templates): the one the hosting app gives
 * (`io.resourcesDir`), else `resources/` of the project this CLI was built from, found from this
 * file, never from the environment or the working folder (DESIGN.md "Managed policy": nothing that
 * decides what is built in comes from either): the built CLI is `out/cli/*.cjs` (two folders down),
 * its TypeScript source `electron/core/cli/` (three). An `npm install -g` keeps that layout, so a
 * built-in template is found from any folder.
 */
export function cliResourcesDir(io: Pick<CliIo, 'resourcesDir'>): string {
  if (io.resourcesDir) return io.resourcesDir;
  const here = fileURLToPath(import.meta.url);
  return resolve(dirname(here), here.endsWith('.ts') ? '../../..' : '../..', 'resources');
}

/** Prints an Api error and returns the refused exit code. */
export function refused(
  io: CliIo,
  error: { message: string; problems?: { message: string; path?: string }[] },
): number {
  io.stderr(`${PROGRAM}: ${error.message}\n`);
  for (const problem of error.problems?.slice(1) ?? []) io.stderr(`  - ${problem.message}\n`);
  return EXIT.refused;
}

/**
 * The keys the user trusts, read from the store of the CLI's data folder by the Api's own
 * `trustedKeysOf` (each re-checked; a damaged list is `trust.bad_list`, never used).
 */
export async function cliTrustedKeys(
  io: CliIo,
): Promise<
  { ok: true; value: TrustedKey[]; state: StoreState } | { ok: false; error: { code: ApiErrorCode; message: string } }
> {
  try {
    const state = await new Store(cliDataDir(io)).read();
    return { ok: true, value: trustedKeysOf(state), state };
  } catch (error) {
    if (error instanceof CoreError) return { ok: false, error: { code: error.code, message: error.message } };
    throw error;
  }
}
