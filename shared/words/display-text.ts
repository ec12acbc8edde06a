/**
 * Text from a package is data an attacker controls: a publisher name, a tool description or a
 * command line can hide characters that reorder or disguise what a person reads (Trojan Source,
 * CVE-2021-42574), smuggle invisible text (tag characters, variation selectors), or borrow letters
 * from another script that look like Latin ones (`Exаmple` with a Cyrillic `а`). Every consent
 * screen passes package text through here before showing it. Pure: no DOM, no Node.
 */
import { andList } from '../base/word-lists';

/** One hidden character that was replaced by a visible marker. */
export interface RevealedCharacter {
  /** `U+202E` form. */
  codePoint: string;
  /** UTF-16 index in the original text. */
  index: number;
  /** What it is, in words: `right-to-left override`. */
  name: string;
  category: 'bidi' | 'invisible' | 'control';
}

/** `revealInvisibles` options. */
export interface RevealOptions {
  /** A multi-line field (prose) keeps `\n`, `\t` and `\r\n`; a one-line field marks them. */
  multiline?: boolean;
}

const NAMES: Record<number, string> = {
  0x00: 'null character',
  0x07: 'bell control',
  0x08: 'backspace control',
  0x09: 'tab',
  0x0a: 'line feed',
  0x0d: 'carriage return',
  0x1b: 'escape character',
  0x7f: 'delete character',
  0x85: 'next line control',
  0xad: 'soft hyphen',
  0x34f: 'combining grapheme joiner',
  0x61c: 'Arabic letter mark',
  0x115f: 'Hangul filler',
  0x1160: 'Hangul filler',
  0x17b4: 'Khmer inherent vowel',
  0x17b5: 'Khmer inherent vowel',
  0x180e: 'Mongolian vowel separator',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2061: 'invisible function application',
  0x2062: 'invisible times',
  0x2063: 'invisible separator',
  0x2064: 'invisible plus',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0x3164: 'Hangul filler',
  0xfeff: 'zero-width no-break space (BOM)',
  0xffa0: 'Hangul filler',
};

function hex(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** How a code point hides, or null when it shows as itself. Context rules are applied by the caller. */
function classify(cp: number): RevealedCharacter['category'] | null {
  if (
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0x200e ||
    cp === 0x200f ||
    cp === 0x61c
  )
    return 'bidi';
  if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp === 0x2028 || cp === 0x2029) return 'control';
  if (cp >= 0xd800 && cp <= 0xdfff) return 'control';
  if (
    cp === 0xad ||
    cp === 0x34f ||
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x17b4 ||
    cp === 0x17b5 ||
    (cp >= 0x180b && cp <= 0x180f) ||
    (cp >= 0x200b && cp <= 0x200d) ||
    (cp >= 0x2060 && cp <= 0x2065) ||
    (cp >= 0x206a && cp <= 0x206f) ||
    cp === 0x3164 ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0xfeff ||
    cp === 0xffa0 ||
    (cp >= 0xfff9 && cp <= 0xfffb) ||
    (cp >= 0x1d173 && cp <= 0x1d17a) ||
    (cp >= 0xe0000 && cp <= 0xe007f) ||
    (cp >= 0xe0100 && cp <= 0xe01ef)
  )
    return 'invisible';
  return null;
}

function nameOf(cp: number): string {
  const known = NAMES[cp];
  if (known !== undefined) return known;
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag character';
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef) || (cp >= 0x180b && cp <= 0x180f))
    return 'variation selector';
  if (cp >= 0xd800 && cp <= 0xdfff) return 'unpaired surrogate';
  if (cp < 0x20 || (cp >= 0x80 && cp <= 0x9f)) return 'control character';
  return 'invisible formatting character';
}

const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const EMOJI = /^\p{Emoji}$/u;

function isPictographic(cp: number | undefined): boolean {
  return cp !== undefined && PICTOGRAPHIC.test(String.fromCodePoint(cp));
}

/**
 * Every UTF-16 unit that {@link classify} could flag, or that starts a context rule: C0 and C1
 * controls, DEL, the format characters and fillers of `classify`, variation selectors, and every
 * surrogate (so each astral character: tags, musical formatting, emoji sequences). Text without
 * one shows as itself, so the per-code-point walk is skipped on the happy path (the CLI
 * runs its whole output through here). A superset of `classify` on purpose: a match only means
 * "walk it".
 */
