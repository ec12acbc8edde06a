/**
 * How a trigger stands between two versions of a package: whether it is the same, and what it is in words. The
 * decision turns a changed trigger off by these, and the update panel (`update-diff.ts`) tells the change with them.
 */
import type { TriggerEntry, TriggerSource } from '../manifests/apollia-manifest';
import { describeCron } from '../words/cron-words';
import { describeInterval } from '../triggers/cron';

/**
 * A trigger's source in words, as the form and the update panel say it.
 *
 * Both say it from this one place, so the words the person arms a trigger by are the words an update shows.
 */
export function triggerSourceWords(source: TriggerSource): string {
  // Words in the middle of a sentence: "every hour", not "Every hour".
  const inSentence = (words: string) => `${words.charAt(0).toLowerCase()}${words.slice(1)}`;
  switch (source.type) {
    case 'cron':
      try {
        return inSentence(describeCron(source.schedule, { dayRule: 'and' }));
      } catch {
        return `the schedule \`${source.schedule}\``;
      }
    case 'interval':
      return inSentence(describeInterval(source.every));
    case 'file_watch':
      return source.recursive
        ? 'when anything in the watched folder or its subfolders changes'
        : 'when a file in the watched folder changes';
    case 'webhook':
      return 'when another program calls its web address';
  }
}

/**
 * A trigger in words: when it fires, and what it starts.
 *
 * A changed trigger is told as its old words → its new words, so the person sees what arming it again means.
 */
export function triggerWords(trigger: TriggerEntry): string {
  const input = trigger.input ? ` with “${trigger.input}”` : '';
  return `${triggerSourceWords(trigger.source)}, starting ${trigger.target}${input}`;
}

function sameSource(a: TriggerSource, b: TriggerSource): boolean {
  return JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());
}

/**
 * Whether a trigger is the same in both versions (source, target and input).
 *
 * Only a trigger that did not change keeps its arming across an update.
 */
export function sameTrigger(a: TriggerEntry, b: TriggerEntry): boolean {
  return a.target === b.target && (a.input ?? '') === (b.input ?? '') && sameSource(a.source, b.source);
}
