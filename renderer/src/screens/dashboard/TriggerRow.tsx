/**
 * One trigger of an agent on the dashboard: what it is, its state, and Arm, Disarm and a webhook's secret, each
 * keeping the focus where it was pressed.
 */
import { TRIGGER_TYPE_WORDS } from '../../../../shared/words/words';
import { Lock } from 'lucide-react';
import { SetWebhookSecret, WebhookSecretOrigin } from '../../components/WebhookSecretChoice';
import { useState } from 'react';
import type { TriggerView } from '../../../../shared/contract/api';
import { useArmTrigger, useDisarmTrigger, usePickWatchFolder, useRotateWebhookSecret } from '../../../api/hooks';
import { CodeText } from '../../components/CodeText';
import { PackageText } from '../../components/PackageText';
import { SecretOnce } from '../../components/SecretOnce';
import { ErrorPanel } from '../../components/Status';
import { HowToSign, TriggerLive, TriggerQueue } from './TriggerLive';
import { WebhookAddress } from './WebhookAddress';
import { formatDateTime } from '../../components/date-format';

/** A trigger's row: its summary, its webhook address and secret, Arm or Disarm, its live state and queue. */
export function TriggerRowView({ trigger }: { trigger: TriggerView }) {
  const arm = useArmTrigger();
  const disarm = useDisarmTrigger();
  const rotate = useRotateWebhookSecret();
  const pick = usePickWatchFolder();
  const [secret, setSecret] = useState<string | null>(null);
  const busy = arm.isPending || disarm.isPending || rotate.isPending || pick.isPending;
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
  const error = arm.error ?? disarm.error ?? rotate.error ?? pick.error;
  return (
    <li className="row row-block">
      <TriggerSummary trigger={trigger} />
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
      <div className="button-row">
        {trigger.armed ? (
          <button
            type="button"
            className="button button-small"
            aria-disabled={busy || undefined}
            aria-label={`Disarm ${trigger.name}`}
            onClick={() => {
              if (!busy) disarm.mutate({ triggerId: trigger.id });
            }}
          >
            Disarm
          </button>
        ) : trigger.type === 'webhook' ? null : (
          <button
            type="button"
            className="button button-small"
            disabled={Boolean(trigger.policy)}
            aria-disabled={busy || undefined}
            aria-label={`Arm ${trigger.name}`}
            onClick={() => {
              if (!busy) doArm();
            }}
          >
            {trigger.type === 'file_watch' ? 'Arm (choose a folder)…' : 'Arm'}
          </button>
        )}
      </div>
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
      {error ? <ErrorPanel error={error} title="The trigger was not changed" /> : null}
    </li>
  );
}

/** What a trigger is: its name, type and state, a policy's hold or integrity's pause, what it starts, when next, and its folder. */
function TriggerSummary({ trigger }: { trigger: TriggerView }) {
  return (
    <>
      <p>
        <strong>{trigger.name}</strong>{' '}
        <span className="muted small">({TRIGGER_TYPE_WORDS[trigger.type] ?? trigger.type})</span>{' '}
        {trigger.armed && trigger.policy ? (
          <span className="badge badge-neutral">Armed, held by your organization</span>
        ) : trigger.armed && trigger.integrity ? (
          <span className="badge badge-neutral">Armed, paused: its files changed</span>
        ) : trigger.armed ? (
          <span className="badge badge-armed">Armed</span>
        ) : (
          <span className="badge badge-neutral">Off</span>
        )}
      </p>
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
