/**
 * Where the organization's policy files are, and reading them (DESIGN.md "Managed policy"): the
 * machine's file, put there by device management, and the file `APOLLIA_POLICY_FILE` names (how an
 * administrator tries a policy, and how tests set one). Read afresh each time the policy is asked
 * for — a few kilobytes — so a change is noticed while the app runs as well as at start.
 */
import { readFileSync } from 'node:fs';
import { win32 } from 'node:path';
import type { PolicyView } from '../../../shared/policy/policy';
import { evaluatePolicy, type PolicyFileText } from './evaluate-policy';
import { MAX_POLICY_BYTES } from './policy-format';
import { programDataFolder } from './program-data';

/** Where the policy files of this machine are: the machine's, and the one the variable names (null when unset). */
export interface PolicyLocations {
  machine: string | null;
  env: string | null;
}

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
  return { machine: machinePolicyPath(platform, env), env: named !== undefined && named !== '' ? named : null };
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

/** The policy in force at `locations`, read now. */
export function readPolicy(locations: PolicyLocations): PolicyView {
  const files: PolicyFileText[] = [];
  if (locations.machine !== null) files.push(readPolicyText('machine', locations.machine));
  if (locations.env !== null && locations.env !== locations.machine) files.push(readPolicyText('env', locations.env));
  return evaluatePolicy(files);
}
