import { ArrowLeft, Hourglass, Trash2 } from 'lucide-react';
import { useState } from 'react';
import {
  FIRE_QUEUES_WORDS,
  queueFullWords,
  RUN_CAUSE_WORDS,
  runsWaitingWords,
  type WaitingRunView,
  type WaitingTriggerView,
} from '../../../shared/triggers/run-queue';
import { useDiscardTriggerRuns, useDiscardWaitingRun, useWaitingRuns } from '../../api/hooks';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { formatDateTime, localTimeZone } from '../components/date-format';
import { PackageText } from '../components/PackageText';
import { ErrorPanel, Loading } from '../components/Status';
import { useFlowStore } from '../stores/flow-store';

const when = (iso: string) => formatDateTime(iso, localTimeZone(), { seconds: true });

/** A trigger as a person reads it: its name (its id when it is no longer on this computer). */
const triggerLabel = (t: { trigger: string; triggerName: string | null }) => t.triggerName ?? t.trigger;

/** Who a run or a trigger starts, in words. */
function startsWords(t: { agentName: string | null; triggerName: string | null }, target: string | null): string {
  if (t.agentName) return t.agentName;
  if (t.triggerName === null) return 'a trigger no longer on this computer';
  return target ?? 'a workflow';
}

/** One trigger's runs waiting: how many, whether its queue is full, and Discard all (with a confirmation). */
function TriggerQueueRow({ queue }: { queue: WaitingTriggerView }) {
  const discard = useDiscardTriggerRuns();
  const [confirm, setConfirm] = useState(false);
  const label = triggerLabel(queue);
  const discardAll = queue.waiting === 1 ? 'Discard its 1 run' : `Discard all ${queue.waiting} runs`;
  return (
    <li className="row row-block">
      <p>
        <strong>
          <PackageText text={label} />
        </strong>{' '}
        → <PackageText text={startsWords(queue, null)} />: {runsWaitingWords(queue.waiting)}
        {queue.limit !== null ? ` (at most ${queue.limit.toLocaleString('en-US')})` : ''}{' '}
        {queue.full ? <span className="badge badge-deny">Queue full</span> : null}
      </p>
      {queue.full && queue.limit !== null ? (
        <p className="small">{queueFullWords(queue.waiting, queue.limit)}</p>
      ) : null}
      <button
        type="button"
        className="button button-small button-danger-soft"
        onClick={() => setConfirm(true)}
        aria-label={`${discardAll} of ${label}`}
      >
        <Trash2 aria-hidden="true" size={14} /> {discardAll}…
      </button>
      <ConfirmDialog
        open={confirm}
        title={`Discard ${queue.waiting === 1 ? 'the waiting run' : `all ${queue.waiting} waiting runs`} of ${label}?`}
        confirmLabel="Discard"
        busy={discard.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() => discard.mutate({ triggerId: queue.trigger }, { onSuccess: () => setConfirm(false) })}
      >
        <p>
          No agent runtime will take {queue.waiting === 1 ? 'it' : 'them'}: what fired them is not run. This is recorded
          in the activity record. The trigger stays as it is.
        </p>
        {discard.isError ? <ErrorPanel error={discard.error} title="The runs were not discarded" /> : null}
      </ConfirmDialog>
    </li>
  );
}

