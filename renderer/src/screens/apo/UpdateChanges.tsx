import type { UpdateDiff } from '../../../../shared/update-diff';
import { CodeText } from '../../components/CodeText';

/** What an update changes in what the package asks, in the diff's own sentences. */
export function UpdateChanges({ diff, installedVersion }: { diff: UpdateDiff; installedVersion: string }) {
  return (
    <div className="step-body">
      <p>
        Version {installedVersion} is installed; this is version {diff.toVersion}. Your earlier answers are kept; anything new is shown for you to decide, and nothing new is armed.
      </p>
      {diff.asksMore ? <p className="panel panel-warning">This version asks for more than the installed one: see below.</p> : <p className="panel">This version asks for nothing more than the installed one.</p>}
      {diff.changes.length === 0 ? (
        <p className="muted">Nothing it asks for has changed.</p>
      ) : (
        <ul className="risk-list" aria-label="Changes">
          {diff.changes.map((change, i) => (
            <li key={i} className="risk risk-notice">
              <CodeText text={change} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
