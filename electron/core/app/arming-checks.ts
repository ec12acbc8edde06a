/**
 * Arming's checks, one list for the doors that make a trigger fire: Arm and Resume (DESIGN.md "Managed policy": the
 * policy is evaluated at every door; "Trust after install": a changed package is armed only once reinstalled).
 */
import type { EffectivePolicy } from '../../../shared/policy/policy';
import { POLICY_REFUSAL, triggerKindAllowed, triggerKindWords } from '../../../shared/policy/policy';
import { CoreError } from '../errors/index';
import { refuseWithheldPackage } from '../policy/installed-policy';
import type { StoreState, TriggerRecord } from '../store/state';
import { refuseIfChanged } from './publisher-trust';

/**
 * What keeps `trigger` from being armed or resumed now, thrown as the Api's refusal (`what` says what was not done):
 * a kind of trigger the organization does not allow, a package whose files changed, a package the policy withholds
 * whole, a one-off date that has passed. The one list of arming's checks, for Arm and Resume alike.
 */
export function refuseArming(
  state: StoreState,
  policy: EffectivePolicy | null,
  trigger: TriggerRecord,
  what: string,
  now: Date,
): void {
  if (!triggerKindAllowed(policy, trigger.type))
    throw new CoreError(
      'policy.trigger_kind',
      `${what}: your organization does not allow ${triggerKindWords(trigger.type)} triggers; ${POLICY_REFUSAL}.`,
    );
  // A changed package is armed again only by reinstalling it (DESIGN.md "Trust after install").
  refuseIfChanged(state, trigger.packageName, what);
  // A package the policy now refuses is withheld whole (DESIGN.md "Managed policy"): nothing of it is armed.
  refuseWithheldPackage(state, policy, trigger.packageName, what);
  if (trigger.type === 'at' && trigger.at && Date.parse(trigger.at) <= now.getTime())
    throw new CoreError('trigger.past', `${what}: it was for ${trigger.at}, which has passed`);
}
