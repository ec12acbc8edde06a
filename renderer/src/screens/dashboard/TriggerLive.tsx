import type { TriggerLiveView, TriggerView } from '../../../../shared/contract/api';
import {
  deliveryWords,
  fireCauseWords,
  TRIGGER_STATE_WORDS,
  WEBHOOK_SIGNING_WORDS,
} from '../../../../shared/words/words';
import { Hourglass } from 'lucide-react';
import {
  FIRE_QUEUES_WORDS,
  queueFull,
  queueFullWords,
  runsWaitingWords,
  runTaking,
  runTakingWords,
} from '../../../../shared/triggers/run-queue';
import { useSettings, useTriggerStatus } from '../../../api/hooks';
import { KEYCHAIN_WEBHOOKS_DARK_WORDS, otherHost } from './other-host';
import { useFlowStore } from '../../stores/flow-store';
import { CodeText } from '../../components/CodeText';
import { formatFireTime } from '../../components/schedule';
import { WebhookAddress } from './WebhookAddress';
import { type PausedCounts, pausedWords } from './paused-count';

/** A time in `timezone` (a schedule's own), else in this computer's. */
function when(iso: string, timezone: string | null = null): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : formatFireTime(date, timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
}

const FIRE_WORDS: Record<NonNullable<TriggerLiveView['lastFire']>['outcome'], string> = {
  queued: 'a run was queued',
  skipped: 'skipped: its runs waiting are at their limit',
  failed: 'the run request could not be written',
};

function stateWords(live: TriggerLiveView, timezone: string | null): string {
  // The next fire in the schedule's own zone, as the row's "Next:" says it.
  if (live.state === 'scheduled' && live.next) return `Next at ${when(live.next, timezone)}`;
  return TRIGGER_STATE_WORDS[live.state] ?? TRIGGER_STATE_WORDS.problem;
}

/** How a sender signs a delivery (Standard Webhooks), next to the URL. */
export function HowToSign({ name }: { name: string }) {
  return (
    <details className="small how-to-sign">
      <summary>How to sign a call to {name}</summary>
      <p>{WEBHOOK_SIGNING_WORDS}</p>
      <p className="muted">
        For the sender's developer: send a <code>POST</code> with three headers, as the Standard Webhooks libraries do (
        <code>new Webhook(secret).sign(id, date, body)</code>):
      </p>
      <ul className="muted">
        <li>
          <code>webhook-id</code>: a unique id for this call (a repeat is refused);
        </li>
        <li>
          <code>webhook-timestamp</code>: the time in Unix seconds (more than 5 minutes off is refused);
        </li>
        <li>
          <code>webhook-signature</code>: <code>v1,</code> then the base64 HMAC-SHA256 of <code>id.timestamp.body</code>
          , keyed by the secret shown when it was armed (the part after <code>whsec_</code>, base64-decoded).
        </li>
      </ul>
    </details>
  );
}

function LiveDetails({ trigger, live, running }: { trigger: TriggerView; live: TriggerLiveView; running: boolean }) {
  return (
    <div className="live" role="group" aria-label={`Live status of ${trigger.name}`}>
      <p className="small">
        <span
          className={`badge ${!running ? 'badge-neutral' : live.state === 'problem' ? 'badge-deny' : 'badge-live'}`}
        >
          {running ? stateWords(live, trigger.timezone) : 'Not live'}
        </span>
        {live.state === 'problem' && live.problem ? (
          <>
            {' '}
            <CodeText text={live.problem} />
          </>
        ) : null}
        {live.waiting > 0 ? ` · ${live.waiting === 1 ? '1 run waiting' : `${live.waiting} runs waiting`}` : ''}
      </p>
      {trigger.type === 'webhook' ? (
        <>
          <WebhookAddress triggerId={trigger.id} name={trigger.name} armed />
          <HowToSign name={trigger.name} />
        </>
      ) : null}
      <p className="small">
        Last fire:{' '}
        {live.lastFire ? (
          <>
            <time data-volatile dateTime={live.lastFire.at}>
              {when(live.lastFire.at)}
            </time>{' '}
            ({fireCauseWords(live.lastFire.cause)}): {FIRE_WORDS[live.lastFire.outcome]}
          </>
        ) : (
          'not yet'
        )}
      </p>
      {trigger.type === 'webhook' ? (
        live.deliveries.length === 0 ? (
          <p className="small muted">No delivery yet.</p>
        ) : (
          <>
            <p className="small">Last deliveries:</p>
            <ul className="small deliveries" aria-label={`Last deliveries to ${trigger.name}`}>
              {live.deliveries.map((d, i) => (
                <li key={`${d.at}-${i}`}>
                  <time data-volatile dateTime={d.at}>
                    {when(d.at)}
                  </time>
                  :{' '}
                  <span className={`badge ${d.status < 300 ? 'badge-allow' : 'badge-deny'}`}>
                    {deliveryWords(d.status)}
                  </span>{' '}
                  <CodeText text={d.reason} />
                </li>
              ))}
            </ul>
          </>
        )
      ) : null}
    </div>
  );
}

