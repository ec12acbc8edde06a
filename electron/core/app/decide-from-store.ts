/**
 * The core's one way to call the decision function (`shared/decisions/decisions.ts`): with what the store
 * holds (the installed version's decisions, the owner's never-allowed tools), never with what a
 * caller claims is installed. Install, update and the dashboard's grant all come through here, so
 * the form, the CLI and the store agree by construction.
 */
import type { ApolliaManifest } from '../../../shared/manifests/apollia-manifest';
import { type ConsentAnswers, type Decisions, decide } from '../../../shared/decisions/decisions';
import { type DecisionTrust, decisionTrust } from '../../../shared/decisions/decision-input';
import type { SignatureSummary } from '../../../shared/manifests/inspection';
import type { EffectivePolicy } from '../../../shared/policy/policy';
import { own } from '../../../shared/base/own';
import { CoreError } from '../errors/index';
import { installedDecisions } from '../store/records';
import type { StoreState } from '../store/state';

/** The decision's view of a signature verdict: a publisher key the person trusts signed it (its name), or not. */
export function trustOf(signature: SignatureSummary | null | undefined): DecisionTrust {
  return decisionTrust(signature);
}

/**
 * The verdict stored with an installed package at its install: what its defaults were decided with (a key trusted or
 * removed later changes nothing).
 */
export function storedTrust(state: StoreState, name: string): DecisionTrust {
  return trustOf(own(state.packageTrust, name)?.signature);
}

/**
 * Decides `manifest` against what `state` holds of it, the organization's `policy` (evaluated by
 * `policy/`, applied on top) and `answers`; the first problem of the
 * answers is refused as a whole (`CoreError` with its code), nothing decided in part.
 */
export function decideFromStore(
  state: StoreState,
  manifest: ApolliaManifest | undefined,
  trust: DecisionTrust,
  answers: ConsentAnswers,
  policy: EffectivePolicy | null = null,
): Decisions {
  if (!manifest) throw new CoreError('package.unknown', 'That package is not installed.');
  const decisions = decide({
    manifest,
    installed: installedDecisions(state, manifest.package.name),
    trust,
    deniedTools: state.settings.deniedTools,
    policy,
    answers,
  });
  const first = decisions.problems[0];
  if (first) throw new CoreError(first.code, first.message, { path: first.path });
  return decisions;
}
