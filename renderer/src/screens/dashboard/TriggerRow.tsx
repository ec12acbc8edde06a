/**
 * One trigger of an agent on the dashboard: what it is, its state, and Arm, Disarm and a webhook's secret, each
 * keeping the focus where it was pressed.
 */
import { TRIGGER_TYPE_WORDS } from '../../../../shared/words/words';
import { Lock } from 'lucide-react';
import { SetWebhookSecret, WebhookSecretOrigin } from '../../components/WebhookSecretChoice';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { TriggerView } from '../../../../shared/contract/api';
import {
  useArmTrigger,
  useDisarmTrigger,
  usePauseTrigger,
  usePickWatchFolder,
  useResumeTrigger,
  useRotateWebhookSecret,
} from '../../../api/hooks';
import { DisarmConfirm } from './DisarmConfirm';
import { CodeText } from '../../components/CodeText';
import { PackageText } from '../../components/PackageText';
import { SecretOnce } from '../../components/SecretOnce';
import { ErrorPanel } from '../../components/Status';
import { HowToSign, TriggerLive, TriggerQueue } from './TriggerLive';
import { WebhookAddress } from './WebhookAddress';
import { formatDateTime } from '../../components/date-format';

/** A trigger's row: its summary, its webhook address and secret, Pause/Resume, Disarm (asked first) or Arm, its live state and queue. */
export function TriggerRowView({ trigger }: { trigger: TriggerView }) {
  const arm = useArmTrigger();
  const disarm = useDisarmTrigger();
  const pause = usePauseTrigger();
  const resume = useResumeTrigger();
  const rotate = useRotateWebhookSecret();
  const pick = usePickWatchFolder();
  const [secret, setSecret] = useState<string | null>(null);
  const [confirmDisarm, setConfirmDisarm] = useState(false);
  // The first control of the row keeps the focus through Pause ⇄ Resume and Disarm → Arm (the same button); for a
  // webhook, which has no Arm button when off, its summary takes it.
  const first = useRef<HTMLButtonElement>(null);
  const summary = useRef<HTMLParagraphElement>(null);
  const [focusAfterDisarm, setFocusAfterDisarm] = useState(false);
  useEffect(() => {
    if (!focusAfterDisarm || trigger.armed) return;
    setFocusAfterDisarm(false);
    (first.current ?? summary.current)?.focus();
  }, [focusAfterDisarm, trigger.armed]);
  const busy =
    arm.isPending || disarm.isPending || rotate.isPending || pick.isPending || pause.isPending || resume.isPending;
  const paused = trigger.pausedAt !== null;
  const doArm = () => {
    if (trigger.type === 'file_watch') {
      pick.mutate(undefined, {
        onSuccess: (folder) => {
          if (folder) arm.mutate({ triggerId: trigger.id, folderId: folder.folderId });
        },
      });
      return;
    }
    arm.mutate({ triggerId: trigger.id }, { onSuccess: (armed) => setSecret(armed.webhookSecret) });
  };
  const doDisarm = () =>
    disarm.mutate(
      { triggerId: trigger.id },
      {
        onSuccess: () => {
          setConfirmDisarm(false);
          setFocusAfterDisarm(true);
        },
      },
    );
  const error = arm.error ?? disarm.error ?? rotate.error ?? pick.error ?? pause.error ?? resume.error;
  return (
    <li className="row row-block">
      <TriggerSummary trigger={trigger} summaryRef={summary} />
      {trigger.type === 'webhook' ? (
        <>
          {/* Armed, the address is shown with the live status below. */}
          {trigger.armed ? null : (
            <>
              <WebhookAddress triggerId={trigger.id} name={trigger.name} armed={false} />
              <HowToSign name={trigger.name} />
            </>
          )}
          <WebhookSecretOrigin origin={trigger.webhookSecretOrigin} setAt={trigger.webhookSecretSetAt} />
        </>
      ) : null}
      <TriggerButtons
        trigger={trigger}
        busy={busy}
        firstRef={first}
        onPauseOrResume={() => {
          if (paused) resume.mutate({ triggerId: trigger.id });
          else pause.mutate({ triggerId: trigger.id });
        }}
        onDisarm={() => setConfirmDisarm(true)}
        onArm={doArm}
      />
      <DisarmConfirm
        trigger={trigger}
        open={confirmDisarm && trigger.armed}
        busy={disarm.isPending}
        error={disarm.error}
        onCancel={() => setConfirmDisarm(false)}
        onConfirm={doDisarm}
        onPause={
          paused
            ? undefined
            : () => pause.mutate({ triggerId: trigger.id }, { onSuccess: () => setConfirmDisarm(false) })
        }
      />
      {trigger.type === 'webhook' && (trigger.webhookSecretSet || !trigger.armed) ? (
        <SetWebhookSecret
          triggerId={trigger.id}
          label={trigger.name}
          mode={trigger.armed ? 'rotate' : 'arm'}
          kept={trigger.armed ? (trigger.webhookSecretOrigin ?? 'made') : null}
          disabled={busy}
        />
      ) : null}
      {secret ? <SecretOnce label={trigger.name} secret={secret} /> : null}
      <TriggerLive trigger={trigger} />
      <TriggerQueue trigger={trigger} />
      {error && !confirmDisarm ? <ErrorPanel error={error} title="The trigger was not changed" /> : null}
    </li>
  );
}

