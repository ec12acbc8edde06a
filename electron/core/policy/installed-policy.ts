/**
 * The policy's package-level rules (signature required, allowlist, blocked families: `packagePolicyProblems`) applied
 * to what is installed, not only to what is new (DESIGN.md "Managed policy": a package installed before a policy that
 * now refuses it is withheld whole). One evaluation every door reads: arm and grant refuse with it, the dashboard
 * lists each violation on the package's row, and the trigger host pauses the package's triggers (armed, folder and
 * secret kept: DESIGN.md "Triggers at run time") and holds its grants in the store.
 */
import type { SignatureSummary } from '../../../shared/manifests/inspection';
import type { EffectivePolicy, PolicyView } from '../../../shared/policy/policy';
import type { TrustedKey } from '../../../shared/trust/trust';
import { own } from '../../../shared/base/own';
import { CoreError } from '../errors/index';
import type { StoreState } from '../store/state';
import { trustedKeysOf } from '../trust/stored-keys';
import { type PolicyProblem, packagePolicyProblems, verificationKeys } from './index';

/**
 * The signature of the installed bytes as the policy sees it now: verified only while the key that verified it is one
 * a signature is verified against today (a key the person removed, or one the policy no longer names, proves nothing).
 */
function signatureNow(stored: SignatureSummary, keys: readonly TrustedKey[]): SignatureSummary {
  if (stored.state !== 'verified') return stored;
  const still = stored.public_key !== null && keys.some((k) => k.publicKey === stored.public_key);
  return still ? stored : { ...stored, state: 'unknown_key' };
}

/** The keys the policy and the store give now; a damaged list of the person's keys counts as none of theirs. */
function keysNow(state: StoreState, policy: EffectivePolicy | null): TrustedKey[] {
  let own: TrustedKey[] = [];
  try {
    own = trustedKeysOf(state);
  } catch {
    own = [];
  }
  return verificationKeys(policy, own);
}

/** Why the policy refuses the installed package `name` as a whole, each violation once; empty when it does not. */
export function installedPackageProblems(
  state: StoreState,
  policy: EffectivePolicy | null,
  name: string,
): PolicyProblem[] {
  const pkg = own(state.packages, name);
  if (!policy || !pkg) return [];
  const keys = keysNow(state, policy);
  const stored = own(state.packageTrust, name)?.signature ?? null;
  return packagePolicyProblems(policy, pkg.manifest, stored ? signatureNow(stored, keys) : null, pkg.sha256, keys);
}

/** Every installed package the policy in force refuses, with its violations (an unreadable policy: none here). */
export function withheldPackages(state: StoreState, view: PolicyView): Map<string, PolicyProblem[]> {
  const withheld = new Map<string, PolicyProblem[]>();
  if (view.state !== 'applied') return withheld;
  for (const name of Object.keys(state.packages)) {
    const problems = installedPackageProblems(state, view.effective, name);
    if (problems.length > 0) withheld.set(name, problems);
  }
  return withheld;
}

/** The words of a withheld package: why, each violation. */
export function withheldWords(problems: readonly PolicyProblem[]): string {
  return `its package is withheld by your organization's policy: ${problems.map((p) => p.message).join('; ')}`;
}

/** Refuses `what` on a part of the installed package `name` the policy withholds whole, with its first violation. */
export function refuseWithheldPackage(
  state: StoreState,
  policy: EffectivePolicy | null,
  name: string | null,
  what: string,
): void {
  if (name === null) return;
  const first = installedPackageProblems(state, policy, name)[0];
  if (first) throw new CoreError(first.code, `${what}: ${first.message}`);
}
