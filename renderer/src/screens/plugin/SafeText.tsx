import { useState } from 'react';
import { safeDisplayText } from '../../../../shared/display-text';

const MARKER = /(⟨U\+[0-9A-F]{4,6}⟩)/;

/**
 * Package text for the plugin view: hidden characters made visible where they stand (marked, with
 * a title naming them), long text shortened with a "Show all" button, always a React text node.
 */
export function SafeText({ text, max = 200, multiline = false }: { text: string; max?: number; multiline?: boolean }) {
  const [expanded, setExpanded] = useState(false);
  const safe = safeDisplayText(text, { max, multiline });
  const body = expanded ? safe.full : safe.shown;
  const parts = body.split(MARKER);
  return (
    <span className={multiline ? 'safe-text safe-text-multiline' : 'safe-text'}>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <mark key={i} className="hidden-char" title={`A hidden character (${part.slice(1, -1)}) was here; it is shown instead of being applied`}>
            {part}
          </mark>
        ) : (
          part
        ),
      )}
      {safe.truncated ? (
        <>
          {' '}
          <button type="button" className="button button-small" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
            {expanded ? 'Show less' : `Show all (${text.length.toLocaleString()} characters)`}
          </button>
        </>
      ) : null}
    </span>
  );
}
