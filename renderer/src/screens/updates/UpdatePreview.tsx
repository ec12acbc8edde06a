import { ShieldAlert } from 'lucide-react';
import type { UpdateOpened } from '../../../../shared/contract/api';
import { useInspection } from '../../../api/hooks';
import { ErrorPanel, Loading } from '../../components/Status';
import { useFlowStore } from '../../stores/flow-store';
import { UpdateChanges } from '../apo/UpdateChanges';

/**
 * What an update from the feed changes, on the Updates screen, before any form: the update is
 * fetched, verified and checked as a source (nothing installed), and its diff is shown by the
 * consent form's own `UpdateChanges` — the same words, the same source the form then opens on, so
 * what is read here is what the form asks. Installing is only ever through that form.
 */
export function UpdatePreview({ opened, onClose }: { opened: UpdateOpened; onClose: () => void }) {
  const inspection = useInspection(opened.handle.id);
  const openSource = useFlowStore((s) => s.openSource);
  const label = `What ${opened.to} changes`;
  return (
    <section className="panel update-preview" aria-label={label}>
      {inspection.isPending ? <Loading label={`Checking ${opened.to} without running any of it…`} /> : null}
      {inspection.isError ? <ErrorPanel error={inspection.error} title="The update could not be checked" /> : null}
      {inspection.data && !inspection.data.ok ? (
        <p className="panel panel-error">
          {opened.to} was refused when checked: open it to see why, and who can fix it.
        </p>
      ) : null}
      {inspection.data?.keyChange?.kind === 'changed' ? (
        <p className="panel panel-error">
          <ShieldAlert aria-hidden="true" size={16} /> <strong>{opened.to} is signed by another key</strong> than the
          one you installed {opened.from} with: the form stops first and asks you.
        </p>
      ) : null}
      {inspection.data?.ok && inspection.data.updateDiff ? (
        <UpdateChanges
          diff={inspection.data.updateDiff}
          installedVersion={opened.from}
          decisions={null}
          signed={inspection.data.signatureVerdict?.signature.state === 'verified'}
        />
      ) : null}
      <div className="button-row">
        <button
          type="button"
          className="button button-primary"
          disabled={!inspection.data}
          onClick={() => openSource(opened.handle)}
        >
          Review and install {opened.to}…
        </button>
        <button type="button" className="button" onClick={onClose}>
          Not now
        </button>
      </div>
    </section>
  );
}
