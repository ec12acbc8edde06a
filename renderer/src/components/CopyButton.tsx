import { Check, Copy } from 'lucide-react';
import { useState } from 'react';

/** Copies `value` to the clipboard; says so in an aria-live region. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  return (
    <span className="copy">
      <button
        type="button"
        className="button button-small"
        aria-label={label}
        onClick={() => {
          navigator.clipboard.writeText(value).then(
            () => setCopied('yes'),
            () => setCopied('failed'),
          );
        }}
      >
        {copied === 'yes' ? <Check aria-hidden="true" size={14} /> : <Copy aria-hidden="true" size={14} />} Copy
      </button>
      <span role="status" aria-live="polite" className="small muted">
        {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Could not copy: select the text instead' : ''}
      </span>
    </span>
  );
}