const HIDDEN_UNITS =
  '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff9-\\ufffb\\ud800-\\udfff';
/** {@link HIDDEN_UNITS} with tab and line feed, which a one-line field marks. */
const MAYBE_HIDDEN = new RegExp(`[\\t\\n${HIDDEN_UNITS}]`);
/** {@link HIDDEN_UNITS} alone: a multi-line field keeps tab and line feed (a lone `\r` is still walked). */
const MAYBE_HIDDEN_MULTILINE = new RegExp(`[${HIDDEN_UNITS}]`);

/**
 * Replaces every hidden character where it stands with a visible marker (`⟨U+202E⟩`): bidi
 * controls, zero-width and other format characters, tag characters, variation selectors, and
 * control characters (C0 but `\n`/`\t` in multi-line fields, DEL, C1).
 *
 * Emoji stay whole: a zero-width joiner between two pictographs (👩‍💻), VS15/VS16 after an emoji
 * character, and the tag sequence of a subdivision flag (🏴 + tags + cancel tag) are left alone.
 */
export function revealInvisibles(
  text: string,
  options: RevealOptions = {},
): { text: string; found: RevealedCharacter[] } {
  if (!(options.multiline ? MAYBE_HIDDEN_MULTILINE : MAYBE_HIDDEN).test(text)) return { text, found: [] };
  const cps: { cp: number; index: number }[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) ?? 0;
    cps.push({ cp, index: i });
    i += cp > 0xffff ? 2 : 1;
  }
  const allowed = new Set<number>();
  cps.forEach(({ cp }, k) => {
    // Subdivision flags: U+1F3F4, then tag digits / small letters, then U+E007F (UTS #51).
    if (cp === 0x1f3f4) {
      let j = k + 1;
      while (
        j < cps.length &&
        j - k <= 7 &&
        ((cps[j]!.cp >= 0xe0030 && cps[j]!.cp <= 0xe0039) || (cps[j]!.cp >= 0xe0061 && cps[j]!.cp <= 0xe007a))
      )
        j++;
      if (j - k >= 3 && cps[j]?.cp === 0xe007f) for (let m = k + 1; m <= j; m++) allowed.add(m);
    }
    if (cp === 0xfe0e || cp === 0xfe0f) {
      const prev = cps[k - 1]?.cp;
      if (prev !== undefined && EMOJI.test(String.fromCodePoint(prev))) allowed.add(k);
    }
    if (cp === 0x200d) {
      let p = k - 1;
      while (p >= 0 && (cps[p]!.cp === 0xfe0f || (cps[p]!.cp >= 0x1f3fb && cps[p]!.cp <= 0x1f3ff))) p--;
      if (isPictographic(cps[p]?.cp) && isPictographic(cps[k + 1]?.cp)) allowed.add(k);
    }
  });

  let out = '';
  const found: RevealedCharacter[] = [];
  cps.forEach(({ cp, index }, k) => {
    const ch = String.fromCodePoint(cp);
    if (allowed.has(k)) {
      out += ch;
      return;
    }
    if (options.multiline && (cp === 0x0a || cp === 0x09 || (cp === 0x0d && cps[k + 1]?.cp === 0x0a))) {
      out += ch;
      return;
    }
    const category = classify(cp);
    if (category === null) {
      out += ch;
      return;
    }
    found.push({ codePoint: hex(cp), index, name: nameOf(cp), category });
    out += `⟨${hex(cp)}⟩`;
  });
  return { text: out, found };
}

