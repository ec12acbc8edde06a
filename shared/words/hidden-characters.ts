/**
 * Hidden characters in package text: bidi controls that reorder what a person reads (Trojan Source,
 * CVE-2021-42574), invisible format characters (zero-width, tag characters, variation selectors) and
 * control characters, each replaced where it stands by a visible marker. Pure: no DOM, no Node.
 */

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

/**
 * A code point in `U+202E` form.
 *
 * The one spelling markers and warnings use, so a person can match a warning to the marker on screen.
 */
export function codePointLabel(cp: number): string {
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
    found.push({ codePoint: codePointLabel(cp), index, name: nameOf(cp), category });
    out += `⟨${codePointLabel(cp)}⟩`;
  });
  return { text: out, found };
}
