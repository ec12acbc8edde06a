/**
 * What a decision is made from: the manifest, what is installed of it, the signature verdict as the decision needs it,
 * the owner's limits and the organization's policy, and the context built once from them that every access and
 * trigger decision of one manifest shares.
 */
import type { InstalledDecisions } from './update-diff-schema';
import type { ConsentAnswers } from './consent-answers-schema';
import type { ActionFamily, AgentEntry, ApolliaManifest, TriggerEntry } from '../manifests/apollia-manifest';
import { accessFamilies, firstByName } from './consent';
import type { EffectivePolicy } from '../policy/policy';

/**
 * The signature verdict as the decision needs it: whether a publisher key the person trusts signed the package.
 *
 * Only that makes a package's own word on what its code does ("it only reads") a default.
 */
export interface DecisionTrust {
  verifiedPublisher: string | null;
}

/**
 * The decision's view of a signature verdict.
 *
 * Only a key the person trusts makes a declared family a default; any other state counts as unverified.
 */
export function decisionTrust(
  signature: { state: string; signer: string | null; key_id: string | null } | null | undefined,
): DecisionTrust {
  return { verifiedPublisher: signature?.state === 'verified' ? (signature.signer ?? signature.key_id ?? '') : null };
}

/**
 * Everything a decision is made from.
 *
 * The core fills `installed` and `deniedTools` from what the store holds, never from what a caller claims.
 */
export interface DecisionInput {
  manifest: ApolliaManifest;
  installed: InstalledDecisions | null;
  trust: DecisionTrust;
  /** The owner's "Tools you never allow" (Settings). */
  deniedTools: readonly string[];
  /** The organization's policy in force (evaluated by the core), or none. */
  policy?: EffectivePolicy | null;
  answers: ConsentAnswers;
}

/**
 * What every decision of one manifest is made against.
 *
 * Its lookups are built once, since a manifest may offer thousands of entries.
 */
export interface DecisionContext {
  readonly input: Omit<DecisionInput, 'answers'>;
  readonly familyOf: (entry: string) => ActionFamily | null;
  readonly familyBefore: ((entry: string) => ActionFamily | null) | null;
  readonly agentsBefore: ReadonlyMap<string, AgentEntry>;
  readonly triggersBefore: ReadonlyMap<string, TriggerEntry>;
  readonly denied: ReadonlySet<string>;
}

/**
 * The context of `decideAgent` (`access-decisions.ts`) and `decideTrigger` (`trigger-decisions.ts`) for one manifest.
 *
 * Built once from the manifest and what is installed of it, so that deciding one agent or one trigger (as the consent
 * form does on each change) costs no more than that entry.
 */
export function decisionContext(input: Omit<DecisionInput, 'answers'>): DecisionContext {
  return {
    input,
    familyOf: accessFamilies(input.manifest),
    familyBefore: input.installed ? accessFamilies(input.installed.manifest) : null,
    agentsBefore: firstByName(input.installed?.manifest.agents, (a) => a.id),
    triggersBefore: firstByName(input.installed?.manifest.triggers, (t) => t.id),
    denied: new Set(input.deniedTools),
  };
}
