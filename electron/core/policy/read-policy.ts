/**
 * Where the organization's policy files are, and reading them (DESIGN.md "Managed policy"): the
 * machine's file, put there by device management, and the file `APOLLIA_POLICY_FILE` names (how an
 * administrator tries a policy, and how tests set one). Read afresh each time the policy is asked
 * for — a few kilobytes — so a change is noticed while the app runs as well as at start.
 */
import { readFileSync } from 'node:fs';
import { win32 } from 'node:path';
import type { PolicyView } from '../../../shared/policy/policy';
import { evaluatePolicy, type PolicyFileText, type PolicyValueSource } from './evaluate-policy';
import { managedPreferencesPaths, readPlistSource } from './plist-policy';
import { readRegistryPolicy } from './registry-policy';
import { MAX_POLICY_BYTES } from './policy-format';
import { programDataFolder } from './program-data';

/** Where the policy files of this machine are: the machine's, and the one the variable names (null when unset). */
export interface PolicyLocations {
  machine: string | null;
  env: string | null;
  /** Windows: read `HKLM` then `HKCU` `\SOFTWARE\Policies\Apollia Desktop` before the machine's file. */
  registry?: boolean;
  /** macOS: the managed-preferences plists a configuration profile installs, the machine's and the user's. */
  managedPreferences?: { machine: string; user: string | null };
}

/** How the registry and plists are read (`registry-policy.ts`, `plist-policy.ts`; a test gives fixtures). */
export interface PolicyReaders {
  registry: () => PolicyValueSource[];
  plist: (role: 'machine' | 'user', path: string) => PolicyValueSource;
}

const SYSTEM_READERS: PolicyReaders = { registry: () => readRegistryPolicy(), plist: readPlistSource };

/**
 * The machine's policy file on `platform` (Linux `/etc`, macOS `/Library/Application Support`, Windows the
 * `ProgramData` folder the system records: `program-data.ts`, never `%ProgramData%`). `_env` is not read for it.
 */
export function machinePolicyPath(
  platform: NodeJS.Platform,
  _env: Readonly<Record<string, string | undefined>>,
  programData: () => string = programDataFolder,
): string {
  if (platform === 'darwin') return '/Library/Application Support/Apollia Desktop/policy.json';
  if (platform === 'win32') return win32.join(programData(), 'Apollia Desktop', 'policy.json');
  return '/etc/apollia-desktop/policy.json';
}

/** The locations for this process: the machine's file, and `APOLLIA_POLICY_FILE` when set. */
export function policyLocations(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): PolicyLocations {
  const named = env.APOLLIA_POLICY_FILE;
  return {
    machine: machinePolicyPath(platform, env),
    env: named !== undefined && named !== '' ? named : null,
    ...(platform === 'win32' ? { registry: true } : {}),
    ...(platform === 'darwin' ? { managedPreferences: managedPreferencesPaths() } : {}),
  };
}

/** One file's text, null when it does not exist; a file that exists but cannot be read says why. */
function readPolicyText(role: PolicyFileText['role'], path: string): PolicyFileText {
  try {
    const bytes = readFileSync(path);
    if (bytes.length > MAX_POLICY_BYTES)
      return { role, path, text: null, readProblem: `it is larger than ${MAX_POLICY_BYTES} bytes` };
    return { role, path, text: bytes.toString('utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { role, path, text: null };
    return { role, path, text: null, readProblem: `it cannot be read (${code ?? (error as Error).message})` };
  }
}

/**
 * The policy in force at `locations`, read now, in each system's order (`policy-sources.ts` says who wins): the
 * registry's machine key or the machine's managed preferences, the machine's file, the registry's user key or the
 * user's managed preferences, then `APOLLIA_POLICY_FILE`.
 */
export function readPolicy(locations: PolicyLocations, given: Partial<PolicyReaders> = {}): PolicyView {
  const readers: PolicyReaders = { ...SYSTEM_READERS, ...given };
  const sources: (PolicyFileText | PolicyValueSource)[] = [];
  const registry = locations.registry ? readers.registry() : [];
  const prefs = locations.managedPreferences;
  sources.push(...registry.filter((s) => s.role === 'machine'));
  if (prefs) sources.push(readers.plist('machine', prefs.machine));
  if (locations.machine !== null) sources.push(readPolicyText('machine', locations.machine));
  sources.push(...registry.filter((s) => s.role !== 'machine'));
  if (prefs?.user) sources.push(readers.plist('user', prefs.user));
  if (locations.env !== null && locations.env !== locations.machine) sources.push(readPolicyText('env', locations.env));
  return evaluatePolicy(sources);
}
