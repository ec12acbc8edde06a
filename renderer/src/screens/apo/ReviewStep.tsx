import type { ApoInspection } from '../../../../shared/inspection';
import { AskBadge, FamilyBadge } from '../../components/FamilyBadge';
import { PackageText } from '../../components/PackageText';
import { useConsentDraft } from '../../stores/consent-store';
import { accessRow } from './access';

/** Step 4: everything decided, in one view. */
export function ReviewStep({ inspection, sourceId }: { inspection: ApoInspection; sourceId: string }) {
  const manifest = inspection.details?.manifest;
  const draft = useConsentDraft(sourceId);
  if (!manifest) return null;
  const triggers = manifest.triggers ?? [];
  return (
    <div className="step-body">
      <p>
        You are about to install <strong><PackageText text={manifest.package.name} /></strong> version <PackageText text={manifest.package.version} /> from <PackageText text={manifest.package.publisher} /> (unverified publisher).
      </p>
      <section aria-labelledby="review-access">
        <h3 id="review-access">Access you allow</h3>
        {(manifest.agents ?? []).length === 0 ? <p className="muted">No agents.</p> : null}
        {(manifest.agents ?? []).map((agent) => {
          const entries = agent.defaults?.access ?? [];
          return (
            <div key={agent.id}>
              <h4>
                <PackageText text={agent.name} />
              </h4>
              {entries.length === 0 ? <p className="muted small">No tools.</p> : null}
              <ul className="rows">
                {entries.map((entry) => {
                  const row = accessRow(entry, manifest);
                  const kept = draft.access[agent.id]?.[entry] ?? true;
                  return (
                    <li key={entry} className="row">
                      <code><PackageText text={entry} /></code> <FamilyBadge family={row.family} /> {kept ? <AskBadge asks={row.asks} /> : <span className="badge badge-deny">Not allowed</span>}
                    </li>
                  );
                })}
              </ul>
            </div>
          );
        })}
      </section>
      <section aria-labelledby="review-triggers">
        <h3 id="review-triggers">Triggers</h3>
        {triggers.length === 0 ? <p className="muted">None proposed.</p> : null}
        <ul className="rows">
          {triggers.map((trigger) => {
            const state = draft.triggers[trigger.id];
            return (
              <li key={trigger.id} className="row">
                <code><PackageText text={trigger.id} /></code>{' '}
                {state?.arm ? (
                  <span className="badge badge-ask">Will be armed{state.displayPath ? `, watching ${state.displayPath}` : ''}</span>
                ) : (
                  <span className="badge badge-neutral">Stays off</span>
                )}
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
