/**
 * The trigger decisions: whether each trigger of the manifest is armed, with what folder and secret.
 *
 * The rules (the others are in `decisions.ts`):
 * - A first install arms nothing (spec: installing does not arm triggers).
 * - An update keeps every trigger that did not change with its arming, folder and secret; a new or changed trigger
 *   starts off, and one that was armed is turned off and said so (with its old → new words), until the person arms
 *   it again.
 * - A secret is never replaced unless the answer asks for it (`webhookSecret`); a folder is kept unless another one is
 *   picked.
 * - A trigger kind the organization's policy does not allow is off, and an answer arming it is refused; one the person
 *   had armed is held (`held`), so lifting the block restores it.
 */
import type { WebhookSecretChoice } from '../triggers/webhook-secret-schema';
import type { TriggerAnswer } from './consent-answers-schema';
import type { TriggerEntry } from '../manifests/apollia-manifest';
import { POLICY_REFUSAL, triggerKindAllowed, triggerKindWords } from '../policy/policy';
import type { DecisionContext } from './decision-input';
import type { DecisionProblem } from './decision-problems';
import { sameTrigger, triggerWords } from './trigger-change';

/**
 * One trigger as decided.
 *
 * It says how the trigger stands to the installed version and why it is off, so an update never turns one off
 * silently.
 */
export interface TriggerDecided {
  armed: boolean;
  /** The folder it watches: the installed one kept, one picked now (its id), or none. */
  folder: { kind: 'keep'; shown: string } | { kind: 'picked'; folderId: string } | null;
  /** Its secret: the installed one kept, a new one made or given now, or none. */
  secret: { kind: 'keep'; origin: 'made' | 'given' } | { kind: 'new'; choice: WebhookSecretChoice } | null;
  /** How it stands to the installed version. */
  status: 'first' | 'unchanged' | 'changed' | 'new';
  /** For a changed trigger: what it was and what it is now, in words ("08:00 … → every 10 minutes"). */
  change: { from: string; to: string } | null;
  /** Armed in the installed version and off after this update without the person saying so: why. */
  turnedOff: string | null;
  /** Why the organization's policy keeps it off, in words; null when it does not. */
  policy: string | null;
  /**
   * Armed by the person and kept so in the store while the policy keeps it off (with its folder and secret): it fires
   * again once the policy allows it.
   */
  held: boolean;
}

/**
 * Decides one trigger from the person's answer for it (absent: untouched).
 *
 * Problems are added to `problems`. A kind of trigger the organization's policy does not allow is off: an answer arming
 * it is refused (`policy.trigger_kind`); one the person had armed is held (kept armed in the store
 * with its folder and secret) and fires again once the policy allows it.
 */
export function decideTrigger(
  ctx: DecisionContext,
  trigger: TriggerEntry,
  answer: TriggerAnswer | undefined,
  problems: DecisionProblem[] = [],
): TriggerDecided {
  const byPerson = decideTriggerByPerson(ctx, trigger, answer, problems);
  if (triggerKindAllowed(ctx.input.policy, trigger.source.type)) return byPerson;
  const words = `your organization does not allow ${triggerKindWords(trigger.source.type)} triggers`;
  if (answer?.armed === true)
    problems.push({
      code: 'policy.trigger_kind',
      message: `trigger \`${trigger.id}\` cannot be armed: ${words}; ${POLICY_REFUSAL}`,
      path: `decisions.triggers.${trigger.id}`,
    });
  const held = answer === undefined && byPerson.armed;
  return {
    ...byPerson,
    armed: false,
    folder: held ? byPerson.folder : null,
    secret: held ? byPerson.secret : null,
    policy: words,
    held,
  };
}

/** One trigger as the person's answer and the installed version decide it, before the policy applies. */
function decideTriggerByPerson(
  ctx: DecisionContext,
  trigger: TriggerEntry,
  answer: TriggerAnswer | undefined,
  problems: DecisionProblem[],
): TriggerDecided {
  const { installed } = ctx.input;
  const before = ctx.triggersBefore.get(trigger.id);
  const status: TriggerDecided['status'] = !installed
    ? 'first'
    : !before
      ? 'new'
      : sameTrigger(before, trigger)
        ? 'unchanged'
        : 'changed';
  const change = status === 'changed' && before ? { from: triggerWords(before), to: triggerWords(trigger) } : null;
  const had =
    installed && before && Object.hasOwn(installed.triggers, trigger.id) ? installed.triggers[trigger.id] : undefined;
  const keptFolder =
    trigger.source.type === 'file_watch' && had?.folder ? { kind: 'keep' as const, shown: had.folder } : null;
  const keptSecret =
    trigger.source.type === 'webhook' && had?.secret ? { kind: 'keep' as const, origin: had.secret } : null;
  if (answer === undefined) {
    const keep = status === 'unchanged' && had?.armed === true;
    const turnedOff =
      status === 'changed' && had?.armed === true && change
        ? `it changed in this version (${change.from} → ${change.to})`
        : null;
    // An armed watched folder whose folder is gone from the record cannot stay armed.
    if (keep && trigger.source.type === 'file_watch' && !keptFolder)
      return {
        armed: false,
        folder: null,
        secret: null,
        status,
        change,
        turnedOff: 'its folder is no longer recorded: choose it again',
        policy: null,
        held: false,
      };
    return {
      armed: keep,
      folder: keep ? keptFolder : null,
      secret: keep ? keptSecret : null,
      status,
      change,
      turnedOff,
      policy: null,
      held: false,
    };
  }
  if (!answer.armed)
    return { armed: false, folder: null, secret: null, status, change, turnedOff: null, policy: null, held: false };
  let folder: TriggerDecided['folder'] = null;
  if (trigger.source.type === 'file_watch') {
    if (answer.folderId !== undefined) folder = { kind: 'picked', folderId: answer.folderId };
    else if (keptFolder) folder = keptFolder;
    else
      problems.push({
        code: 'trigger.needs_folder',
        message: `trigger \`${trigger.id}\` watches a folder: pick one to arm it`,
        path: `decisions.triggers.${trigger.id}`,
      });
  }
  let secret: TriggerDecided['secret'] = null;
  if (trigger.source.type === 'webhook')
    secret =
      answer.webhookSecret !== undefined
        ? { kind: 'new', choice: answer.webhookSecret }
        : (keptSecret ?? { kind: 'new', choice: { kind: 'make' } });
  return { armed: true, folder, secret, status, change, turnedOff: null, policy: null, held: false };
}
