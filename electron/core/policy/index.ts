/**
 * The organization's policy, evaluated once in core for every surface (DESIGN.md "Managed
 * policy"): the Api's install, grant, arm, apply and Settings methods, the CLI through the Api,
 * the trigger host. Each refusal is a `policy.*` code whose message says that the organization does
 * not allow it and that the administrator can act. A policy that cannot be read or validated fails
 * closed: {@link usablePolicy} refuses everything it guards (inspection still works).
 */
import type { ApolliaManifest } from '../../../shared/manifests/apollia-manifest';
import type { ApoDetails, ApoSummary, Inspection, SignatureSummary } from '../../../shared/manifests/inspection';
import { FAMILY_ABILITY } from '../../../shared/words/words';
import {
  type AllowedPackage,
  type EffectivePolicy,
  POLICY_REFUSAL,
  type PolicyRefusalCode,
  type PolicyView,
  installSourceAllowed,
  mcpServerRefusedBy,
} from '../../../shared/policy/policy';
import type { TrustedKey } from '../../../shared/trust/trust';
import { CoreError } from '../errors/index';
import { parsePublicKey } from '../trust/minisign';

export { evaluatePolicy, combinePolicies, parsePolicyFile } from './evaluate-policy';
export { machinePolicyPath, policyLocations, readPolicy, type PolicyLocations } from './read-policy';

/** A refusal of the policy as a problem (a code and a sentence). */
export interface PolicyProblem {
  code: PolicyRefusalCode;
  message: string;
}

/** The sentence of an unreadable policy: the file, what is wrong, and that nothing can be changed until it is fixed. */
export function unreadableWords(view: PolicyView): string {
  return `your organization's policy file ${view.problem?.path ?? ''} cannot be used: ${view.problem?.message ?? 'it is not valid'}. Until it is fixed nothing can be installed, applied, granted or armed, and triggers are paused; your administrator can act`;
}

/** The policy in force, or none; an unreadable policy refuses `what` (`policy.unreadable`): it fails closed. */
export function usablePolicy(view: PolicyView, what: string): EffectivePolicy | null {
  if (view.state === 'unreadable') throw new CoreError('policy.unreadable', `${what}: ${unreadableWords(view)}.`);
  return view.effective;
}

/** Throws a policy problem as the Api's refusal. */
export function refuse(problem: PolicyProblem): never {
  throw new CoreError(problem.code, problem.message);
}

/**
 * The keys the policy names (its trusted publishers), as trusted keys: what a signature is verified against, beside the
 * person's own when the policy allows them.
 */
export function policyKeys(policy: EffectivePolicy | null): TrustedKey[] {
  const keys: TrustedKey[] = [];
  for (const publisher of policy?.trustedPublishers ?? []) {
    const parsed = parsePublicKey(publisher.key);
    if (parsed.ok && !keys.some((k) => k.keyId === parsed.value.keyId))
      keys.push({ keyId: parsed.value.keyId, publicKey: parsed.value.publicKey, name: publisher.name, addedAt: '' });
  }
  return keys;
}

/**
 * The keys a package's signature is checked against: the organization's, then the person's own unless the policy
 * refuses them.
 */
export function verificationKeys(policy: EffectivePolicy | null, userKeys: readonly TrustedKey[]): TrustedKey[] {
  const keys = policyKeys(policy);
  if (policy?.allowUserTrustedKeys === false) return keys;
  for (const key of userKeys) if (!keys.some((k) => k.keyId === key.keyId)) keys.push(key);
  return keys;
}

/**
 * A package's identity, computed here once: its name with the whole public key that signed it
 * (only a verified signature proves a key), and the SHA-256 of its archive.
 */
export interface PackageIdentity {
  name: string;
  key: string | null;
  sha256: string;
}

/** The identity of an inspected package, its signature verified against `keys`. */
export function packageIdentity(
  manifest: ApolliaManifest,
  signature: SignatureSummary | null,
  sha256: string,
  keys: readonly TrustedKey[],
): PackageIdentity {
  // The whole key the signature verified under (never a key id alone: ids can collide).
  const verified =
    signature?.state === 'verified'
      ? (signature.public_key ??
        (signature.key_id !== null ? keys.find((k) => k.keyId === signature.key_id)?.publicKey : undefined) ??
        null)
      : null;
  return { name: manifest.package.name, key: verified, sha256: sha256.toLowerCase() };
}

/** Whether the identity is on the allowlist (by name and signing key, or by archive SHA-256). */
export function identityAllowed(identity: PackageIdentity, allowed: readonly AllowedPackage[]): boolean {
  return allowed.some((entry) =>
    'sha256' in entry
      ? entry.sha256.toLowerCase() === identity.sha256
      : entry.name === identity.name && identity.key !== null && canonicalKey(entry.key) === identity.key,
  );
}

function canonicalKey(text: string): string | null {
  const parsed = parsePublicKey(text);
  return parsed.ok ? parsed.value.publicKey : null;
}

/**
 * Why the policy refuses a package as a whole (where it comes from, signature required, allowlist, a declared family
 * it blocks, an MCP server it denies), in the order a person reads them; empty when it may be installed. `from` is
 * where the package comes from: a local file unless a feed brought it.
 */
