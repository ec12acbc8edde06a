import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import type { SecretBackend, TriggerArmed } from '../../../shared/contract/api';
import { checkWebhookSecret } from '../../../shared/triggers/webhook-secret';
import { type WebhookSecretDraft, webhookSecretRequest } from './webhook-secret-draft';

export { type WebhookSecretDraft, webhookSecretRequest } from './webhook-secret-draft';
import { useArmTrigger, useRotateWebhookSecret, useSettings, useWebhookSecretShared } from '../../api/hooks';
import { formatFireTime } from './schedule';
import { SecretOnce } from './SecretOnce';
import { ErrorPanel } from './Status';

/** The draft's problem, when it should be shown: the shared check's sentence (never the secret). */
export function webhookSecretProblem(draft: WebhookSecretDraft | undefined): string | null {
  if (draft?.kind !== 'given' || !draft.touched) return null;
  const checked = checkWebhookSecret(draft.secret);
  return checked.ok ? null : checked.message;
}

/** What replacing a kept secret does to the sender's calls, said before it is replaced. */
export function replaceSecretWords(origin: 'made' | 'given', draft: WebhookSecretDraft): string {
  const refused = 'Calls signed with the current secret will be refused from the moment it is replaced';
  if (draft.kind === 'make')
    return `${refused}: give the new secret, shown once, to ${origin === 'given' ? 'your sender (the one it gave you stops working here)' : 'the program that calls this trigger'}.`;
  return `${refused}: your sender must sign with the one you paste here.`;
}

/** Whether a draft can be sent: a made secret always, a given one when the check accepts it. */
export function webhookSecretReady(draft: WebhookSecretDraft | undefined): boolean {
  return draft?.kind !== 'given' || checkWebhookSecret(draft.secret).ok;
}

/** Where a secret is kept, said honestly for the backend this app has (no "keychain" without one). */
const KEPT_WORDS: Record<SecretBackend, string> = {
  keychain: "It is kept encrypted with this computer's keychain.",
  file_key:
    'It is kept encrypted with a key stored in a file beside the app data (secret-box.key): anyone who can read the app data folder could read it.',
  basic_text:
    'This computer has no keychain Apollia can use: it is kept only obscured, with a key built into the app, in the app data folder. Anyone who can read your files could read it.',
  unavailable: 'This computer has no way to keep secrets: a webhook cannot be armed here.',
  pending:
    'Apollia is still waiting for this computer’s keychain (it may be asking you to unlock it): the secret is kept once it answers.',
};

/** The id of the pasted-secret field of the choice made with `id`: the form moves focus to it when the secret fails. */
export function secretFieldId(id: string): string {
  return `${id}-secret`;
}

/**
 * The choice itself: two radio buttons, and for a given secret a password field checked as the
 * user types (inline error once the field was left). The secret is never shown back: the field is
 * a password field, and nothing echoes it.
 */
