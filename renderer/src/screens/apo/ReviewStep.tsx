import { memo, useId, useMemo, useState } from 'react';
import type { AgentEntry } from '../../../../shared/apollia-manifest';
import type { ApoInspection } from '../../../../shared/inspection';
import { AskBadge, FamilyBadge } from '../../components/FamilyBadge';
import { PackageText } from '../../components/PackageText';
import { useConsentDraft } from '../../stores/consent-store';
import { accessClassifier, type AccessRow } from './access';
import { accessCounts, accessCountsText, FIRST_ROWS, firstRows, ShowAll } from './long-list';

const ReviewRow = memo(function ReviewRow({ row, kept }: { row: AccessRow; kept: boolean }) {
  return (
    <li className="row access-row">
      <code>
        <PackageText text={row.entry} />
      </code>{' '}
      <FamilyBadge family={row.family} /> {kept ? <AskBadge asks={row.asks} /> : <span className="badge badge-deny">Not allowed</span>}
    </li>
  );
});

/** An agent's access as decided; a long list shows its counts and its first rows, the unticked ones first. */
function ReviewAgentAccess({ agent, classify, answers }: { agent: AgentEntry; classify: (entry: string) => AccessRow; answers: Record<string, boolean> | undefined }) {
  const entries = agent.defaults?.access;
  const rows = useMemo(() => (entries ?? []).map(classify), [entries, classify]);
  const [all, setAll] = useState(false);
  const listId = useId();
  const kept = (entry: string) => answers?.[entry] ?? true;
  const shown = all ? rows : firstRows(rows, (row) => !kept(row.entry));
  return (
    <>
      {rows.length === 0 ? <p className="muted small">No tools.</p> : null}
      {rows.length > FIRST_ROWS ? (
        <p className="small access-counts">
          {accessCountsText(accessCounts(rows, kept))}
          {all ? '' : ' Those not allowed are shown first.'}
        </p>
      ) : null}
      <ul className={rows.length > FIRST_ROWS ? 'rows rows-long' : 'rows'} id={listId}>
        {shown.map((row) => (
          <ReviewRow key={row.entry} row={row} kept={kept(row.entry)} />
        ))}
      </ul>
      <ShowAll total={rows.length} expanded={all} onToggle={() => setAll(!all)} controls={listId} what="access entries" />
    </>
  );
}

/** Step 4: everything decided, in one view. */
export function ReviewStep({ inspection, sourceId }: { inspection: ApoInspection; sourceId: string }) {
  const manifest = inspection.details?.manifest;
  const draft = useConsentDraft(sourceId);
  const classify = useMemo(() => (manifest ? accessClassifier(manifest) : null), [manifest]);
  if (!manifest || !classify) return null;
  const triggers = manifest.triggers ?? [];
  return (
    <div className="step-body">
      <p>
        You are about to install{' '}
        <strong>
          <PackageText text={manifest.package.name} />
        </strong>{' '}
        version <PackageText text={manifest.package.version} /> from <PackageText text={manifest.package.publisher} /> (unverified publisher).
      </p>
      <section aria-labelledby="review-access">
        <h3 id="review-access">Access you allow</h3>
        {(manifest.agents ?? []).length === 0 ? <p className="muted">No agents.</p> : null}
        {(manifest.agents ?? []).map((agent) => (
          <div key={agent.id}>
            <h4>
              <PackageText text={agent.name} />
            </h4>
            <ReviewAgentAccess agent={agent} classify={classify} answers={draft.access[agent.id]} />
          </div>
        ))}
      </section>
      <section aria-labelledby="review-triggers">
        <h3 id="review-triggers">Triggers</h3>
        {triggers.length === 0 ? <p className="muted">None proposed.</p> : null}
        <ul className="rows">
          {triggers.map((trigger) => {
            const state = draft.triggers[trigger.id];
            return (
              <li key={trigger.id} className="row">
                <code>
                  <PackageText text={trigger.id} />
                </code>{' '}
                {state?.arm ? <span className="badge badge-ask">Will be armed{state.displayPath ? `, watching ${state.displayPath}` : ''}</span> : <span className="badge badge-neutral">Stays off</span>}
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
