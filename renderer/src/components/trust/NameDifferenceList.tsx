import { nameDifferences } from '../../../../shared/words/name-comparison';
import { PackageText } from '../PackageText';

function characterWords(ch: string): string {
  return /\d/.test(ch)
    ? `the digit ${ch}`
    : `“${ch}” (U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})`;
}

/**
 * Where a lookalike name differs from the one it imitates, character by character (the `0` in
 * `Acc0unting`): the one highlight of lookalike names, on a publisher change and beside a verified
 * key whose name differs from the package's publisher field, and the words added after it. Nothing when the names do
 * not line up.
 */
export function NameDifferenceList({
  expected,
  shown,
  expectedWords,
}: {
  expected: string;
  shown: string;
  expectedWords: string;
}) {
  const differences = nameDifferences(expected, shown);
  if (differences.length === 0) return null;
  // Words added after a name that otherwise lines up with it (`Example Acc0unting Partners`): said too.
  const added = [...shown]
    .slice([...expected].length)
    .join('')
    .trim();
  return (
    <ul aria-label="Where the names differ">
      {differences.map((d) => (
        <li key={d.index}>
          Character {d.index + 1}: <PackageText text={characterWords(d.now)} /> where {expectedWords} has “
          <PackageText text={d.was} />”
        </li>
      ))}
      {added !== '' ? (
        <li>
          Then “<PackageText text={added} />” added after it
        </li>
      ) : null}
    </ul>
  );
}