export function WebhookSecretChoice({
  id,
  label,
  value,
  onChange,
  kept = null,
}: {
  id: string;
  label: string;
  value: WebhookSecretDraft;
  onChange: (value: WebhookSecretDraft) => void;
  kept?: 'made' | 'given' | null;
}) {
  const settings = useSettings();
  const backend = settings.data?.secretBackend;
  const problem = webhookSecretProblem(value);
  const checked = value.kind === 'given' ? checkWebhookSecret(value.secret) : null;
  const note = checked?.ok ? checked.note : null;
  const fieldId = secretFieldId(id);
  return (
    <fieldset className="secret-choice">
      <legend>
        <KeyRound aria-hidden="true" size={14} /> The secret of {label}
      </legend>
      {kept ? (
        <>
          <div className="check-row">
            <input
              id={`${id}-keep`}
              type="radio"
              name={`${id}-kind`}
              checked={value.kind === 'keep'}
              onChange={() => onChange({ kind: 'keep' })}
            />
            <label htmlFor={`${id}-keep`}>
              Keep its secret ({kept === 'given' ? 'the one your sender gave' : 'made on this computer'})
            </label>
          </div>
          <p className="hint">Nothing changes for the program that calls it.</p>
        </>
      ) : null}
      <div className="check-row">
        <input
          id={`${id}-make`}
          type="radio"
          name={`${id}-kind`}
          checked={value.kind === 'make'}
          onChange={() => onChange({ kind: 'make' })}
        />
        <label htmlFor={`${id}-make`}>{kept ? 'Replace it with a new secret made here' : 'Make a new secret'}</label>
      </div>
      <p className="hint">
        Made on this computer and shown to you once, to give to the program that calls this trigger.
      </p>
      <div className="check-row">
        <input
          id={`${id}-given`}
          type="radio"
          name={`${id}-kind`}
          checked={value.kind === 'given'}
          onChange={() => onChange({ kind: 'given', secret: '', touched: false })}
        />
        <label htmlFor={`${id}-given`}>
          {kept ? 'Replace it with a secret your sender gave you' : 'Use the secret your sender gave you'}
        </label>
      </div>
      {value.kind === 'given' ? (
        <div className="field">
          <label htmlFor={fieldId}>Secret from your sender (starts with whsec_)</label>
          <input
            id={fieldId}
            type="password"
            value={value.secret}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={problem !== null}
            aria-describedby={`${fieldId}-hint${problem ? ` ${fieldId}-error` : ''}${note ? ` ${fieldId}-note` : ''}`}
            onChange={(e) =>
              onChange({
                kind: 'given',
                secret: e.target.value,
                touched: value.touched || checkWebhookSecret(e.target.value).ok,
              })
            }
            onBlur={() => onChange({ ...value, touched: true })}
          />
          <p id={`${fieldId}-hint`} className="hint">
            The signing secret your form tool or relay shows (Standard Webhooks). It is never shown again after it is
            saved.
          </p>
          {problem ? (
            <p id={`${fieldId}-error`} className="hint text-error" role="alert">
              {problem}
            </p>
          ) : null}
          {note ? (
            <p id={`${fieldId}-note`} className="hint">
              {note}
            </p>
          ) : null}
        </div>
      ) : null}
      {kept && value.kind !== 'keep' ? (
        <p className="hint panel-warning" role="note">
          {replaceSecretWords(kept, value)}
        </p>
      ) : null}
      {backend ? <p className={backend === 'keychain' ? 'hint' : 'hint panel-warning'}>{KEPT_WORDS[backend]}</p> : null}
    </fieldset>
  );
}

/**
 * Arming a webhook trigger, or replacing its secret (the dashboard, a template's new webhook): the
 * choice, then one button. A made secret is shown once; a given one is only said to be kept.
 * Replacing a secret is never the default and never one click: "Keep its secret" is chosen first,
 * and a replacement asks to be confirmed, saying what happens to the sender's calls.
 */
