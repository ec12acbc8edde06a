/**
 * The policy from the Windows registry (DESIGN.md "Managed policy"): `HKLM\SOFTWARE\Policies\Apollia Desktop` (the
 * machine's: it decides) then `HKCU\…` (the user's: it only restricts), as a GPO or Intune writes them. Each key of the
 * policy is one registry value of the same name: a text key (`organization`, `requireSignature`, `templates`,
 * `installSources`, `updates`) a `REG_SZ`; a yes/no key (`allowUserTrustedKeys`, `unattended`) or a number
 * (`webhookPort`, `version`) a `REG_DWORD`; every list or object (`blockedTools`, `toolRules`, `mcpServers`, `feeds`,
 * `activityExport`, …) a `REG_SZ` holding its JSON, as VS Code's and Chrome's policies do. `version` left out is 2.
 *
 * Read with the system's own `reg.exe` by its absolute path (`reg query <key> /s`), never a program found on `PATH`;
 * its output is parsed by {@link parseRegQuery}, pure. A value of the wrong type, JSON that does not parse, or a subkey
 * makes the source unreadable, naming the value: the policy fails closed.
 */
import { spawnSync } from 'node:child_process';
import type { PolicyValueSource } from './evaluate-policy';

/** The system's `reg.exe`, by absolute path. */
export const REG_EXE = 'C:\\Windows\\System32\\reg.exe';

/** The policy's registry keys, the machine's first (as `reg query` names them and `origin` shows them). */
export const REGISTRY_KEYS = [
  { role: 'machine', key: 'HKLM\\SOFTWARE\\Policies\\Apollia Desktop' },
  { role: 'user', key: 'HKCU\\SOFTWARE\\Policies\\Apollia Desktop' },
] as const;

/** The keys whose registry value is a yes/no `REG_DWORD`. */
const BOOLEAN_KEYS = new Set(['allowUserTrustedKeys', 'unattended']);
/** The keys whose registry value is a number `REG_DWORD`. */
const INTEGER_KEYS = new Set(['webhookPort', 'version']);
/** The keys whose registry value is a plain `REG_SZ`. */
const TEXT_KEYS = new Set(['$schema', 'organization', 'requireSignature', 'templates', 'installSources', 'updates']);

/** One value as `reg query` prints it. */
export interface RegValue {
  name: string;
  type: string;
  data: string;
}

/** Each key `reg query … /s` printed, with its values, in order. */
export interface RegKey {
  path: string;
  values: RegValue[];
}

/**
 * `reg query`'s output as keys and values. Microsoft's documented format: a key's full path alone on its line, then
 * each value indented four spaces as `name    TYPE    data` (four spaces between), a blank line between keys.
 */
export function parseRegQuery(stdout: string): RegKey[] {
  const keys: RegKey[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    if (line.trim() === '' || line.startsWith('End of search')) continue;
    if (!line.startsWith(' ')) {
      keys.push({ path: line.trim(), values: [] });
      continue;
    }
    const match = /^ {4}(.*?) {4}(REG_[A-Z0-9_]+)(?: {4}(.*))?$/.exec(line);
    const key = keys[keys.length - 1];
    if (match && key) key.values.push({ name: match[1] as string, type: match[2] as string, data: match[3] ?? '' });
  }
  return keys;
}

/** One registry value as the policy key's value, or what is wrong with it. */
function valueOf(v: RegValue): { ok: true; value: unknown } | { ok: false; problem: string } {
  const wrongType = (want: string) => ({
    ok: false as const,
    problem: `the registry value \`${v.name}\` must be a ${want}, not ${v.type}`,
  });
  if (BOOLEAN_KEYS.has(v.name) || INTEGER_KEYS.has(v.name)) {
    if (v.type !== 'REG_DWORD') return wrongType('REG_DWORD');
    const n = Number.parseInt(v.data, 16);
    if (!/^0x[0-9a-fA-F]+$/.test(v.data) || Number.isNaN(n)) return wrongType('REG_DWORD');
    if (!BOOLEAN_KEYS.has(v.name)) return { ok: true, value: n };
    if (n !== 0 && n !== 1) return { ok: false, problem: `the registry value \`${v.name}\` must be 0 or 1` };
    return { ok: true, value: n === 1 };
  }
  if (v.type !== 'REG_SZ') return wrongType('REG_SZ');
  if (TEXT_KEYS.has(v.name)) return { ok: true, value: v.data };
  try {
    return { ok: true, value: JSON.parse(v.data) };
  } catch (error) {
    return { ok: false, problem: `the registry value \`${v.name}\` is not valid JSON: ${(error as Error).message}` };
  }
}

/** The policy document one key's `reg query` output holds (null: no values), or what is wrong with it. */
export function registryPolicyValue(stdout: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const [key, ...subkeys] = parseRegQuery(stdout);
  if (subkeys.length > 0) return { ok: false, problem: `it has a subkey (${subkeys[0]?.path}), which is not read` };
  if (!key || key.values.length === 0) return { ok: true, value: null };
  const doc: Record<string, unknown> = {};
  for (const v of key.values) {
    if (v.name === '(Default)') continue;
    const read = valueOf(v);
    if (!read.ok) return read;
    doc[v.name] = read.value;
  }
  if (!Object.hasOwn(doc, 'version')) doc.version = 2;
  return { ok: true, value: doc };
}

/** Runs `reg.exe` (injectable for tests): its exit status, output and error text. */
export type RunReg = (args: readonly string[]) => { status: number | null; stdout: string; stderr: string };

/** The system's `reg.exe`, run with a timeout and without a window. */
const runRegExe: RunReg = (args) => {
  const done = spawnSync(REG_EXE, args, { encoding: 'utf8', windowsHide: true, timeout: 10_000 });
  return {
    status: done.error ? null : done.status,
    stdout: done.stdout ?? '',
    stderr: done.stderr ?? done.error?.message ?? '',
  };
};

/** Both registry keys as policy sources: absent when `reg.exe` finds no key, unreadable when it fails otherwise. */
export function readRegistryPolicy(run: RunReg = runRegExe): PolicyValueSource[] {
  return REGISTRY_KEYS.map(({ role, key }) => {
    const done = run(['query', key, '/s']);
    // reg.exe exits 1 when the key does not exist ("ERROR: The system was unable to find the specified registry key").
    if (done.status === 1 && /unable to find/i.test(done.stderr)) return { role, path: key, value: null };
    if (done.status !== 0)
      return {
        role,
        path: key,
        value: null,
        readProblem: `reg.exe could not read it (${done.stderr.trim() || `exit ${done.status}`})`,
      };
    const read = registryPolicyValue(done.stdout);
    return read.ok
      ? { role, path: key, value: read.value }
      : { role, path: key, value: null, readProblem: read.problem };
  });
}
