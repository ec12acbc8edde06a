import { FileWarning, FolderOpen, ShieldCheck } from 'lucide-react';
import type { InstalledPackageView } from '../../../../shared/contract/api';
import { publisherStatus } from '../../../../shared/decisions/verdict';
import { useOpenDialog } from '../../../api/hooks';
import { useFlowStore } from '../../stores/flow-store';
import { PackageText } from '../PackageText';
import { ErrorPanel } from '../Status';

/** The dashboard's publisher badge: the installed package's signature state, in the Overview's words. */
export function PublisherBadge({ pkg }: { pkg: InstalledPackageView }) {
  const status = publisherStatus(pkg.signature, pkg.publisher);
  return (
    <span
      className={`badge ${status.tone === 'allow' ? 'badge-allow' : 'badge-warning-soft'}`}
      data-publisher-state={status.state}
      title={[status.explanation, status.namesNote].filter(Boolean).join(' ')}
    >
      {status.tone === 'allow' ? <ShieldCheck aria-hidden="true" size={12} /> : null}{' '}
      <PackageText text={status.label} />
    </span>
  );
}

/**
 * A package whose files changed after install: said loudly, with what changed,
 * that its triggers are paused (still armed), and the two ways out: reinstall it (open the same `.apo` again: they resume)
 * or uninstall it (the card's Uninstall button).
 */
export function IntegrityChangedPanel({ pkg }: { pkg: InstalledPackageView }) {
  const open = useOpenDialog();
  const openSource = useFlowStore((s) => s.openSource);
  if (pkg.integrity.state !== 'changed') return null;
  const { changed, missing, added } = pkg.integrity;
  const rows: [string, string[]][] = [
    ['Changed', changed],
    ['Missing', missing],
    ['Added', added],
  ];
  return (
    <div className="panel panel-error" role="alert" data-testid={`integrity-changed-${pkg.name}`}>
      <p className="refusal">
        <FileWarning aria-hidden="true" size={18} /> Changed on this computer since you installed it
      </p>
      <p>
        Files of this package are not the ones that were installed: something on this computer changed them. Its
        triggers are paused so nothing starts on its own; they stay armed, with their folders and secrets. Reinstall it
        from the original .apo file to resume them, or uninstall it.
      </p>
      <ul className="small">
        {rows
          .filter(([, files]) => files.length > 0)
          .map(([label, files]) => (
            <li key={label}>
              {label}:{' '}
              {files.slice(0, 10).map((file, i) => (
                <span key={file}>
                  {i > 0 ? ', ' : ''}
                  <code>
                    <PackageText text={file} />
                  </code>
                </span>
              ))}
              {files.length > 10 ? ` and ${files.length - 10} more` : ''}
            </li>
          ))}
      </ul>
      <button
        type="button"
        className="button"
        disabled={open.isPending}
        onClick={() => open.mutate({ kind: 'file' }, { onSuccess: (handle) => handle && openSource(handle) })}
      >
        <FolderOpen aria-hidden="true" size={16} /> Reinstall from the .apo file…
      </button>
      {open.isError ? <ErrorPanel error={open.error} title="The file could not be opened" /> : null}
    </div>
  );
}
