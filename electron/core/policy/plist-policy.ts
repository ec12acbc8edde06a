/**
 * The policy from macOS managed preferences (DESIGN.md "Managed policy"): the plist a configuration profile installs,
 * `/Library/Managed Preferences/app.apollia.desktop.plist` (the machine's: it decides), and the per-user one under
 * `/Library/Managed Preferences/<user>/` (it only restricts, like `HKCU`). Each policy key is a key of the plist's
 * dictionary with its native type (a string, a boolean, an integer, an array, a dictionary), as a profile's payload
 * writes it; `version` left out is 2, and the profile's own `Payload…` keys are not policy keys and are passed over.
 *
 * XML plists are read with `plist` and binary ones (`bplist00`) with `bplist-parser`: parsers of data, which evaluate
 * nothing. A plist that does not parse, a value of a type JSON has not (a date, data), or one that cannot be read
 * makes the source unreadable: the policy fails closed.
 */
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { parseBuffer } from 'bplist-parser';
import plist from 'plist';
import type { PolicyValueSource } from './evaluate-policy';
import { MAX_POLICY_BYTES } from './policy-format';

/** The folder of managed preferences. */
export const MANAGED_PREFERENCES = '/Library/Managed Preferences';
/** The preferences domain a profile's payload names (`PayloadType`). */
export const PREFERENCES_DOMAIN = 'app.apollia.desktop';

/** The machine's and the user's managed-preferences plists (the user by the system's account, not the environment). */
export function managedPreferencesPaths(user: string = userInfo().username): { machine: string; user: string } {
  return {
    machine: `${MANAGED_PREFERENCES}/${PREFERENCES_DOMAIN}.plist`,
    user: `${MANAGED_PREFERENCES}/${user}/${PREFERENCES_DOMAIN}.plist`,
  };
}

/** A value JSON can hold, or the path of the first that is not (a date, data, a number that is not finite). */
function jsonProblem(value: unknown, at: string): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : at;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const problem = jsonProblem(item, `${at}.${i}`);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      const problem = jsonProblem(item, at === '' ? key : `${at}.${key}`);
      if (problem) return problem;
    }
    return null;
  }
  return at;
}

/** A plist's bytes as the policy document it holds, or what is wrong with it. */
export function plistPolicyValue(bytes: Buffer): { ok: true; value: unknown } | { ok: false; problem: string } {
  let parsed: unknown;
  try {
    parsed =
      bytes.subarray(0, 8).toString('latin1') === 'bplist00'
        ? parseBuffer(bytes)[0]
        : plist.parse(bytes.toString('utf8'));
  } catch (error) {
    return { ok: false, problem: `it is not a valid property list: ${(error as Error).message}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { ok: false, problem: 'its top level is not a dictionary' };
  const doc: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) if (!key.startsWith('Payload')) doc[key] = value;
  const wrong = jsonProblem(doc, '');
  if (wrong !== null)
    return { ok: false, problem: `\`${wrong}\` is not a string, number, boolean, array or dictionary` };
  if (!Object.hasOwn(doc, 'version')) doc.version = 2;
  return { ok: true, value: doc };
}

/** One plist as a policy source: absent when it does not exist, unreadable when it cannot be read or parsed. */
export function readPlistSource(role: 'machine' | 'user', path: string): PolicyValueSource {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { role, path, value: null };
    return { role, path, value: null, readProblem: `it cannot be read (${code ?? (error as Error).message})` };
  }
  if (bytes.length > MAX_POLICY_BYTES)
    return { role, path, value: null, readProblem: `it is larger than ${MAX_POLICY_BYTES} bytes` };
  const read = plistPolicyValue(bytes);
  return read.ok ? { role, path, value: read.value } : { role, path, value: null, readProblem: read.problem };
}
