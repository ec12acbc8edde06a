import { useState } from 'react';
import { ACTIVITY_KIND_WORDS, activityOutcomeWords, runWaits } from '../../../shared/activity/activity-kinds';
import type { ActivityEntry } from '../../../shared/contract/api';
import { useActivity, useDashboard } from '../../api/hooks';
import { RecordExport, RecordVerdict } from '../components/ActivityRecordNotes';
import { CodeText } from '../components/CodeText';
import { PackageText } from '../components/PackageText';
import { formatDateTime, localTimeZone } from '../components/date-format';
import { ErrorPanel, Loading } from '../components/Status';

const BADGE: Record<ActivityEntry['outcome'], string> = {
  ok: 'badge-allow',
  refused: 'badge-deny',
  skipped: 'badge-neutral',
  failed: 'badge-deny',
};

/** The badge of an entry: a queued run waits (nothing has taken it), so it is not marked done. */
function badgeOf(event: ActivityEntry): string {
  if (runWaits(event.kind, event.outcome)) return 'badge-neutral';
  return BADGE[event.outcome] ?? 'badge-neutral';
}

function when(iso: string): string {
  return formatDateTime(iso, localTimeZone(), { seconds: true });
}

function EventRow({ event, agentName }: { event: ActivityEntry; agentName: (id: string) => string }) {
  const about = event.agent ? agentName(event.agent) : event.package;
  return (
    <li>
      <p>
        <time data-volatile dateTime={event.at} className="small muted">
          {when(event.at)}
        </time>{' '}
        <strong>{(ACTIVITY_KIND_WORDS as Record<string, string>)[event.kind] ?? event.kind}</strong>
        {about ? (
          <>
            {' '}
            · <PackageText text={about} />
          </>
        ) : null}
        {event.trigger ? (
          <>
            {' '}
            · trigger{' '}
            <code>
              <PackageText text={event.trigger} />
            </code>
          </>
        ) : null}{' '}
        <span className={`badge ${badgeOf(event)}`}>{activityOutcomeWords(event.kind, event.outcome)}</span>
      </p>
      <p className="small">
        <CodeText text={event.detail} />
      </p>
    </li>
  );
}

/**
 * The activity log: everything that changed what an agent may do, or happened to it, newest first, filterable by agent.
 */
export function ActivityScreen() {
  const [agent, setAgent] = useState<string | null>(null);
  const [decisionsOnly, setDecisionsOnly] = useState(false);
  const activity = useActivity(agent, decisionsOnly);
  const dashboard = useDashboard();
  const agents = dashboard.data?.agents ?? [];
  const agentName = (id: string) => agents.find((a) => a.id === id)?.displayName ?? id;
  // Every agent the record names, removed ones too (shown by their id, marked removed), then those there now.
  const named = activity.data?.agents ?? [];
  const choices = [...new Set([...agents.map((a) => a.id), ...named])].map((id) => {
    const now = agents.find((a) => a.id === id);
    return { id, label: now ? now.displayName : `${id} (removed)` };
  });
  return (
    <div className="screen">
      <h1>Activity</h1>
      <p className="muted">
        What changed what your agents may do, and what happened to them: newest first. Secrets and the bodies of webhook
        calls are never kept here.
      </p>
      <div className="activity-filter">
        <label htmlFor="activity-agent">Show</label>
        <select
          id="activity-agent"
          value={agent ?? ''}
          onChange={(event) => setAgent(event.target.value === '' ? null : event.target.value)}
        >
          <option value="">Everything</option>
          {choices.map((a) => (
            <option key={a.id} value={a.id}>
              {a.label}
            </option>
          ))}
        </select>
        <label className="checkbox-row">
          <input type="checkbox" checked={decisionsOnly} onChange={(event) => setDecisionsOnly(event.target.checked)} />{' '}
          Only decisions (no deliveries, fires or runs)
        </label>
      </div>
      {activity.data ? <RecordVerdict verdict={activity.data.verdict} /> : null}
      {activity.data ? <RecordExport exported={activity.data.export} /> : null}
      {activity.isPending ? <Loading label="Loading the activity…" /> : null}
      {activity.isError ? <ErrorPanel error={activity.error} title="The activity could not be loaded" /> : null}
      {activity.data ? (
        activity.data.events.length === 0 ? (
          <p>Nothing has happened yet{agent ? ' for this agent' : ''}.</p>
        ) : (
          <ul className="activity-list" aria-label="Activity, newest first">
            {activity.data.events.map((event, i) => (
              <EventRow key={`${event.at}-${i}`} event={event} agentName={agentName} />
            ))}
          </ul>
        )
      ) : null}
    </div>
  );
}
