import { useId, useMemo, useState } from 'react';
import { safeDisplayText } from '../../../shared/words/display-text';

/** A marker `revealInvisibles` leaves where a hidden character stood (`⟨U+202E⟩`). */
const MARKER = /(⟨U\+[0-9A-F]{4,6}⟩)/;

/** The text with each hidden-character marker highlighted, so a disguise stands out where it is. */
function Marked({ text }: { text: string }) {
  const parts = text.split(MARKER);
  if (parts.length === 1) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <mark
            key={i}
            className="hidden-char"
            title={`A hidden character (${part.slice(1, -1)}) was here; it is shown instead of being applied`}
          >
            {part}
          </mark>
        ) : (
          part
        ),
      )}
    </>
  );
}

/**
 * Text that came from a package (or from the app about a package). Hidden characters are revealed
 * as visible, highlighted markers where they stand, long text is cut with a "Show all" button, and
 * it is always React text nodes: markup in a manifest is shown, never run.
 */
export function PackageText({
  text,
  max = 400,
  multiline = false,
}: {
  text: string | undefined | null;
  max?: number;
  multiline?: boolean;
}) {
  const [all, setAll] = useState(false);
  const id = useId();
  // Once per text, not per render: revealing is linear, but a package's text may be a megabyte.
  const safe = useMemo(() => safeDisplayText(text ?? '', { max, multiline }), [text, max, multiline]);
  const className = multiline ? 'package-text package-text-multiline' : undefined;
  if (!safe.truncated) {
    return className ? (
      <span className={className}>
        <Marked text={safe.shown} />
      </span>
    ) : (
      <Marked text={safe.shown} />
    );
  }
  return (
    <>
      <span id={id} className={className}>
        <Marked text={all ? safe.full : safe.shown} />
      </span>{' '}
      <button type="button" className="link-button" aria-expanded={all} aria-controls={id} onClick={() => setAll(!all)}>
        {all ? 'Show less' : `Show all (${(text ?? '').length.toLocaleString('en-US')} characters)`}
      </button>
    </>
  );
}
