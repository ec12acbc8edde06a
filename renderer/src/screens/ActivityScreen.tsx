import { useState } from 'react';
import type { ActivityEntry } from '../../../shared/api';
import { useActivity, useDashboard } from '../../api/hooks';
import { PackageText } from '../components/PackageText';
import { formatFireTime } from '../components/schedule';
import { ErrorPanel, Loading } from '../components/Status';

/** Each kind of event in plain words. */
const KIND_WORDS: Record<string, string> = {
  install: 'Installed',
  update: 'Updated',
  uninstall: 'Removed',
  apply: 'Made from a template',
  grant: 'Allowed a tool',
  revoke: 'Withdrew a tool',
  arm: 'Armed a trigger',
  disarm: 'Disarmed a trigger',
  secret_rotated: 'New webhook secret',
  trigger_fired: 'Trigger fired',
  delivery_accepted: 'Webhook delivery accepted',
  delivery_refused: 'Webhook delivery refused',
  run_queued: 'Run queued',
  run_skipped: 'Run skipped',
  trigger_problem: 'Trigger problem',
  integrity_changed: 'Files changed on disk',
  host_started: 'Triggers went live',
  host_stopped: 'Triggers stopped',
};

const OUTCOME: Record<ActivityEntry['outcome'], { words: string; badge: string }> = {
  ok: { words: 'Done', badge: 'badge-allow' },
  refused: { words: 'Refused', badge: 'badge-deny' },
  skipped: { words: 'Skipped', badge: 'badge-neutral' },
  failed: { words: 'Failed', badge: 'badge-deny' },
};

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatFireTime(date, Intl.DateTimeFormat().resolvedOptions().timeZone);
}

function EventRow({ event, agentName }: { event: ActivityEntry; agentName: (id: string) => string }) {
  const about = event.agent ? agentName(event.agent) : event.package;
  return (
    <li>
      <p>
        <time data-volatile dateTime={event.at} className="small muted">
          {when(event.at)}
        </time>{' '}
        <strong>{KIND_WORDS[event.kind] ?? event.kind}</strong>
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
        <span className={`badge ${OUTCOME[event.outcome]?.badge ?? 'badge-neutral'}`}>{OUTCOME[event.outcome]?.words ?? event.outcome}</span>
      </p>
      <p className="small">
        <PackageText text={event.detail} />
      </p>
    </li>
  );
}

/** The activity log: everything that changed what an agent may do, or happened to it, newest first, filterable by agent. */
export function ActivityScreen() {
  const [agent, setAgent] = useState<string | null>(null);
  const activity = useActivity(agent);
  const dashboard = useDashboard();
  const agents = dashboard.data?.agents ?? [];
  const agentName = (id: string) => agents.find((a) => a.id === id)?.displayName ?? id;
  return (
    <div className="screen">
      <h1>Activity</h1>
      <p className="muted">What changed what your agents may do, and what happened to them: newest first. Secrets and the bodies of webhook calls are never kept here.</p>
      <div className="activity-filter">
        <label htmlFor="activity-agent">Show</label>
        <select id="activity-agent" value={agent ?? ''} onChange={(event) => setAgent(event.target.value === '' ? null : event.target.value)}>
          <option value="">Everything</option>
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.displayName}
            </option>
          ))}
        </select>
      </div>
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
