/**
 * Name comparison: whether a new name (a publisher on update) is the old one, a different one, or a
 * lookalike that imitates it, and where the two differ. Pure: no DOM, no Node.
 */
import { CONFUSABLES } from './script-lookalikes';

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
/** One of {@link NAME_COMPARISONS}: what {@link compareNames} says about two names. */
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
