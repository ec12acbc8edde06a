import { useId, useState } from 'react';
import { safeDisplayText } from '../../../shared/display-text';

/**
 * Text that came from a package (or from the app about a package). Hidden characters are revealed
 * as visible markers, long text is cut with a "Show all" button, and it is always a React text
 * node: markup in a manifest is shown, never run.
 */
export function PackageText({ text, max = 400, multiline = false }: { text: string | undefined | null; max?: number; multiline?: boolean }) {
  const [all, setAll] = useState(false);
  const id = useId();
  const safe = safeDisplayText(text ?? '', { max, multiline });
  if (!safe.truncated) return <>{safe.shown}</>;
  return (
    <>
      <span id={id}>{all ? safe.full : safe.shown}</span>{' '}
      <button type="button" className="link-button" aria-expanded={all} aria-controls={id} onClick={() => setAll(!all)}>
        {all ? 'Show less' : 'Show all'}
      </button>
    </>
  );
}