export function SetWebhookSecret({
  triggerId,
  label,
  mode,
  disabled = false,
  buttonLabel,
  kept = null,
  onDone,
}: {
  triggerId: string;
  label: string;
  mode: 'arm' | 'rotate';
  disabled?: boolean;
  buttonLabel?: string;
  kept?: 'made' | 'given' | null;
  /** Called once the secret is set (and, for `arm`, the trigger armed): the screen says so where it counts. */
  onDone?: (answer: TriggerArmed) => void;
}) {
  const arm = useArmTrigger();
  const rotate = useRotateWebhookSecret();
  const keeping = mode === 'rotate' ? (kept ?? 'made') : null;
  const initial: WebhookSecretDraft = keeping ? { kind: 'keep' } : { kind: 'make' };
  const [draft, setDraft] = useState<WebhookSecretDraft>(initial);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<TriggerArmed | null>(null);
  const mutation = mode === 'arm' ? arm : rotate;
  const ready = draft.kind !== 'keep' && webhookSecretReady(draft);
  const send = () => {
    const request = { triggerId, webhookSecret: webhookSecretRequest(draft) };
    setConfirming(false);
    mutation.mutate(request, {
      onSuccess: (answer) => {
        setDone(answer);
        setDraft(initial);
        onDone?.(answer);
      },
    });
  };
  const submit = () => {
    if (!ready) {
      setDraft(draft.kind === 'given' ? { ...draft, touched: true } : draft);
      return;
    }
    if (keeping) setConfirming(true);
    else send();
  };
  const make = draft.kind === 'make';
  const defaultLabel =
    mode === 'arm' ? `Arm ${label}` : make ? `Replace the secret of ${label}…` : `Use this secret for ${label}…`;
  const fieldsetId = `set-${triggerId.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  return (
    <div className="secret-set">
      {mode === 'arm' && done ? null : (
        <>
          <WebhookSecretChoice
            id={fieldsetId}
            label={label}
            value={draft}
            kept={keeping}
            onChange={(value) => {
              setConfirming(false);
              setDraft(value);
            }}
          />
          {draft.kind === 'keep' ? null : (
            <button
              type="button"
              className="button button-small"
              disabled={disabled || mutation.isPending || confirming}
              onClick={submit}
            >
              {buttonLabel && make ? buttonLabel : defaultLabel}
            </button>
          )}
          {confirming && keeping ? (
            <div className="panel panel-warning" role="alertdialog" aria-labelledby={`${fieldsetId}-confirm`}>
              <p id={`${fieldsetId}-confirm`}>
                <strong>Replace the secret of {label}?</strong> {replaceSecretWords(keeping, draft)}
              </p>
              <div className="button-row">
                <button
                  type="button"
                  className="button button-small button-danger"
                  onClick={send}
                  disabled={mutation.isPending}
                >
                  Replace the secret
                </button>
                <button type="button" className="button button-small" onClick={() => setConfirming(false)}>
                  Keep the current secret
                </button>
              </div>
            </div>
          ) : null}
        </>
      )}
      {done?.webhookSecret ? <SecretOnce label={label} secret={done.webhookSecret} /> : null}
      {done?.webhookSecretGiven ? (
        <p className="small" role="status">
          The secret your sender gave is kept for {label}. It will not be shown again.
        </p>
      ) : null}
      {done?.webhookSecretSharedWarning ? (
        <SharedSecretWarning label={label} warning={done.webhookSecretSharedWarning} />
      ) : null}
      {mutation.isError ? <ErrorPanel error={mutation.error} title="The secret was not set" /> : null}
    </div>
  );
}

/**
 * The dashboard's one line for a webhook's secret: where it came from and when it was last set (the dashboard's one
 * date format, in this computer's zone, named).
 */
export function WebhookSecretOrigin({ origin, setAt }: { origin: 'made' | 'given' | null; setAt: string | null }) {
  if (!origin)
    return (
      <p className="small">
        No secret set yet: set the one your sender gives you below, or make one here, whenever you are ready. Setting it
        arms the trigger.
      </p>
    );
  const when = setAt ? new Date(setAt) : null;
  return (
    <p className="small">
      {origin === 'given' ? 'Secret given by your sender' : 'Secret made here'}
      {when ? (
        <>
          , last set{' '}
          <time dateTime={setAt ?? undefined}>
            {formatFireTime(when, Intl.DateTimeFormat().resolvedOptions().timeZone)}
          </time>
        </>
      ) : null}
      .
    </p>
  );
}

/**
 * The secret just kept is also set on other triggers: the Api's words (what it does, naming them), beside the secret
 * it is about. Never the secret.
 */
export function SharedSecretWarning({ label, warning }: { label: string; warning: string }) {
  return (
    <p className="panel panel-warning" role="note" aria-label={`The secret of ${label} is also set on another trigger`}>
      {warning}
    </p>
  );
}

/**
 * Beside a secret being given: the warning when it is already set on another trigger, asked once the check accepts
 * it (before anything is kept).
 */
export function SharedSecretCheck({
  triggerId,
  label,
  draft,
}: {
  triggerId: string;
  label: string;
  draft: WebhookSecretDraft | undefined;
}) {
  const ready = draft?.kind === 'given' && checkWebhookSecret(draft.secret).ok;
  const shared = useWebhookSecretShared(triggerId, ready && draft?.kind === 'given' ? draft.secret : null);
  const warning = ready ? shared.data?.warning : null;
  return warning ? <SharedSecretWarning label={label} warning={warning} /> : null;
}