/** The row's controls: Pause or Resume and Disarm… when armed (the first keeps the focus through them), else Arm. */
function TriggerButtons({
  trigger,
  busy,
  firstRef,
  onPauseOrResume,
  onDisarm,
  onArm,
}: {
  trigger: TriggerView;
  busy: boolean;
  firstRef: RefObject<HTMLButtonElement | null>;
  onPauseOrResume: () => void;
  onDisarm: () => void;
  onArm: () => void;
}) {
  const paused = trigger.pausedAt !== null;
  return (
    <div className="button-row">
      {trigger.armed ? (
        <>
          <button
            ref={firstRef}
            type="button"
            className="button button-small"
            // Resuming is a door as arming is: locked while the policy holds the trigger or its package changed.
            disabled={paused && Boolean(trigger.policy || trigger.integrity)}
            aria-disabled={busy || undefined}
            aria-label={`${paused ? 'Resume' : 'Pause'} ${trigger.name}`}
            onClick={() => {
              if (!busy) onPauseOrResume();
            }}
          >
            {paused ? 'Resume' : 'Pause'}
          </button>
          <button
            type="button"
            className="button button-small button-danger-soft"
            aria-disabled={busy || undefined}
            aria-label={`Disarm ${trigger.name}`}
            aria-haspopup="dialog"
            onClick={() => {
              if (!busy) onDisarm();
            }}
          >
            Disarm…
          </button>
        </>
      ) : trigger.type === 'webhook' ? null : (
        <button
          ref={firstRef}
          type="button"
          className="button button-small"
          disabled={Boolean(trigger.policy)}
          aria-disabled={busy || undefined}
          aria-label={`Arm ${trigger.name}`}
          onClick={() => {
            if (!busy) onArm();
          }}
        >
          {trigger.type === 'file_watch' ? 'Arm (choose a folder)…' : 'Arm'}
        </button>
      )}
    </div>
  );
}

/** What a trigger is: its name, type and state, a pause (yours, a policy's hold or integrity's), what it starts, when next, and its folder. */
function TriggerSummary({
  trigger,
  summaryRef,
}: {
  trigger: TriggerView;
  summaryRef: RefObject<HTMLParagraphElement | null>;
}) {
  return (
    <>
      <p ref={summaryRef} tabIndex={-1}>
        <strong>{trigger.name}</strong>{' '}
        <span className="muted small">({TRIGGER_TYPE_WORDS[trigger.type] ?? trigger.type})</span>{' '}
        {trigger.armed && trigger.pausedAt !== null ? (
          <span className="badge badge-neutral">Paused by you</span>
        ) : trigger.armed && trigger.policy ? (
          <span className="badge badge-neutral">Armed, held by your organization</span>
        ) : trigger.armed && trigger.integrity ? (
          <span className="badge badge-neutral">Armed, paused: its files changed</span>
        ) : trigger.armed ? (
          <span className="badge badge-armed">Armed</span>
        ) : (
          <span className="badge badge-neutral">Off</span>
        )}
      </p>
      {trigger.armed && trigger.pausedAt !== null ? (
        <p className="small">
          Paused <time dateTime={trigger.pausedAt}>{formatDateTime(trigger.pausedAt)}</time>: it does not fire.{' '}
          {pausedKeeps(trigger)} Resume it to fire again.
        </p>
      ) : null}
      {trigger.policy ? (
        <p className="small">
          <Lock aria-hidden="true" size={12} /> <PackageText text={trigger.policy} />
        </p>
      ) : null}
      {trigger.integrity ? (
        <p className="small" data-testid={`trigger-integrity-${trigger.id}`}>
          <PackageText text={trigger.integrity} />
        </p>
      ) : null}
      <p className="small">
        <CodeText text={trigger.words} />:{' '}
        {trigger.agentId !== null ? (
          'starts this agent.'
        ) : (
          <>
            starts the workflow{' '}
            <code>
              <PackageText text={trigger.target} />
            </code>
            .
          </>
        )}
      </p>
      {trigger.armed && trigger.next[0] ? (
        <p className="small">
          Next: <time dateTime={trigger.next[0]}>{formatDateTime(trigger.next[0], trigger.timezone ?? undefined)}</time>
        </p>
      ) : null}
      {trigger.type === 'file_watch' ? (
        <p className="small">
          {trigger.folder ? (
            <>
              Watched folder:{' '}
              <code>
                <PackageText text={trigger.folder} />
              </code>
            </>
          ) : (
            'No folder chosen.'
          )}
        </p>
      ) : null}
    </>
  );
}

/** What a paused trigger keeps, in words. */
function pausedKeeps(trigger: TriggerView): string {
  if (trigger.type === 'webhook') return 'Its signing secret is kept; its sender’s calls are not taken meanwhile.';
  if (trigger.type === 'file_watch') return 'Its folder is kept.';
  return 'Its schedule is kept.';
}
