/**
 * Text from a package is data an attacker controls: a publisher name, a tool description or a
 * command line can hide characters that reorder or disguise what a person reads (Trojan Source,
 * CVE-2021-42574), smuggle invisible text (tag characters, variation selectors), or borrow letters
 * from another script that look like Latin ones (`Exаmple` with a Cyrillic `а`). Every consent
 * screen passes package text through here before showing it; the checks themselves are in
 * `hidden-characters.ts` and `script-lookalikes.ts`. Pure: no DOM, no Node.
 */
import { andList } from '../base/word-lists';
import { codePointLabel, type RevealedCharacter, revealInvisibles } from './hidden-characters';
import { scriptOf, scriptWarnings } from './script-lookalikes';

/** Text cut to at most `max` user-perceived characters, with the whole kept for "show all". */
export interface TruncatedText {
  /** The first `max` characters (grapheme clusters, so an emoji or accent is never split), then `…` if cut. */
  shown: string;
  truncated: boolean;
  full: string;
}

/**
 * Shortens long package text for display without splitting a character: a 2 MB description must
 * not take over the screen, but the user can still expand it to read all of it.
 */
export function truncateForDisplay(text: string, max: number): TruncatedText {
  const limit = Math.max(1, Math.floor(max));
  if (text.length <= limit) return { shown: text, truncated: false, full: text };
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let shown = '';
  let count = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (count === limit) return { shown: `${shown}…`, truncated: true, full: text };
    shown += segment;
    count++;
  }
  return { shown: text, truncated: false, full: text };
}

/** What a consent screen field is: decides which checks apply. */
export type DisplayTextKind = 'identifier' | 'name' | 'prose' | 'command';

/** One field of package text to check, with the words a person knows it by (`publisher name`). */
export interface DisplayTextField {
  label: string;
  text: string;
  kind: DisplayTextKind;
}

/** A warning for the consent form's overview step. */
export interface TextSafetyWarning {
  code: 'text.bidi_control' | 'text.invisible' | 'text.control' | 'text.mixed_scripts' | 'text.confusable';
  /** The field's label, as given. */
  field: string;
  message: string;
}

const SCRIPT_WORDS: Record<string, string> = {
  Canadian_Aboriginal: 'Canadian Aboriginal syllabics',
  Other: 'other-script',
};

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/**
 * Checks every field of package text a consent screen will show and says, in plain words, what
 * could mislead: hidden bidi controls, invisible or control characters, mixed scripts and
 * lookalike letters (names, identifiers and commands only: prose may mix scripts freely).
 * One warning per field and kind of character, so a field full of them does not flood the list.
 */
export function textSafetyReport(fields: readonly DisplayTextField[]): TextSafetyWarning[] {
  const warnings: TextSafetyWarning[] = [];
  for (const { label, text, kind } of fields) {
    const { found } = revealInvisibles(text, { multiline: kind === 'prose' });
    // The first of each kind and how many there are, counted in one pass (a field may hold hundreds
    // of thousands: copying a list per character was quadratic, hours for a 1 MiB manifest).
    const groups = new Map<string, { first: RevealedCharacter; count: number }>();
    for (const char of found) {
      const group = groups.get(char.codePoint);
      if (group) group.count += 1;
      else groups.set(char.codePoint, { first: char, count: 1 });
    }
    for (const [codePoint, { first, count: many }] of groups) {
      const count =
        many === 1 ? `${article(first.name)} ${first.name}` : `${many.toLocaleString('en-US')} × ${first.name}`;
      const what = `The ${label} contains ${count} (${codePoint})`;
      if (first.category === 'bidi')
        warnings.push({ code: 'text.bidi_control', field: label, message: `${what} that can disguise text` });
      else if (first.category === 'control')
        warnings.push({
          code: 'text.control',
          field: label,
          message: `${what}, a control character that does not print`,
        });
      else warnings.push({ code: 'text.invisible', field: label, message: `${what}, which is invisible` });
    }
    if (kind === 'prose') continue;
    const { mixedScripts, confusables } = scriptWarnings(text);
    if (mixedScripts !== null) {
      const words = mixedScripts.map((s) => SCRIPT_WORDS[s] ?? s);
      warnings.push({
        code: 'text.mixed_scripts',
        field: label,
        message: `The ${label} mixes ${andList(words)} letters, which can make it look like a different name`,
      });
    }
    const seen = new Set<string>();
    const described: string[] = [];
    for (const c of confusables) {
      if (seen.has(c.char)) continue;
      seen.add(c.char);
      const cp = codePointLabel(c.char.codePointAt(0) ?? 0);
      const script = scriptOf(c.char);
      described.push(
        `${script === null || script === 'Other' ? '' : `${script} `}"${c.char}" (${cp}) looks like "${c.looksLike}"`,
      );
    }
    if (described.length > 0) {
      warnings.push({
        code: 'text.confusable',
        field: label,
        message: `The ${label} uses lookalike characters: ${described.join('; ')}`,
      });
    }
  }
  return warnings;
}

/** Package text made safe to show: hidden characters marked, then shortened. */
export interface SafeDisplayText extends TruncatedText {
  found: RevealedCharacter[];
}

/**
 * The one call a screen makes before rendering package text: reveal hidden characters, then
 * truncate. `full` is the revealed text (never the raw one), so "show all" is safe too.
 */
export function safeDisplayText(text: string, options: { max: number; multiline?: boolean }): SafeDisplayText {
  const revealed = revealInvisibles(text, { multiline: options.multiline ?? false });
  return { ...truncateForDisplay(revealed.text, options.max), found: revealed.found };
}
