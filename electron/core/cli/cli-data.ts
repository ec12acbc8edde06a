/**
 * The CLI's data folder and the little every command needs from it, kept apart from the Api
 * (`install-command.ts` `cliApi`) so a command that only reads, like `inspect`, starts without
 * loading the whole core: the readers then load once, in the bounded worker.
 */
import { chmodSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TrustedKey } from '../../../shared/trust/trust';
import type { ApiErrorCode } from '../../../shared/contract/api-errors';
import type { RefusalCode } from '../../../shared/contract/refusal-codes';
import { CoreError } from '../errors/index';
import { Store } from '../store/store';
import { trustedKeysOf } from '../trust/stored-keys';
import type { StoreState } from '../store/state';
import { type CliIo, EXIT } from './cli-io';
import { terminalJson } from './terminal-text';
import { PROGRAM } from './usage';

/** The app's data folder, as Electron's `userData` is for productName "Apollia Desktop". */
export function defaultDataDir(env: CliIo['env'], platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Apollia Desktop');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Apollia Desktop');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Apollia Desktop');
}

/**
 * An existing data folder others could read, tightened (DESIGN.md: the data folder 0700, its files 0600): every folder
 * in it 0700 and every file 0600, said once on standard error, except an installed package's files, which get the
 * modes install writes (0644, 0755 when executable: DESIGN.md "Reading without running"; the folders above them keep
 * them from other users). Links are left as they are (never followed). Nothing is done on Windows (no such modes) or
 * when the folder is already its owner's alone.
 */
export function tightenDataDir(io: CliIo, dataDir: string, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') return;
  let mode: number;
  try {
    mode = statSync(dataDir).mode;
  } catch {
    return;
  }
  if ((mode & 0o077) === 0) return;
  // `under` is the path of `dir` below the data folder: `packages/NAME/VERSION/…` holds a package's own files.
  const walk = (dir: string, under: string[]) => {
    chmodSync(dir, 0o700);
    const packageFiles = under[0] === 'packages' && under.length >= 3;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, [...under, entry.name]);
      else if (entry.isFile()) chmodSync(path, packageFiles ? (statSync(path).mode & 0o111 ? 0o755 : 0o644) : 0o600);
    }
  };
  walk(dataDir, []);
  io.stderr(
    `${PROGRAM}: note: the data folder ${dataDir} could be read by other users of this computer: it is now yours alone (folders 0700, files 0600, an installed package’s files as install writes them)\n`,
  );
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

/** One problem of a refusal, as `--json` prints it (DESIGN.md "The command line"). */
export interface RefusalProblem {
  code: string;
  message: string;
  /** The field it is about (`parameters.channel`), or null when it is about the whole input. */
  path: string | null;
}

/** The codes of refusals only the command line makes: `serve`'s, when the trigger host cannot start. */
export type CliRefusalCode =
  | 'serve.busy'
  | 'serve.port_in_use'
  | 'serve.failed'
  | 'activity.unknown_agent'
  | 'trust.not_confirmed'
  | 'grant.not_offered'
  | 'pack.write_failed';

/** What a refusal is made of: an Api error, or one the CLI makes with a code of the one table. */
export interface RefusalInput {
  /** An Api error's code, an inspection's (`archive.*`, `manifest.*`: the refusal codes' table), or the CLI's own. */
  code: ApiErrorCode | RefusalCode | CliRefusalCode;
  message: string;
  path?: string;
  problems?: { code?: string; message: string; path?: string }[];
}

/** The problems of a refusal, each with its code and its field: its own problems, else the error itself. */
export function refusalProblems(error: RefusalInput): RefusalProblem[] {
  const problems = error.problems ?? [];
  if (problems.length === 0) return [{ code: error.code, message: error.message, path: error.path ?? null }];
  return problems.map((p) => ({ code: p.code ?? error.code, message: p.message, path: p.path ?? null }));
}

/** A problem in words, its field named unless the message names it already. */
export function problemWords(problem: { message: string; path: string | null }): string {
  return problem.path && !problem.message.includes(problem.path)
    ? `${problem.message} (at ${problem.path})`
    : problem.message;
}

/**
 * Prints a refusal and returns the refused exit code (DESIGN.md "The command line"): with `--json`, one document
 * `{ "ok": false, "errors": [{ code, message, path }] }` on standard output; else the message, then each problem with
 * its field, on standard error (a problem the message already says whole is not said twice).
 */
export function refused(io: CliIo, error: RefusalInput): number {
  const problems = refusalProblems(error);
  if (io.json) {
    io.stdout(`${terminalJson({ ok: false, errors: problems })}\n`);
    return EXIT.refused;
  }
  // The problem the message already says gives the message its field; each other one is listed with its own.
  const said = problems.findIndex((p) => error.message.includes(p.message));
  const headline =
    said === -1 ? error.message : problemWords({ message: error.message, path: problems[said]?.path ?? null });
  io.stderr(`${PROGRAM}: ${headline}\n`);
  for (const [i, problem] of problems.entries()) if (i !== said) io.stderr(`  - ${problemWords(problem)}\n`);
  return EXIT.refused;
}

/**
 * A refusal that says the command is done already (DESIGN.md "Commit points": run again after a kill, a command
 * completes or says so, exit 0): the refusal `code` is printed as a sentence on stdout (`how`, words after its
 * message), not an error; with `--json` it stays the refusal. Answers whether it was that refusal.
 */
export function alreadyDone(io: CliIo, error: RefusalInput, code: RefusalInput['code'], how = ''): boolean {
  if (error.code !== code || io.json === true) return false;
  io.stdout(`${error.message}${how}: nothing to do.\n`);
  return true;
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
