/**
 * "Copy a request for your administrator": beside a refusal of the organization's policy, the text a
 * person sends to whoever manages the computer — what was refused, about what, by which rule — copied in one click
 * and shown, so it can be selected when the clipboard cannot be used.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Check, Copy } from 'lucide-react';
import { useId, useState } from 'react';
import type { Dashboard } from '../../../shared/contract/api';
import { adminRequestText } from '../../../shared/policy/policy-words';
import { queryKeys } from '../../api/query-keys';

/** The organization's name as the dashboard last read it, or null. */
function useOrganization(): string | null {
  const client = useQueryClient();
  const dashboard = client.getQueryData<Dashboard>(queryKeys.dashboard());
  return dashboard?.policy?.view.effective?.organization ?? null;
}

export function AdminRequest({ code, refused, subject }: { code: string; refused: string; subject: string | null }) {
  const organization = useOrganization();
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const textId = useId();
  const text = adminRequestText({ code, refused, subject, organization });
  return (
    <div className="admin-request">
      <p>
        <button
          type="button"
          className="button button-small"
          aria-describedby={textId}
          onClick={() => {
            navigator.clipboard.writeText(text).then(
              () => setCopied('yes'),
              () => setCopied('failed'),
            );
          }}
        >
          {copied === 'yes' ? <Check aria-hidden="true" size={14} /> : <Copy aria-hidden="true" size={14} />} Copy a
          request for your administrator
        </button>{' '}
        <span role="status" className="small">
          {copied === 'yes'
            ? 'Copied: paste it into a message to your administrator.'
            : copied === 'failed'
              ? 'It could not be copied: select the text below instead.'
              : ''}
        </span>
      </p>
      <details className="small">
        <summary>The request</summary>
        <pre id={textId} className="admin-request-text">
          {text}
        </pre>
      </details>
    </div>
  );
}
