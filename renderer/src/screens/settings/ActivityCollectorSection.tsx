import { Radio } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { ActivityCollectorView } from '../../../../shared/contract/api';
import { useActivityCollector, useSetActivityCollector } from '../../../api/hooks';
import { ExportAddress, RecordExport } from '../../components/ActivityRecordNotes';
import { ErrorPanel, Loading } from '../../components/Status';

/** What is wrong with a typed address before it is sent, or null (the Api checks the rest and says why). */
function typedProblem(text: string): string | null {
  if (text === '') return 'Type the collector’s address.';
  return /^https?:\/\//iu.test(text) ? null : 'The address starts with https:// (or http:// on this computer).';
}

/** The collector in effect, in words: whose it is and where. */
function InEffect({ view }: { view: ActivityCollectorView }) {
  const inEffect = view.inEffect;
  if (inEffect === null)
    return (
      <p className="muted" data-testid="collector-in-effect">
        The record is kept on this computer only: no collector is named.
      </p>
    );
  return (
    <p data-testid="collector-in-effect">
      The record is sent to <ExportAddress url={inEffect.url} />
      {inEffect.origin === 'organization' ? (
        <>
          {' '}
          — <strong>Set by your organization</strong>: it cannot be changed here.
        </>
      ) : (
        ', the collector you named.'
      )}
    </p>
  );
}

/**
 * Settings → Activity record: the OpenTelemetry collector the record is sent to while the app (or `serve`) runs. The
 * person names one, or removes it; when the organization's policy names its own, that one is in effect and the field
 * is read-only.
 */
export function ActivityCollectorSection() {
  const collector = useActivityCollector();
  const set = useSetActivityCollector();
  const [typed, setTyped] = useState<string | null>(null);
  if (collector.isPending) return <Loading label="Loading the activity record’s collector…" />;
  if (collector.isError) return <ErrorPanel error={collector.error} title="The collector could not be read" />;
  const view = collector.data;
  const text = (typed ?? view.yours ?? '').trim();
  const problem = typedProblem(text);
  const unchanged = text === (view.yours ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem === null && !unchanged) set.mutate({ url: text }, { onSuccess: () => setTyped(null) });
  };
  const said = set.isSuccess
    ? set.data.changed === false
      ? 'Nothing to change.'
      : set.data.yours === null
        ? 'Removed: the record is no longer sent to a collector of yours.'
        : 'Saved: the record is sent there while Apollia Desktop (or serve) runs.'
    : '';
  return (
    <section aria-labelledby="collector-heading" data-testid="collector-section">
      <h2 id="collector-heading">
        <Radio aria-hidden="true" size={20} /> Activity record
      </h2>
      <p className="muted">
        A copy of the activity record can be sent, as it is written, to an OpenTelemetry collector (OTLP/HTTP logs), so
        a record changed on this computer can be compared with the copy.
      </p>
      <InEffect view={view} />
      {view.inEffect ? <RecordExport exported={view.inEffect} /> : null}
      <form onSubmit={submit} className="form" aria-labelledby="collector-heading">
        <div className="field">
          <label htmlFor="collector-url">{view.managed ? 'Collector address' : 'Your collector’s address'}</label>
          <input
            id="collector-url"
            type="url"
            value={view.managed ? (view.inEffect?.url ?? '') : (typed ?? view.yours ?? '')}
            onChange={(e) => setTyped(e.target.value)}
            readOnly={view.managed}
            aria-invalid={!view.managed && typed !== null && problem !== null}
            aria-describedby="collector-hint"
            placeholder="https://otel.example.com/v1/logs"
            autoComplete="off"
            spellCheck={false}
          />
          <p id="collector-hint" className="hint">
            {view.managed
              ? `Set by your organization: its policy names this collector, and it cannot be changed here${view.yours !== null && view.yours !== view.inEffect?.url ? ` (yours, ${view.yours}, is kept but not used)` : ''}.`
              : typed !== null && problem !== null
                ? problem
                : 'https://, or http:// to this computer (127.0.0.1 or localhost); no user or password in it.'}
          </p>
        </div>
        {view.managed ? null : (
          <div className="button-row">
            <button
              type="submit"
              className="button button-primary"
              disabled={problem !== null || unchanged || set.isPending}
            >
              Save
            </button>
            {view.yours !== null ? (
              <button
                type="button"
                className="button"
                disabled={set.isPending}
                onClick={() => set.mutate({ url: null }, { onSuccess: () => setTyped(null) })}
              >
                Remove
              </button>
            ) : null}
          </div>
        )}
        <p role="status" aria-live="polite" className="small">
          {said}
        </p>
        {set.isError ? <ErrorPanel error={set.error} title="The collector was not changed" /> : null}
      </form>
    </section>
  );
}
