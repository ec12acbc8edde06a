import { Webhook } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { WEBHOOK_PORT_RANGE } from '../../../../shared/base/limits';
import type { SettingsView } from '../../../../shared/contract/api';
import { useSetWebhookPort, useTriggerStatus } from '../../../api/hooks';
import { ErrorPanel } from '../../components/Status';

/** What is wrong with a typed port, or null. The Api checks the same range (`WEBHOOK_PORT_RANGE`). */
function portProblem(text: string): string | null {
  if (!/^\d{1,5}$/.test(text)) return 'Type a port number.';
  const port = Number(text);
  return port < WEBHOOK_PORT_RANGE.min || port > WEBHOOK_PORT_RANGE.max
    ? `A port from ${WEBHOOK_PORT_RANGE.min} to ${WEBHOOK_PORT_RANGE.max}.`
    : null;
}

/**
 * Where the running trigger host really listens (`triggerStatus.origin`), said beside the setting:
 * when it is not on the port set here (a host given another port when it started, as the e2e
 * harness's is), the addresses senders must use are the live ones.
 */
function ListeningNow({ port }: { port: number }) {
  const status = useTriggerStatus();
  const origin = status.data?.running ? status.data.origin : null;
  if (!origin)
    return (
      <p className="small">
        No trigger host is listening right now: webhooks are received while the app runs with an armed webhook trigger.
      </p>
    );
  const live = Number(new URL(origin).port);
  return (
    <p className="small" role="status">
      Listening now on <code data-volatile>{origin}</code>
      {live === port ? '.' : ': not the port set here, so the webhook addresses on the dashboard use this one.'}
    </p>
  );
}

/**
 * Settings → Webhooks: the port the app receives webhook calls on (127.0.0.1 only); the running trigger host moves to
 * it.
 */
export function WebhookPortSection({ webhookPort }: { webhookPort: SettingsView['webhookPort'] }) {
  const set = useSetWebhookPort();
  const [typed, setTyped] = useState(String(webhookPort.port));
  const problem = portProblem(typed.trim());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem === null) set.mutate({ port: Number(typed.trim()) });
  };
  return (
    <section aria-labelledby="webhook-port-heading">
      <h2 id="webhook-port-heading">
        <Webhook aria-hidden="true" size={20} /> Webhooks
      </h2>
      <p className="muted">
        Armed webhook triggers are received on this computer only (<code>127.0.0.1</code>), on port{' '}
        <strong>{webhookPort.port}</strong> (
        {webhookPort.managed
          ? 'fixed by your organization: locked'
          : webhookPort.chosen
            ? 'the port you chose'
            : 'the default port'}
        ).
      </p>
      <ListeningNow port={webhookPort.port} />
      {webhookPort.managed ? null : (
        <form onSubmit={submit} className="form" aria-labelledby="webhook-port-heading">
          <div className="field">
            <label htmlFor="webhook-port">Port</label>
            <input
              id="webhook-port"
              inputMode="numeric"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              aria-invalid={problem !== null}
              aria-describedby="webhook-port-problem"
              autoComplete="off"
            />
            <p id="webhook-port-problem" className="hint text-error">
              {problem}
            </p>
          </div>
          <div className="button-row">
            <button type="submit" className="button button-primary" disabled={problem !== null || set.isPending}>
              Use this port
            </button>
            {webhookPort.chosen ? (
              <button
                type="button"
                className="button"
                disabled={set.isPending}
                onClick={() =>
                  set.mutate({ port: null }, { onSuccess: (view) => setTyped(String(view.webhookPort.port)) })
                }
              >
                Back to the default
              </button>
            ) : null}
          </div>
          <p role="status" aria-live="polite" className="small">
            {set.isSuccess ? 'Saved: webhook addresses change to the new port.' : ''}
          </p>
          {set.isError ? <ErrorPanel error={set.error} title="The port was not changed" /> : null}
        </form>
      )}
    </section>
  );
}
