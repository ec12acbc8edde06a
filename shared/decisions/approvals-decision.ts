/**
 * The one rule for a template agent's approvals (template spec, agent.md `approvals`; DESIGN.md "Consent, install,
 * apply"): `ask` unless the person chooses `never`, and `never` only where the organization's policy allows tools to
 * run without asking (`unattended`). The apply preview, the dashboard's switch and the CLI's `approvals` all ask it,
 * so they lock and refuse alike, with the organization's reason.
 */
import { POLICY_REFUSAL, type EffectivePolicy } from '../policy/policy';
import type { Approvals } from './apply-context';
import type { DecisionProblem } from './decision-problems';

/** The organization's reason when its policy forbids running unattended, as the locked control shows it. */
export const UNATTENDED_OFF = 'your organization does not allow tools to run without asking';

/** The approvals an agent gets when the person did not choose: `ask` (a template's `never` is only its advice). */
export function approvalsOf(chosen: Approvals | undefined): Approvals {
  return chosen ?? 'ask';
}

/** Why `never` is locked here: the organization's reason, or null when the person may choose it. */
export function unattendedLocked(policy: EffectivePolicy | null | undefined): string | null {
  return policy?.unattended === false ? UNATTENDED_OFF : null;
}

/** The problem with choosing `approvals` under `policy` (at `path`), or null: only `never`, only where forbidden. */
export function approvalsProblem(
  policy: EffectivePolicy | null | undefined,
  approvals: Approvals,
  path = 'approvals',
): DecisionProblem | null {
  const locked = approvals === 'never' ? unattendedLocked(policy) : null;
  if (locked === null) return null;
  return {
    code: 'policy.unattended',
    path,
    message: `The agent cannot run unattended: ${locked}; ${POLICY_REFUSAL}`,
  };
}
