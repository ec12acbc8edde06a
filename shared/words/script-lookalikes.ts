/**
 * Letters that disguise a name: a text mixing scripts (Latin with Cyrillic or Greek) or using
 * letters of another script that look like Latin ones (`Exаmple` with a Cyrillic `а`), after
 * UTS #39 and Unicode's confusables.txt. Pure: no DOM, no Node.
 */
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

/**
 * The script a letter or digit belongs to, or null for anything else.
 *
 * One answer for the mixed-script check and for the words of a lookalike warning, so a warning
 * names the script the check saw (`Other` for a script not told apart).
 */
export function scriptOf(ch: string): string | null {
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
 *
 * Kept by hand, on purpose for now: of the npm packages that carry confusables.txt, `unhomoglyph` (MIT, pure JS,
 * the whole table, no dependencies) fits best but its data stops at Unicode 13 (2020), and the others are
 * unmaintained or native bindings. The whole table would also map Latin letters among themselves (`m` → `rn`),
 * which the name comparison does in its own step. Should `unhomoglyph` be added, this table becomes its call for
 * every character, and the tests of `script-lookalikes.test.ts` and `name-comparison.test.ts` stay as they are.
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
