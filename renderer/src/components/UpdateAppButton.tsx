import { Download } from 'lucide-react';
import { APP_DOWNLOAD_PAGE_SHOWN } from '../../../shared/base/app-links';
import { useOpenDownloadPage } from '../../api/hooks';
import { toApiError } from '../../api/bridge';
import { CodeText } from './CodeText';

/**
 * The action of a refusal a newer app fixes: opens the page where the newest Apollia Desktop is, in
 * the person's browser (the main process opens the app's own fixed address, never one a package
 * names). The address is said beside it, for a person who would rather type it.
 */
export function UpdateAppButton() {
  const open = useOpenDownloadPage();
  return (
    <div className="update-app">
      <p>
        <button type="button" className="button button-primary" disabled={open.isPending} onClick={() => open.mutate()}>
          <Download aria-hidden="true" size={16} /> Get the newest Apollia Desktop
        </button>{' '}
        <span className="small muted">Opens {APP_DOWNLOAD_PAGE_SHOWN} in your browser.</span>
      </p>
      {open.isSuccess ? (
        <p className="small" role="status">
          Opened in your browser. Install it, then open this again.
        </p>
      ) : null}
      {open.isError ? (
        <p className="small text-error" role="alert">
          The page was not opened: <CodeText text={toApiError(open.error).message} />
        </p>
      ) : null}
    </div>
  );
}
