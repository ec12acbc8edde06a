/**
 * Name comparison: whether a new name (a publisher on update, a key's name beside a package's publisher field) is
 * the old one, a different one, or a lookalike made to pass for it, and where the two differ. Pure: no DOM, no Node.
 *
 * The rule, in order (UTS #39's skeleton, then the distance typosquatting checks use):
 * 1. Each name is reduced to its skeleton ({@link nameSkeleton}): compatibility forms folded (NFKC), other scripts'
 *    lookalikes mapped to Latin (`CONFUSABLES`), case folded, digits that touch a letter read as the letter they
 *    resemble (`Acc0unting` → `accounting`), `rn` read as `m`, spaces and punctuation dropped.
 * 2. The same skeleton: a lookalike (`Exаmple` with a Cyrillic `а`, `App1e`).
 * 3. Skeletons at most {@link editBudget} edits apart (insert, delete, replace, or swap two neighbours): a lookalike
 *    (`Modern` → `Modem`, `Example Accounting` → `Exampel Accounting`). The budget is 2, less for short names, where
 *    two edits make any name another (`Bob` → `Rob` is a different name).
 * 4. The old name, within that budget, inside the new one as whole words or as its start (`Example Accounting` →
 *    `Example Acc0unting Partners`, `The Example Accounting Group`, `ExampleAccountingLtd`): a lookalike, the
 *    impostor's other trick, words added to a name people already trust.
 * Anything else is a different name.
 */
import { CONFUSABLES } from './script-lookalikes';

/**
 * Digits that pass for letters inside a word (`Acc0unting`, `App1e`, `L3dger`): `0` for `o`, `1` for `l`, `3` for
 * `e`, `4` for `a`, `5` for `s`, `7` for `t`, `8` for `b`, `9` for `g`. Unicode's confusables data does not list
 * them (they are ASCII letters' neighbours, not another script), so they are kept here.
 */
export const DIGIT_CONFUSABLES: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'l',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
};

const LETTER = /\p{L}/u;
const SEPARATORS = /[\s\p{P}\p{S}]+/u;

/** Compatibility forms folded, other scripts' lookalikes mapped to Latin, case folded. */
function foldedLetters(text: string): string {
  return [...text.normalize('NFKC')]
    .map((ch) => CONFUSABLES[ch] ?? ch)
    .join('')
    .toLowerCase();
}

/** One word's skeleton: a digit touching a letter read as the letter it resembles, `rn` as `m`. */
function wordSkeleton(word: string): string {
  const chars = [...word];
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? '';
    const digit = DIGIT_CONFUSABLES[ch];
    const touchesLetter = LETTER.test(chars[i - 1] ?? '') || LETTER.test(chars[i + 1] ?? '');
    out += digit !== undefined && touchesLetter ? digit : ch;
  }
  return out.replace(/rn/g, 'm');
}

/** A name's words, each reduced to its skeleton, in order; separators dropped. */
export function nameWordSkeletons(text: string): string[] {
  return foldedLetters(text)
    .split(SEPARATORS)
    .filter((word) => word !== '')
    .map(wordSkeleton);
}

/**
 * The skeleton two names are compared by (rule 1 above): two names with the same skeleton look alike.
 */
export function nameSkeleton(text: string): string {
  return nameWordSkeletons(text).join('');
}

/**
 * How many edits a skeleton of this length may be from another and still pass for it: none under 4 letters, one
 * under 8, else two.
 */
export function editBudget(skeleton: string): number {
  const length = [...skeleton].length;
  return length < 4 ? 0 : length < 8 ? 1 : 2;
}

/**
 * The edit distance of two texts (optimal string alignment: insert, delete, replace, or swap two neighbours, each
 * one edit), stopping early past `limit` (then `limit + 1`).
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, (before[j - 2] ?? 0) + 1);
      current.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[y.length] ?? 0;
}

/** Why a new name passes for an old one (rules 2–4 above). */
export const NAME_LIKENESSES = ['same_look', 'near', 'contains'] as const;
/** One of {@link NAME_LIKENESSES}. */
export type NameLikeness = (typeof NAME_LIKENESSES)[number];

/** Whether `skeleton` is within `budget` edits of a run of whole words of `words`, or of the start of their text. */
function containsWithin(skeleton: string, words: string[], budget: number): boolean {
  for (let i = 0; i < words.length; i++) {
    let run = '';
    for (let j = i; j < words.length; j++) {
      run += words[j];
      if (editDistance(skeleton, run, budget) <= budget) return true;
      if (run.length > skeleton.length + budget) break;
    }
  }
  const whole = words.join('');
  for (let cut = skeleton.length - budget; cut <= skeleton.length + budget; cut++)
    if (cut > 0 && cut <= whole.length && editDistance(skeleton, whole.slice(0, cut), budget) <= budget) return true;
  return false;
}

/**
 * Why `after` passes for `before`, or null when it does not (a different name, or the same text). The rule is the
 * module's: same skeleton, a near skeleton, or the old name inside the new one.
 */
export function nameLikeness(before: string, after: string): NameLikeness | null {
  if (before === after) return null;
  const old = nameSkeleton(before);
  const now = nameSkeleton(after);
  if (old === '') return null;
  if (old === now) return 'same_look';
  const budget = editBudget(old);
  if (editDistance(old, now, budget) <= budget) return 'near';
  return containsWithin(old, nameWordSkeletons(after), budget) ? 'contains' : null;
}

/** How a new name compares with an old one: the same, different, or a lookalike (made to pass for it). */
export const NAME_COMPARISONS = ['same', 'different', 'lookalike'] as const;
/** One of {@link NAME_COMPARISONS}: what {@link compareNames} says about two names. */
export type NameComparison = (typeof NAME_COMPARISONS)[number];

/** Compares an old and a new name (a publisher on update) by the module's rule. */
export function compareNames(before: string, after: string): NameComparison {
  if (before === after) return 'same';
  return nameLikeness(before, after) === null ? 'different' : 'lookalike';
}

/** One character where two names of the same length differ: what the old name had and what the new one has. */
export interface NameDifference {
  index: number;
  was: string;
  now: string;
}

/**
 * Where a lookalike name differs from the one it imitates, character by character, so the screen can point at the
 * `0` in `Acc0unting`. When the new name is longer and starts with a text of the old one's length (`Example
 * Acc0unting Partners`), that start is compared; otherwise empty when the lengths differ, or when more than two
 * characters differ (then no position lines up).
 */
export function nameDifferences(before: string, after: string): NameDifference[] {
  const a = [...before];
  const b = [...after];
  if (a.length > b.length || (a.length < b.length && b[a.length] !== ' ')) return [];
  const out: NameDifference[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push({ index: i, was: a[i] ?? '', now: b[i] ?? '' });
  // More than a lookalike's two edits: the texts do not line up, and a list of every position would mislead.
  return out.length > 2 ? [] : out;
}
