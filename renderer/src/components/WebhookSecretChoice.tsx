import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import type { SecretBackend, TriggerArmed } from '../../../shared/api';
import { checkWebhookSecret, type WebhookSecretChoice as WebhookSecretRequest } from '../../../shared/webhook-secret';
import { useArmTrigger, useRotateWebhookSecret, useSettings } from '../../api/hooks';
import { formatFireTime } from './schedule';
import { SecretOnce } from './SecretOnce';
import { ErrorPanel } from './Status';

/**
 * How the user sets one webhook secret (issue 18): make a new one here, or paste the one the sender
 * gave. `touched` is set when the field is left or submitted: an untouched field is not an error.
 */
export type WebhookSecretDraft = { kind: 'make' } | { kind: 'given'; secret: string; touched: boolean };

/** The draft's problem, when it should be shown: the shared check's sentence (never the secret). */
export function webhookSecretProblem(draft: WebhookSecretDraft | undefined): string | null {
  if (draft?.kind !== 'given' || !draft.touched) return null;
  const checked = checkWebhookSecret(draft.secret);
  return checked.ok ? null : checked.message;
}

/** The request the Api takes for a draft (absent: make one). */
export function webhookSecretRequest(draft: WebhookSecretDraft | undefined): WebhookSecretRequest | undefined {
  return draft?.kind === 'given' ? { kind: 'given', secret: draft.secret } : draft ? { kind: 'make' } : undefined;
}

/** Whether a draft can be sent: a made secret always, a given one when the check accepts it. */
export function webhookSecretReady(draft: WebhookSecretDraft | undefined): boolean {
  return draft?.kind !== 'given' || checkWebhookSecret(draft.secret).ok;
}

/** Where a secret is kept, said honestly for the backend this app has (no "keychain" without one). */
const KEPT_WORDS: Record<SecretBackend, string> = {
  keychain: "It is kept encrypted with this computer's keychain.",
  file_key: 'It is kept encrypted with a key stored in a file beside the app data (secret-box.key): anyone who can read the app data folder could read it.',
  basic_text: 'This computer has no keychain Apollia can use: it is kept only obscured, with a key built into the app, in the app data folder. Anyone who can read your files could read it.',
  unavailable: 'This computer has no way to keep secrets: a webhook cannot be armed here.',
};

/**
 * The choice itself: two radio buttons, and for a given secret a password field checked as the
 * user types (inline error once the field was left). The secret is never shown back: the field is
 * a password field, and nothing echoes it.
 */
export function WebhookSecretChoice({ id, label, value, onChange }: { id: string; label: string; value: WebhookSecretDraft; onChange: (value: WebhookSecretDraft) => void }) {
  const settings = useSettings();
  const backend = settings.data?.secretBackend;
  const problem = webhookSecretProblem(value);
  const checked = value.kind === 'given' ? checkWebhookSecret(value.secret) : null;
  const note = checked?.ok ? checked.note : null;
  const fieldId = `${id}-secret`;
  return (
    <fieldset className="secret-choice">
      <legend>
        <KeyRound aria-hidden="true" size={14} /> The secret of {label}
      </legend>
      <div className="check-row">
        <input id={`${id}-make`} type="radio" name={`${id}-kind`} checked={value.kind === 'make'} onChange={() => onChange({ kind: 'make' })} />
        <label htmlFor={`${id}-make`}>Make a new secret</label>
      </div>
      <p className="hint">Made on this computer and shown to you once, to give to the program that calls this trigger.</p>
      <div className="check-row">
        <input id={`${id}-given`} type="radio" name={`${id}-kind`} checked={value.kind === 'given'} onChange={() => onChange({ kind: 'given', secret: '', touched: false })} />
        <label htmlFor={`${id}-given`}>Use the secret your sender gave you</label>
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
            onChange={(e) => onChange({ kind: 'given', secret: e.target.value, touched: value.touched || checkWebhookSecret(e.target.value).ok })}
            onBlur={() => onChange({ ...value, touched: true })}
          />
          <p id={`${fieldId}-hint`} className="hint">
            The signing secret your form tool or relay shows (Standard Webhooks). It is never shown again after it is saved.
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
      {backend ? <p className={backend === 'keychain' ? 'hint' : 'hint panel-warning'}>{KEPT_WORDS[backend]}</p> : null}
    </fieldset>
  );
}

/**
 * Arming a webhook trigger, or replacing its secret (the dashboard, a template's new webhook): the
 * choice, then one button. A made secret is shown once; a given one is only said to be kept.
 */
export function SetWebhookSecret({ triggerId, label, mode, disabled = false, buttonLabel }: { triggerId: string; label: string; mode: 'arm' | 'rotate'; disabled?: boolean; buttonLabel?: string }) {
  const arm = useArmTrigger();
  const rotate = useRotateWebhookSecret();
  const [draft, setDraft] = useState<WebhookSecretDraft>({ kind: 'make' });
  const [done, setDone] = useState<TriggerArmed | null>(null);
  const mutation = mode === 'arm' ? arm : rotate;
  const ready = webhookSecretReady(draft);
  const submit = () => {
    if (!ready) {
      setDraft(draft.kind === 'given' ? { ...draft, touched: true } : draft);
      return;
    }
    const request = { triggerId, webhookSecret: webhookSecretRequest(draft) };
    mutation.mutate(request, {
      onSuccess: (answer) => {
        setDone(answer);
        setDraft({ kind: 'make' });
      },
    });
  };
  const make = draft.kind === 'make';
  const defaultLabel = mode === 'arm' ? `Arm ${label}` : make ? `Make a new secret for ${label}` : `Use this secret for ${label}`;
  return (
    <div className="secret-set">
      {mode === 'arm' && done ? null : (
        <>
          <WebhookSecretChoice id={`set-${triggerId.replace(/[^A-Za-z0-9_-]/g, '-')}`} label={label} value={draft} onChange={setDraft} />
          <button type="button" className="button button-small" disabled={disabled || mutation.isPending} onClick={submit}>
            {buttonLabel && make ? buttonLabel : defaultLabel}
          </button>
        </>
      )}
      {done?.webhookSecret ? <SecretOnce label={label} secret={done.webhookSecret} /> : null}
      {done?.webhookSecretGiven ? (
        <p className="small" role="status">
          The secret your sender gave is kept for {label}. It will not be shown again.
        </p>
      ) : null}
      {mutation.isError ? <ErrorPanel error={mutation.error} title="The secret was not set" /> : null}
    </div>
  );
}

/** The dashboard's one line for a webhook's secret: where it came from and when it was last set (the dashboard's one date format, in this computer's zone, named). */
export function WebhookSecretOrigin({ origin, setAt }: { origin: 'made' | 'given' | null; setAt: string | null }) {
  if (!origin) return <p className="small">No secret set yet.</p>;
  const when = setAt ? new Date(setAt) : null;
  return (
    <p className="small">
      {origin === 'given' ? 'Secret given by your sender' : 'Secret made here'}
      {when ? (
        <>
          , last set <time dateTime={setAt ?? undefined}>{formatFireTime(when, Intl.DateTimeFormat().resolvedOptions().timeZone)}</time>
        </>
      ) : null}
      .
    </p>
  );
}