/** One waiting run: when, which trigger, whom it starts, why, the payload's type (never its body); Discard. */
function RunRow({ run }: { run: WaitingRunView }) {
  const discard = useDiscardWaitingRun();
  const [confirm, setConfirm] = useState(false);
  const label = triggerLabel(run);
  const queued = when(run.firedAt);
  return (
    <li className="row row-block">
      <p>
        <time data-volatile dateTime={run.firedAt} className="small muted">
          {queued}
        </time>{' '}
        <strong>
          <PackageText text={label} />
        </strong>{' '}
        → <PackageText text={startsWords(run, run.target)} />
      </p>
      {run.unreadable ? (
        <p className="small">
          <span className="badge badge-deny">Unreadable</span> This run file could not be read:{' '}
          <PackageText text={run.unreadable} />. It can still be discarded.
        </p>
      ) : (
        <p className="small">
          Why: {run.cause ? RUN_CAUSE_WORDS[run.cause] : 'not said'}
          {run.payloadType !== null ? (
            <>
              {' '}
              · Payload type:{' '}
              <code>
                <PackageText text={run.payloadType} />
              </code>
            </>
          ) : run.hasPayload ? (
            ' · A payload without a type'
          ) : null}
        </p>
      )}
      <button
        type="button"
        className="button button-small"
        onClick={() => setConfirm(true)}
        aria-label={`Discard the run of ${label} queued ${queued}`}
      >
        Discard…
      </button>
      <ConfirmDialog
        open={confirm}
        title={`Discard this run of ${label}?`}
        confirmLabel="Discard"
        busy={discard.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() => discard.mutate({ runId: run.id }, { onSuccess: () => setConfirm(false) })}
      >
        <p>
          Queued <time dateTime={run.firedAt}>{queued}</time>. No agent runtime will take it. This is recorded in the
          activity record.
        </p>
        {discard.isError ? <ErrorPanel error={discard.error} title="The run was not discarded" /> : null}
      </ConfirmDialog>
    </li>
  );
}

/**
 * The Runs view: what waits in `runs/pending/` for an agent runtime (this app runs none), oldest first, every
 * trigger's or one trigger's; a full queue said; one run or all of a trigger's discarded, each with a confirmation.
 */
export function RunsScreen() {
  const trigger = useFlowStore((s) => s.runsTrigger);
  const showRuns = useFlowStore((s) => s.showRuns);
  const show = useFlowStore((s) => s.show);
  const runs = useWaitingRuns(trigger);
  const view = runs.data;
  const only = trigger === null ? null : (view?.triggers[0] ?? null);
  const onlyLabel = trigger === null ? null : only ? triggerLabel(only) : trigger;
  return (
    <div className="screen">
      <h1>Runs waiting</h1>
      <p>
        <button type="button" className="link-button" onClick={() => show('dashboard')}>
          <ArrowLeft aria-hidden="true" size={14} /> Back to the dashboard
        </button>
      </p>
      <p className="muted">
        <Hourglass aria-hidden="true" size={16} /> {FIRE_QUEUES_WORDS} Only when each was queued, by which trigger, for
        whom and why are shown here, and a webhook payload’s type: never its body.
      </p>
      {onlyLabel !== null ? (
        <p>
          Showing the runs of <PackageText text={onlyLabel} /> only.{' '}
          <button type="button" className="link-button link-inline" onClick={() => showRuns(null)}>
            Show every trigger’s
          </button>
        </p>
      ) : null}
      {runs.isPending ? <Loading label="Loading the runs waiting…" /> : null}
      {runs.isError ? <ErrorPanel error={runs.error} title="The runs waiting could not be loaded" /> : null}
      {view ? (
        view.total === 0 ? (
          <p role="status">No run is waiting{onlyLabel !== null ? ' for this trigger' : ''}.</p>
        ) : (
          <>
            <section aria-labelledby="runs-by-trigger">
              <h2 id="runs-by-trigger">By trigger</h2>
              <ul className="rows">
                {view.triggers.map((queue) => (
                  <TriggerQueueRow key={queue.trigger} queue={queue} />
                ))}
              </ul>
            </section>
            <section aria-labelledby="runs-oldest-first">
              <h2 id="runs-oldest-first">Oldest first</h2>
              <ul className="rows" aria-label="Runs waiting, oldest first">
                {view.runs.map((run) => (
                  <RunRow key={run.id} run={run} />
                ))}
              </ul>
              {view.notListed > 0 ? (
                <p className="small muted">
                  And {view.notListed.toLocaleString('en-US')} more, queued later: the oldest{' '}
                  {view.runs.length.toLocaleString('en-US')} are listed.
                </p>
              ) : null}
            </section>
          </>
        )
      ) : null}
    </div>
  );
}
