/**
 * Disarm asks first (DESIGN.md "Triggers at run time": disarmed is off, a webhook's secret deleted,
 * a folder forgotten; only the person disarms): the dialog says what disarming deletes for this trigger and offers
 * Pause, which keeps both, as the gentler way out.
 */
import type { TriggerView } from '../../../../shared/contract/api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PackageText } from '../../components/PackageText';
import { ErrorPanel } from '../../components/Status';

/** What disarming `trigger` deletes, one line each; empty for a schedule (nothing is deleted but the arming). */
export function disarmDeletes(trigger: TriggerView): string[] {
  const lines: string[] = [];
  if (trigger.type === 'webhook' && trigger.webhookSecretSet)
    lines.push(
      trigger.webhookSecretOrigin === 'given'
        ? 'the signing secret your sender gave: their calls are refused from then on, and arming it again needs a secret again'
        : 'the signing secret made here: your sender’s calls are refused from then on, and arming it again makes a new one you must give them',
    );
  if (trigger.type === 'file_watch' && trigger.folder)
    lines.push(`the watched folder choice (${trigger.folder}): arming it again asks for a folder`);
  return lines;
}

export function DisarmConfirm({
  trigger,
  open,
  busy,
  error,
  onCancel,
  onConfirm,
  onPause,
}: {
  trigger: TriggerView;
  open: boolean;
  busy: boolean;
  error: Error | null;
  onCancel: () => void;
  onConfirm: () => void;
  /** Absent when it is paused already. */
  onPause: (() => void) | undefined;
}) {
  const deletes = disarmDeletes(trigger);
  return (
    <ConfirmDialog
      open={open}
      title={`Disarm ${trigger.name}?`}
      confirmLabel="Disarm"
      busy={busy}
      onCancel={onCancel}
      onConfirm={onConfirm}
      {...(onPause ? { secondary: { label: 'Pause instead', onClick: onPause } } : {})}
    >
      <p>It stops firing and is turned off.</p>
      {deletes.length > 0 ? (
        <>
          <p>Disarming deletes:</p>
          <ul>
            {deletes.map((line) => (
              <li key={line}>
                <PackageText text={line} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p>
        {onPause
          ? 'To stop it for a while and keep everything, pause it instead: Resume makes it fire again as it was.'
          : 'It is paused now: pausing already keeps everything, and Resume makes it fire again as it was.'}
      </p>
      {error ? <ErrorPanel error={error} title="The trigger was not disarmed" /> : null}
    </ConfirmDialog>
  );
}