/**
 * An armed trigger as the trigger host runs it: state, next time, the webhook's address and how to sign, deliveries,
 * last fire.
 */
export function TriggerLive({ trigger }: { trigger: TriggerView }) {
  const status = useTriggerStatus();
  if (!trigger.armed) return null;
  // An armed webhook has its address whether or not a trigger host has made it live yet.
  const address =
    trigger.type === 'webhook' ? <WebhookAddress triggerId={trigger.id} name={trigger.name} armed /> : null;
  // Paused (by the person, the policy or integrity), the host does not make it live: its row says why, never "Starting…".
  if (trigger.pausedAt !== null || trigger.policy || trigger.integrity) return address;
  const live = status.data?.triggers[trigger.id];
  if (!status.data || !live)
    return (
      <>
        {address}
        {status.data?.running ? <p className="small muted">Starting…</p> : null}
      </>
    );
  return <LiveDetails trigger={trigger} live={live} running={status.data.running} />;
}

/**
 * A trigger's runs waiting in `runs/pending/`, on its row: how many, a full queue said (new fires are skipped), and the
 * way to the Runs view with its runs.
 */
export function TriggerQueue({ trigger }: { trigger: TriggerView }) {
  const status = useTriggerStatus();
  const showRuns = useFlowStore((s) => s.showRuns);
  const waiting = status.data?.pending.byTrigger[trigger.id] ?? 0;
  if (waiting === 0) return null;
  const full = queueFull(waiting, trigger.waitLimit);
  return (
    <div className={full ? 'panel panel-warning' : undefined}>
      <p className="small">
        <Hourglass aria-hidden="true" size={12} /> {runsWaitingWords(waiting)} for an agent runtime
        {full ? '.' : ` (at most ${trigger.waitLimit.toLocaleString('en-US')}).`}{' '}
        {full ? queueFullWords(waiting, trigger.waitLimit) : null}{' '}
        <button type="button" className="link-button link-inline" onClick={() => showRuns(trigger.id)}>
          See the runs waiting for {trigger.name}
        </button>
      </p>
    </div>
  );
}

/** Whether the triggers are live at all, and the runs waiting: said plainly at the top of the dashboard. */
export function TriggerHostNote({ paused }: { paused?: PausedCounts }) {
  const status = useTriggerStatus();
  const settings = useSettings();
  const showRuns = useFlowStore((s) => s.showRuns);
  if (!status.data) return null;
  const { running, pending, origin, host } = status.data;
  const other = otherHost(status.data, settings.data?.secretBackend);
  return (
    <section className={`panel ${running ? 'panel-info' : 'panel-warning'}`} aria-labelledby="trigger-host-heading">
      <h2 id="trigger-host-heading">Triggers</h2>
      {running ? (
        <>
          {paused && paused.armed > 0 && paused.byYou + paused.held === paused.armed ? (
            <p>No armed trigger is live: {pausedWords(paused)}. Nothing fires until they are resumed.</p>
          ) : (
            <p>
              Armed triggers are live{paused && pausedWords(paused) ? `, except ${pausedWords(paused)}` : ''}: webhooks
              are received on <code data-volatile>{origin ?? 'this computer'}</code>, folders watched and schedules
              kept.
            </p>
          )}
          {host?.here === false ? (
            <p>
              They run in another program on this computer: the Apollia Desktop command line’s <code>serve</code>, or
              its service{' '}
              <span className="small muted">
                (process <span data-volatile>{host.pid}</span>)
              </span>
              . This app starts none of its own while that one runs.
            </p>
          ) : null}
          {other?.keychainWebhooksDark ? <p className="panel panel-warning">{KEYCHAIN_WEBHOOKS_DARK_WORDS}</p> : null}
          {host?.here === false ? null : (
            <p>
              They run in this app, and keep running when you close its window: its icon stays in the tray (menu bar),
              where you can pause them or quit.
            </p>
          )}
        </>
      ) : (
        <p>Armed triggers are not live: nothing receives webhooks, watches folders or keeps schedules right now.</p>
      )}
      <p>{FIRE_QUEUES_WORDS}</p>
      <p role="status">
        {runTakingWords(runTaking(pending, new Date()), pending.total)}
        {pending.total > 0 && pending.oldest ? (
          <>
            {' '}
            The oldest was queued{' '}
            <time data-volatile dateTime={pending.oldest}>
              {when(pending.oldest)}
            </time>
            .
          </>
        ) : null}
      </p>
      <p>
        <button type="button" className="button button-small" onClick={() => showRuns(null)}>
          <Hourglass aria-hidden="true" size={14} /> See the runs waiting
        </button>
      </p>
    </section>
  );
}
