/**
 * What applying a template writes, decided apart from writing it (STYLE.md "decide, then do"): `planApply` is pure —
 * from the preview the person was shown and what they ticked it answers the agent, its triggers (armed only as
 * ticked), the receipt and the activity events — and `applyApplyPlan` writes a plan in the one store update. What
 * the agent gets is the preview's (`shared/decisions/apply-preview.ts`, the same object the screen rendered).
 */
import type { ApplyReceipt } from '../../../shared/contract/api';
import type { ApplyPreview } from '../../../shared/decisions/apply-preview';
import { firstByName } from '../../../shared/decisions/consent';
import {
  type EffectivePolicy,
  POLICY_REFUSAL,
  triggerKindAllowed,
  triggerKindWords,
} from '../../../shared/policy/policy';
import type { TemplateManifest } from '../../../shared/manifests/template-manifest';
import type { ActivityInput } from '../activity/activity-log';
import { CoreError } from '../errors/index';
import { templateAgentRecord, templateTriggerRecord } from '../store/records';
import type { StoreState, TemplateAgentRecord, TriggerRecord } from '../store/state';
import { armedWords } from './trigger-arming';

/** Everything an apply's plan is made from. */
export interface ApplyPlanInput {
  manifest: TemplateManifest;
  /** The preview computed now, from the bytes the person was shown. */
  previewed: ApplyPreview;
  /** Trigger names the person ticked to arm now. */
  arm: readonly string[];
  /** The organization's policy in force. */
  policy: EffectivePolicy | null;
  agentId: string;
  /** The agent's files, relative to its folder. */
  files: string[];
  requestId: string;
  /** The request's body, hashed: the same id with another body is refused later. */
  fingerprint: string;
  /** The time of the apply (ISO 8601). */
  at: string;
}

/** What one apply writes to the store, and what it tells. */
export interface ApplyPlan {
  agent: TemplateAgentRecord;
  triggers: TriggerRecord[];
  receipt: ApplyReceipt;
  fingerprint: string;
  /** What the activity record gets once the plan is written: `apply`, then one `arm` per trigger armed. */
  events: ActivityInput[];
}

/**
 * Plans applying a previewed template (pure). Refuses a preview with a blocker (`apply.blocked`, the first named), and
 * a tick to arm that names no trigger of the preview, a kind the policy does not allow, or a webhook (armed only by
 * `armTrigger`, which makes its secret and shows it once): nothing is armed without the person's tick, as for an
 * `.apo`.
 */
export function planApply(input: ApplyPlanInput): ApplyPlan {
  const { manifest, previewed, agentId, at } = input;
  if (!previewed.canApply) {
    const blocker = previewed.blockers[0];
    throw new CoreError(
      'apply.blocked',
      `Can't apply ${manifest.name} yet: ${blocker?.message ?? 'something is missing'}`,
      { problems: previewed.blockers, path: blocker?.path },
    );
  }
  const arm = triggersToArm(previewed, input.arm, input.policy);
  const agent = templateAgentRecord(
    agentId,
    manifest,
    previewed,
    `agents/${agentId}`,
    input.files,
    input.requestId,
    at,
  );
  const triggers = previewed.triggers.map((trigger) =>
    templateTriggerRecord(agentId, trigger, at, arm.has(trigger.name)),
  );
  const receipt: ApplyReceipt = {
    agentId,
    displayName: previewed.displayName,
    createdAt: at,
    triggers: triggers.map((t) => t.id),
    preview: previewed,
  };
  const events: ActivityInput[] = [
    {
      kind: 'apply',
      agent: agentId,
      outcome: 'ok',
      detail: `made ${receipt.displayName} from the template ${manifest.name} ${manifest.version}`,
    },
  ];
  for (const trigger of triggers)
    if (trigger.armed)
      events.push({
        kind: 'arm',
        agent: agentId,
        trigger: trigger.id,
        outcome: 'ok',
        detail: armedWords(trigger.type, trigger.folder, trigger.secretOrigin === 'given' ? 'given' : 'made'),
      });
  return { agent, triggers, receipt, fingerprint: input.fingerprint, events };
}

/** Writes `plan` into `state` (the store update's draft): the agent, its triggers, and the receipt under its id. */
export function applyApplyPlan(state: StoreState, plan: ApplyPlan, requestId: string): void {
  state.agents[plan.agent.id] = structuredClone(plan.agent);
  for (const trigger of plan.triggers) state.triggers[trigger.id] = structuredClone(trigger);
  state.applies[requestId] = { ...structuredClone(plan.receipt), fingerprint: plan.fingerprint };
}

/** The ticked triggers, each checked against the preview and the policy. */
function triggersToArm(
  previewed: ApplyPreview,
  ticked: readonly string[],
  policy: EffectivePolicy | null,
): Set<string> {
  const arm = new Set(ticked);
  const byName = firstByName(previewed.triggers, (t) => t.name);
  for (const name of arm) {
    const trigger = byName.get(name);
    if (!trigger)
      throw new CoreError('apply.unknown_trigger', `${previewed.displayName} has no trigger \`${name}\` to arm`, {
        path: 'arm',
      });
    if (!triggerKindAllowed(policy, trigger.type))
      throw new CoreError(
        'policy.trigger_kind',
        `trigger \`${name}\` cannot be armed: your organization does not allow ${triggerKindWords(trigger.type)} triggers; ${POLICY_REFUSAL}.`,
        { path: 'arm' },
      );
    if (trigger.type === 'webhook')
      throw new CoreError(
        'apply.webhook_not_armed_here',
        `trigger \`${name}\` is a webhook: arm it after apply, which makes its secret and shows it to you once`,
        { path: 'arm' },
      );
  }
  return arm;
}
