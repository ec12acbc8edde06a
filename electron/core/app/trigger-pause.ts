/**
 * Pausing and resuming a trigger (DESIGN.md "Triggers at run time"): paused is armed with its folder and secret kept,
 * not firing, with who paused it. The person's pause is kept in the store (`pausedAt`, format 7); the policy's and
 * integrity's are worked out each time and lifted with their cause. Resuming is a door as arming is: the same checks
 * (the policy read now, a changed package, a package the policy withholds, a date passed), one store commit, recorded.
 * Only disarming deletes a webhook's secret or forgets a folder.
 */
import type { ApiRequest, TriggerView } from '../../../shared/contract/api';
import { CoreError } from '../errors/index';
import { usablePolicy } from '../policy/index';
import type { TriggerRecord } from '../store/state';
import { refuseArming } from './arming-checks';
import { type ApiContext, policyOf } from './context';
import { triggerIn } from './trigger-arming';
import { triggerView } from './views';

/** Who an activity entry of this trigger is about. */
function whoOf(trigger: TriggerRecord): { package?: string; agent?: string; trigger: string } {
  return {
    ...(trigger.packageName ? { package: trigger.packageName } : {}),
    ...(trigger.agentId ? { agent: trigger.agentId } : {}),
    trigger: trigger.id,
  };
}

/** What a pause keeps, in the words of its activity entry. */
function keptWords(trigger: TriggerRecord): string {
  if (trigger.type === 'webhook') return 'its signing secret kept; its sender’s calls are not taken while paused';
  if (trigger.type === 'file_watch') return `its folder kept (${trigger.folder ?? 'none'})`;
  return 'its schedule kept';
}

/**
 * Pauses an armed trigger: it stays armed, its folder and secret kept, and does not fire until resumed. Recorded as
 * `pause`; pausing a paused trigger changes nothing and records nothing. A trigger that is off is refused
 * (`trigger.not_armed`): there is nothing to pause.
 */
export async function pauseTrigger(ctx: ApiContext, request: ApiRequest<'pauseTrigger'>): Promise<TriggerView> {
  const { deps, store } = ctx;
  const { view } = await store.update(
    (state) => {
      const trigger = triggerIn(state, request.triggerId);
      if (!trigger.armed)
        throw new CoreError(
          'trigger.not_armed',
          `trigger \`${trigger.id}\` is not armed: there is nothing to pause (arm it first)`,
        );
      const paused = trigger.pausedAt === null;
      if (paused) trigger.pausedAt = deps.now().toISOString();
      return {
        result: { view: triggerView(trigger, deps.now()), paused, who: whoOf(trigger), kept: keptWords(trigger) },
        write: paused,
      };
    },
    // The pause and its entry in one commit (DESIGN.md "Commit points").
    ({ paused, who, kept }) =>
      paused
        ? [
            {
              kind: 'pause',
              ...who,
              outcome: 'ok',
              detail: `paused by you: still armed, ${kept}; it fires when resumed`,
            },
          ]
        : [],
  );
  return view;
}

/**
 * Resumes a trigger the person paused: it fires again, with the folder and secret it kept. A door as arming is
 * ({@link refuseArming}): the policy read now (unreadable, nothing is resumed), a changed package, a withheld one.
 * Recorded as `resume`; resuming a trigger the person did not pause changes nothing and records nothing.
 */
export async function resumeTrigger(ctx: ApiContext, request: ApiRequest<'resumeTrigger'>): Promise<TriggerView> {
  const { deps, store } = ctx;
  const what = `trigger \`${request.triggerId}\` was not resumed`;
  const policy = usablePolicy(policyOf(ctx), what);
  const { view } = await store.update(
    (state) => {
      const trigger = triggerIn(state, request.triggerId);
      if (!trigger.armed)
        throw new CoreError(
          'trigger.not_armed',
          `trigger \`${trigger.id}\` is not armed: there is nothing to resume (arm it instead)`,
        );
      const resumed = trigger.pausedAt !== null;
      if (resumed) {
        refuseArming(state, policy, trigger, what, deps.now());
        trigger.pausedAt = null;
      }
      return {
        result: { view: triggerView(trigger, deps.now()), resumed, who: whoOf(trigger) },
        write: resumed,
      };
    },
    ({ resumed, who }) =>
      resumed
        ? [{ kind: 'resume', ...who, outcome: 'ok', detail: 'resumed by you: it fires again, with what it kept' }]
        : [],
  );
  return view;
}