export function packagePolicyProblems(
  policy: EffectivePolicy | null,
  manifest: ApolliaManifest,
  signature: SignatureSummary | null,
  sha256: string,
  keys: readonly TrustedKey[],
  from: 'file' | 'feed' = 'file',
): PolicyProblem[] {
  if (!policy) return [];
  const problems: PolicyProblem[] = [];
  const name = manifest.package.name;
  if (!installSourceAllowed(policy, from))
    problems.push({
      code: 'policy.install_source',
      message: `${name} comes from a file on this computer, and packages may only be installed from your organization's feeds: ${POLICY_REFUSAL}`,
    });
  const state = signature?.state ?? 'unsigned';
  if (policy.requireSignature === 'any' && state === 'unsigned')
    problems.push({
      code: 'policy.unsigned',
      message: `${name} is not signed, and ${POLICY_REFUSAL} (a signature is required)`,
    });
  if (policy.requireSignature === 'trusted' && state !== 'verified')
    problems.push({
      code: 'policy.untrusted_signature',
      message: `${name} is ${state === 'unsigned' ? 'not signed' : 'not signed by a publisher key trusted here'}, and ${POLICY_REFUSAL} (a trusted publisher's signature is required)`,
    });
  if (
    policy.allowedPackages !== null &&
    !identityAllowed(packageIdentity(manifest, signature, sha256, keys), policy.allowedPackages)
  ) {
    problems.push({
      code: 'policy.package_not_allowed',
      message: `${name} is not on your organization's list of allowed packages (by name and signing key, or by SHA-256 ${sha256.toLowerCase()}): ${POLICY_REFUSAL}`,
    });
  }
  const blocked = new Set(policy.blockedActionFamilies);
  const declared = [
    // A program an MCP server starts is code execution (DESIGN.md "Managed policy": `execute_code` covers the
    // programs a package starts, in a version-1 file too), said first as the verdict says it.
    ...(manifest.mcp_servers ?? [])
      .filter((server) => (server.command ?? '') !== '')
      .map((server) => ({ kind: 'MCP server', name: server.name, action: 'execute_code' as const })),
    ...(manifest.tools ?? []).map((t) => ({ kind: 'tool', name: t.name, action: t.action })),
    ...(manifest.workflows ?? []).map((w) => ({ kind: 'workflow', name: w.name, action: w.action })),
  ].filter((t) => blocked.has(t.action));
  if (declared.length > 0) {
    const first = declared[0] as (typeof declared)[number];
    problems.push({
      code: 'policy.blocked_family',
      message: `${name} declares the ${first.kind} \`${first.name}\`, which can ${FAMILY_ABILITY[first.action]}${declared.length > 1 ? ` (and ${declared.length - 1} more of a blocked family)` : ''}: ${POLICY_REFUSAL}`,
    });
  }
  // Version 2's `mcpServers.allowed` / `.denied`, in the same evaluation: a package's server by name, command and
  // arguments, or URL; deny wins.
  for (const server of manifest.mcp_servers ?? []) {
    const refused = mcpServerRefusedBy(policy, server);
    if (refused !== null) {
      problems.push({ code: 'policy.mcp_server_denied', message: `${name}: ${refused}; ${POLICY_REFUSAL}` });
      break;
    }
  }
  return problems;
}

/**
 * What the policy refuses of an inspected source as a whole: an `.apo` the spec accepted, by {@link
 * packagePolicyProblems}; a template the spec accepted, by {@link templateProblem} (`builtin`: one the app ships). The
 * consent form's inspection and `inspect` add these, and install and apply refuse with the first; a plugin manifest is
 * neither installed nor applied, and a refused input is refused on its own: nothing is added for them.
 */
export function inspectionRefusals(
  policy: EffectivePolicy | null,
  inspection: Inspection,
  keys: readonly TrustedKey[],
  builtin: boolean,
  from: 'file' | 'feed' = 'file',
): PolicyProblem[] {
  if (!inspection.ok) return [];
  if (inspection.kind === 'apo') {
    const summary = inspection.summary as ApoSummary | null;
    const manifest = (inspection.details as ApoDetails | null)?.manifest;
    return manifest && summary
      ? packagePolicyProblems(policy, manifest, summary.signature, summary.sha256, keys, from)
      : [];
  }
  const refusal = inspection.kind === 'template' ? templateProblem(policy, builtin) : null;
  return refusal ? [refusal] : [];
}

/** Whether the policy lets a template from `origin` be applied; its refusal otherwise. */
export function templateProblem(policy: EffectivePolicy | null, builtin: boolean): PolicyProblem | null {
  if (!policy || policy.templates === 'any') return null;
  if (policy.templates === 'none')
    return { code: 'policy.templates', message: `Templates cannot be applied on this computer: ${POLICY_REFUSAL}` };
  return builtin
    ? null
    : {
        code: 'policy.templates',
        message: `Only the templates that come with the app can be applied on this computer: ${POLICY_REFUSAL}`,
      };
}

/**
 * The names of the MCP servers the organization provides: a template naming one finds it saved, as if the person had
 * saved it in Settings (the policy's servers are shown there, locked).
 */
export function organizationServers(policy: EffectivePolicy | null): Set<string> {
  return new Set((policy?.mcpServers ?? []).map((server) => server.name));
}