/** Scripts told apart for mixed-script checks (UTS #39 "restriction levels"). */
const SCRIPTS: readonly [string, RegExp][] = (
  [
    'Latin',
    'Greek',
    'Cyrillic',
    'Armenian',
    'Hebrew',
    'Arabic',
    'Syriac',
    'Thaana',
    'Devanagari',
    'Bengali',
    'Gurmukhi',
    'Gujarati',
    'Oriya',
    'Tamil',
    'Telugu',
    'Kannada',
    'Malayalam',
    'Sinhala',
    'Thai',
    'Lao',
    'Tibetan',
    'Myanmar',
    'Georgian',
    'Hangul',
    'Ethiopic',
    'Cherokee',
    'Canadian_Aboriginal',
    'Khmer',
    'Mongolian',
    'Hiragana',
    'Katakana',
    'Bopomofo',
    'Han',
    'Coptic',
    'Glagolitic',
    'Runic',
    'Ogham',
  ] as const
).map((name) => [name, new RegExp(`^\\p{Script=${name}}$`, 'u')]);

const LETTER_OR_DIGIT = /^[\p{L}\p{N}\p{M}]$/u;

function scriptOf(ch: string): string | null {
  if (!LETTER_OR_DIGIT.test(ch)) return null;
  for (const [name, pattern] of SCRIPTS) if (pattern.test(ch)) return name;
  // Common (digits, math letters) and Inherited (combining marks) do not make a text mixed.
  if (/^\p{Script=Common}$/u.test(ch) || /^\p{Script=Inherited}$/u.test(ch)) return null;
  return 'Other';
}

/** Script sets a single-language text legitimately mixes (UTS #39 "Highly Restrictive"). */
const ALLOWED_MIXES: readonly (readonly string[])[] = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

/**
 * Letters of other scripts that look like Latin letters or digits (after Unicode's
 * confusables.txt; the lookalikes that matter at the size a name is shown).
 */
export const CONFUSABLES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  в: 'B',
  е: 'e',
  ё: 'ë',
  г: 'r',
  к: 'k',
  м: 'M',
  н: 'H',
  о: 'o',
  п: 'n',
  р: 'p',
  с: 'c',
  т: 'T',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'ï',
  ј: 'j',
  ӏ: 'l',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ь: 'b',
  б: '6',
  ү: 'y',
  ԍ: 'G',
  ԓ: 'n',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  У: 'Y',
  Х: 'X',
  Ѕ: 'S',
  І: 'I',
  Ј: 'J',
  Ԛ: 'Q',
  Ԝ: 'W',
  Ӏ: 'l',
  З: '3',
  Ь: 'b',
  Ү: 'Y',
  Ԁ: 'd',
  // Greek
  α: 'a',
  ο: 'o',
  ν: 'v',
  ρ: 'p',
  υ: 'u',
  ι: 'i',
  κ: 'k',
  χ: 'x',
  γ: 'y',
  ε: 'e',
  η: 'n',
  ω: 'w',
  τ: 't',
  ϲ: 'c',
  ϳ: 'j',
  ς: 'c',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  Ϲ: 'C',
  Ϳ: 'J',
  // Armenian
  օ: 'o',
  ս: 'u',
  ո: 'n',
  ց: 'g',
  հ: 'h',
  զ: 'q',
  Ս: 'U',
  Օ: 'O',
  // Cherokee (capital-like syllables)
  Ꭺ: 'A',
  Ᏼ: 'B',
  Ꮯ: 'C',
  Ꭰ: 'D',
  Ꭼ: 'E',
  Ꮐ: 'G',
  Ꮋ: 'H',
  Ꭻ: 'J',
  Ꮶ: 'K',
  Ꮮ: 'L',
  Ꮇ: 'M',
  Ꮲ: 'P',
  Ꮪ: 'S',
  Ꭲ: 'T',
  Ꮩ: 'V',
  Ꮃ: 'W',
  Ꮓ: 'Z',
};

/** One character that looks like another (`а` U+0430 looks like `a`). */
export interface ConfusableCharacter {
  char: string;
  looksLike: string;
  index: number;
}

const ASCII_ALNUM = /^[A-Za-z0-9]+$/;

/**
 * Flags an identifier or name that mixes scripts (Latin with Cyrillic or Greek, …) or uses
 * letters that look like Latin letters or digits.
 *
 * `mixedScripts` is null for a single-script text and for the mixes a language needs (Japanese,
 * Chinese, Korean with Latin; UTS #39 "Highly Restrictive"), so `Яндекс` or `東京` are not flagged.
 * Confusables are reported when they can pass for Latin: the text also has Latin letters, or every
 * letter of it is a lookalike (`аррӏе`, a whole-script spoof). Compatibility forms (full-width
 * `Ｅ`, mathematical `𝐄`) always count: they fold to ASCII under NFKC.
 */
