/**
 * The Windows `ProgramData` folder found through the system, never through `%ProgramData%` (DESIGN.md "Managed
 * policy": the machine policy's place must not move with an environment variable the person can set). It is the
 * known folder's value the system keeps in the registry (`Common AppData` under `HKLM\…\Explorer\Shell Folders`),
 * read with `reg.exe` by its absolute path (never looked up on `PATH`), and read once per process.
 */
import { execFileSync } from 'node:child_process';

/** `reg.exe`, by the absolute path Windows installs it at (not `%SystemRoot%`, which the environment sets too). */
export const REG_EXE = 'C:\\Windows\\System32\\reg.exe';
/** The key and value of the known folder `FOLDERID_ProgramData` as the system records it, expanded. */
export const PROGRAM_DATA_KEY = 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Explorer\\Shell Folders';
export const PROGRAM_DATA_VALUE = 'Common AppData';
/** Where Windows puts it when the registry cannot be read (never the environment's word). */
export const DEFAULT_PROGRAM_DATA = 'C:\\ProgramData';

/** The folder `reg query` printed for the value, or null (`    Common AppData    REG_SZ    C:\ProgramData`). */
export function parseRegQuery(output: string): string | null {
  for (const line of output.split(/\r?\n/)) {
    const match = /^\s+Common AppData\s+REG_(?:EXPAND_)?SZ\s+(.+?)\s*$/.exec(line);
    // An unexpanded value would name a variable: refused, as the environment is not asked.
    if (match?.[1] && !match[1].includes('%') && /^[A-Za-z]:\\/.test(match[1])) return match[1];
  }
  return null;
}

/** Runs `reg.exe` with its arguments and answers its standard output (injected by tests). */
export type RegRunner = (file: string, args: string[]) => string;

const runReg: RegRunner = (file, args) =>
  execFileSync(file, args, { encoding: 'utf8', windowsHide: true, timeout: 5_000, env: {} });

let cached: string | null = null;

/** The `ProgramData` folder of this Windows machine, from the registry (the default when it cannot be read). */
export function programDataFolder(run: RegRunner = runReg, fresh = false): string {
  if (cached !== null && !fresh) return cached;
  let found: string | null = null;
  try {
    found = parseRegQuery(run(REG_EXE, ['query', PROGRAM_DATA_KEY, '/v', PROGRAM_DATA_VALUE]));
  } catch {
    found = null;
  }
  const folder = found ?? DEFAULT_PROGRAM_DATA;
  if (run === runReg) cached = folder;
  return folder;
}
