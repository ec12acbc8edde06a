import { Hourglass } from 'lucide-react';
import { FIRE_QUEUES_WORDS, runTaking, runTakingWords } from '../../../shared/triggers/run-queue';
import { useTriggerStatus } from '../../api/hooks';
import { formatDateTime } from './date-format';

/**
 * What a fire does, said wherever a trigger is armed, before the first fire: it queues a run that
 * waits until an agent runtime takes it (this app runs no agent), and whether one is taking runs
 * now, from the age of the oldest waiting run (shared/triggers/run-queue.ts).
 */
export function RunsWaitNote() {
  const status = useTriggerStatus();
  const pending = status.data?.pending;
  const taking = pending ? runTaking(pending, new Date()) : null;
  return (
    <div className="panel panel-info runs-wait" role="note" aria-label="What a fire does">
      <p>
        <Hourglass aria-hidden="true" size={16} /> {FIRE_QUEUES_WORDS}
      </p>
      {pending && taking ? (
        <p className="small">
          {runTakingWords(taking, pending.total)}
          {taking !== 'nothing_waiting' && pending.oldest ? (
            <>
              {' '}
              The oldest was queued{' '}
              <time data-volatile dateTime={pending.oldest}>
                {formatDateTime(pending.oldest)}
              </time>
              .
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
