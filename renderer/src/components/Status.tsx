import { AlertTriangle, Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { toApiError } from '../../api/bridge';
import { refusalAdvice } from '../../../shared/contract/refusal-actor';
import { AdminRequest } from './AdminRequest';
import { CodeText } from './CodeText';
import { PackageText } from './PackageText';
import { ProblemList } from './ProblemList';
import { UpdateAppButton } from './UpdateAppButton';

/** A uniform loading line, announced politely to screen readers. */
export function Loading({ label }: { label: string }) {
  return (
    <p className="status status-loading" role="status" aria-live="polite">
      <Loader2 className="spin" aria-hidden="true" size={18} /> {label}
    </p>
  );
}

/** A readable panel for an unexpected or expected api error: code and message, never a stack trace. */
export function ErrorPanel({
  error,
  title = 'Something went wrong',
  children,
  subject,
}: {
  error: unknown;
  title?: string;
  /** What the refusal was about (a package, an agent), for a policy refusal's request to the administrator. */
  subject?: string;
  children?: ReactNode;
}) {
  const apiError = toApiError(error);
  return (
    <section className="panel panel-error" role="alert" aria-label={title}>
      <h3>
        <AlertTriangle aria-hidden="true" size={18} /> {title}
      </h3>
      <p>
        <CodeText text={apiError.message} />
      </p>
      {apiError.path ? (
        <p className="muted">
          Where:{' '}
          <code>
            <PackageText text={apiError.path} />
          </code>
        </p>
      ) : null}
      {apiError.problems && apiError.problems.length > 0 ? <ProblemList problems={apiError.problems} /> : null}
      <p className="muted small">Error code: {apiError.code}</p>
      {refusalAdvice(apiError.code).updateApp ? <UpdateAppButton /> : null}
      {apiError.code.startsWith('policy.') ? (
        <AdminRequest code={apiError.code} refused={apiError.message} subject={subject ?? null} />
      ) : null}
      {children}
    </section>
  );
}