export function scriptWarnings(text: string): { mixedScripts: string[] | null; confusables: ConfusableCharacter[] } {
  const scripts = new Set<string>();
  const lookalikes: ConfusableCharacter[] = [];
  const compat: ConfusableCharacter[] = [];
  let letters = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    const script = scriptOf(ch);
    if (script !== null) scripts.add(script);
    if (/^\p{L}$/u.test(ch)) letters++;
    const mapped = CONFUSABLES[ch];
    if (mapped !== undefined) {
      lookalikes.push({ char: ch, looksLike: mapped, index: i });
    } else if (cp > 0x7f) {
      const folded = ch.normalize('NFKC');
      if (folded !== ch && ASCII_ALNUM.test(folded)) compat.push({ char: ch, looksLike: folded, index: i });
    }
    i += cp > 0xffff ? 2 : 1;
  }
  const sorted = [...scripts].sort();
  const allowedMix = ALLOWED_MIXES.some((mix) => sorted.every((s) => mix.includes(s)));
  const mixedScripts = sorted.length > 1 && !allowedMix ? sorted : null;
  const lookalikeLetters = lookalikes.filter((c) => /^\p{L}$/u.test(c.char)).length;
  const passesForLatin = scripts.has('Latin') || (letters > 0 && lookalikeLetters === letters);
  const confusables = [...(passesForLatin ? lookalikes : []), ...compat].sort((a, b) => a.index - b.index);
  return { mixedScripts, confusables };
}

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
      const cp = hex(c.char.codePointAt(0) ?? 0);
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

/**
 * Digits that pass for letters inside a word (`Acc0unting`, `App1e`): `0` for `o`, `1` for `l`,
 * `5` for `s`. Unicode's confusables data does not list them (they are ASCII), so they are kept here.
 */
export const DIGIT_CONFUSABLES: Readonly<Record<string, string>> = { '0': 'o', '1': 'l', '5': 's' };

/**
 * The skeleton two names are compared by: lower case, other scripts' lookalikes and
 * compatibility forms folded to Latin, digits that sit between letters read as the letter they
 * resemble, `rn` as `m`, spaces and punctuation dropped. Two names with the same skeleton look alike.
 */
export function nameSkeleton(text: string): string {
  const folded = [...text.normalize('NFKC')].map((ch) => CONFUSABLES[ch] ?? ch).join('');
  const letters = folded.toLowerCase();
  let out = '';
  for (let i = 0; i < letters.length; i++) {
    const ch = letters[i] ?? '';
    const digit = DIGIT_CONFUSABLES[ch];
    const between = /\p{L}/u.test(letters[i - 1] ?? '') || /\p{L}/u.test(letters[i + 1] ?? '');
    out += digit !== undefined && between ? digit : ch;
  }
  return out.replace(/rn/g, 'm').replace(/[\s\p{P}\p{S}]/gu, '');
}

/** How a new name compares with an old one: the same, different, or a lookalike (different text, same look). */
export const NAME_COMPARISONS = ['same', 'different', 'lookalike'] as const;
export type NameComparison = (typeof NAME_COMPARISONS)[number];

/** Compares an old and a new name (a publisher on update) with {@link nameSkeleton}. */
export function compareNames(before: string, after: string): NameComparison {
  if (before === after) return 'same';
  return nameSkeleton(before) === nameSkeleton(after) ? 'lookalike' : 'different';
}

/** One character where two names of the same length differ: what the old name had and what the new one has. */
export interface NameDifference {
  index: number;
  was: string;
  now: string;
}

/**
 * Where a lookalike name differs from the one it imitates, character by character, so the screen
 * can point at the `0` in `Acc0unting`. Empty when the lengths differ (then no position lines up).
 */
export function nameDifferences(before: string, after: string): NameDifference[] {
  const a = [...before];
  const b = [...after];
  if (a.length !== b.length) return [];
  const out: NameDifference[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push({ index: i, was: a[i] ?? '', now: b[i] ?? '' });
  return out;
}
