/**
 * A template's triggers for its apply: each filled with the parameters and checked as `POST /v2/triggers` would,
 * with the next times it fires.
 */
import { AGENT_BODY_LIMIT, filledJsonTextBytes } from '../manifests/agent-body';
import { fillText, type ParameterValue, type TemplateTrigger } from '../manifests/template-manifest';
import { cronProblem, isTimeZone, nextCronTimes } from '../triggers/cron';
import { describeCron } from '../words/cron-words';
import type { PreviewContext } from './apply-context';
import type { PreviewTrigger } from './apply-preview-schema';

/** Whether an RFC 3339 date-time string is before `now`. */
function isPast(at: string, now: Date): boolean {
  const time = Date.parse(at);
  return Number.isFinite(time) && time <= now.getTime();
}

const NO_SEAL_KEY = 'a webhook needs a signing secret, and this machine has no keychain to keep one';

/**
 * The triggers, their parameters filled, checked as POST /v2/triggers would (blockers under triggers.<i>). The seal
 * key (409) before the trigger checks (422), as the spec orders them ("Apply" step 1: "...its required MCP servers
 * and, for a webhook trigger, the server's seal key (`409`), then every trigger as `POST /v2/triggers` checks it, its
 * parameters filled (`422` under `triggers.<i>`)"): a webhook's missing keychain is said before an earlier trigger's
 * bad cron.
 */
export function previewTriggers(ctx: PreviewContext, textValues: Record<string, ParameterValue>): PreviewTrigger[] {
  const triggers = ctx.manifest.triggers ?? [];
  const sealKeyMissing = new Set<number>();
  if (!ctx.machine.canKeepSecrets) {
    triggers.forEach((trigger, i) => {
      if (trigger.type !== 'webhook') return;
      sealKeyMissing.add(i);
      ctx.blockers.push({
        code: 'apply.webhook_no_secret_store',
        path: `triggers.${i}`,
        message: `Trigger \`${trigger.name}\`: ${NO_SEAL_KEY}`,
      });
    });
  }
  return triggers.map((trigger, i) => previewTrigger(ctx, trigger, i, textValues, sealKeyMissing.has(i)));
}

/** One trigger, filled and checked; a problem is a blocker under `triggers.<i>` and the row's `error`. */
function previewTrigger(
  ctx: PreviewContext,
  trigger: TemplateTrigger,
  i: number,
  textValues: Record<string, ParameterValue>,
  sealKeyMissing: boolean,
): PreviewTrigger {
  const block = (blockCode: string, message: string, preview: PreviewTrigger): PreviewTrigger => {
    ctx.blockers.push({ code: blockCode, path: `triggers.${i}`, message: `Trigger \`${trigger.name}\`: ${message}` });
    return { ...preview, error: message };
  };
  // A trigger's text is counted before it is filled, as the agent's is (a decision where the spec
  // is silent: `POST /v2/triggers` is held to the same 1 MiB as `POST /v2/agents`), so a long value
  // named many times in an input or a schedule is refused, never built.
  const texts = [
    trigger.target.input,
    trigger.type === 'schedule' ? trigger.cron : undefined,
    trigger.type === 'schedule' ? trigger.timezone : undefined,
  ];
  const triggerBytes = texts.reduce(
    (sum, text) => sum + (text === undefined ? 0 : filledJsonTextBytes(text, textValues)),
    0,
  );
  if (triggerBytes > AGENT_BODY_LIMIT) {
    return block(
      'apply.trigger_too_large',
      `filled, it would be ${triggerBytes.toLocaleString('en-US')} bytes, over the 1 MiB limit of ${AGENT_BODY_LIMIT.toLocaleString('en-US')} bytes: give shorter parameters`,
      {
        name: trigger.name,
        type: trigger.type,
        ...(trigger.type === 'at' ? { at: trigger.at } : {}),
        next: [],
        input: null,
      },
    );
  }
  const input = trigger.target.input === undefined ? null : fillText(trigger.target.input, textValues);
  if (trigger.type === 'schedule') {
    const cron = fillText(trigger.cron, textValues);
    const timezone = trigger.timezone === undefined ? 'UTC' : fillText(trigger.timezone, textValues);
    const base: PreviewTrigger = { name: trigger.name, type: 'schedule', cron, timezone, next: [], input };
    const problem = cronProblem(cron);
    if (problem !== null) return block('apply.trigger_cron', problem, base);
    if (!isTimeZone(timezone))
      return block(
        'apply.trigger_timezone',
        `\`${timezone}\` is not an IANA time zone (like Europe/Paris or UTC)`,
        base,
      );
    const options = { dayRule: 'or' as const, timezone };
    return {
      ...base,
      words: describeCron(cron, options),
      next: nextCronTimes(cron, options, ctx.machine.now, 3).map((d) => d.toISOString()),
    };
  }
  if (trigger.type === 'at') {
    const base: PreviewTrigger = { name: trigger.name, type: 'at', at: trigger.at, next: [], input };
    if (isPast(trigger.at, ctx.machine.now)) return block('apply.trigger_at_past', `${trigger.at} has passed`, base);
    return { ...base, next: [new Date(Date.parse(trigger.at)).toISOString()] };
  }
  const base: PreviewTrigger = { name: trigger.name, type: 'webhook', next: [], input };
  if (trigger.events) base.events = trigger.events;
  if (trigger.max_concurrent !== undefined) base.max_concurrent = trigger.max_concurrent;
  // Its blocker was said above, before the trigger checks; the row still shows why.
  return sealKeyMissing ? { ...base, error: NO_SEAL_KEY } : base;
}
