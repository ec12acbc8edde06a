import { PackageText } from './PackageText';

/**
 * A message that marks names with backticks (the app's problem messages, risk lines, update
 * changes: "package version `1.2` is not semver"): each backticked piece is shown as code, the rest
 * as words, so a person never reads raw backticks. One span, so it stays one item in a flex row. Every piece still goes
 * through PackageText
 * (hidden characters revealed, always a text node). An unpaired backtick is left as it is.
 */
export function CodeText({ text }: { text: string }) {
  const pieces = text.split('`');
  const paired = pieces.length % 2 === 1;
  if (pieces.length === 1 || !paired) {
    return (
      <span>
        <PackageText text={text} />
      </span>
    );
  }
  return (
    <span>
      {pieces.map((piece, i) =>
        i % 2 === 1 ? (
          <code key={i}>
            <PackageText text={piece} />
          </code>
        ) : piece === '' ? null : (
          <PackageText key={i} text={piece} />
        ),
      )}
    </span>
  );
}
