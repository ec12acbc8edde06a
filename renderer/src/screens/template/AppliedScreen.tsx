import { AlertTriangle, CheckCircle2, Settings as SettingsIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { ApplyReceipt } from '../../../../shared/contract/api';
import { PackageText } from '../../components/PackageText';
import { RunsWaitNote } from '../../components/RunsWaitNote';
import { triggerName } from '../../components/trigger-name';
import { SetWebhookSecret } from '../../components/WebhookSecretChoice';
import { useFlowStore, useMarkFinished } from '../../stores/flow-store';
import { WebhookAddress } from '../dashboard/WebhookAddress';

/** After apply: the agent made; a webhook trigger's secret made now and shown once. */
export function AppliedScreen({
  receipt,
  sourceId,
  armed,
}: {
  receipt: ApplyReceipt;
  sourceId: string;
  armed: string[];
}) {
  const closeSource = useFlowStore((s) => s.closeSource);
  const show = useFlowStore((s) => s.show);
  useMarkFinished(sourceId, 'done');
  // By name, not a search per trigger: a template may make thousands.
  const webhookNames = new Set(receipt.preview.triggers.filter((t) => t.type === 'webhook').map((t) => t.name));
  const webhooks = receipt.triggers.filter((id) => webhookNames.has(id.slice(id.lastIndexOf('/') + 1)));
  // An agent whose optional servers were skipped is made, not ready: it says what it cannot do yet.
  const skipped = receipt.preview.mcp.filter((server) => !server.saved);
  // A webhook armed here, once its secret is set, counts as armed at once: the screen never says
  // "none armed" or "needs a secret" about a trigger the person just armed.
  const [armedHere, setArmedHere] = useState<string[]>([]);
  const armedCount = armed.length + armedHere.length;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="screen">
      <h1 tabIndex={-1} ref={heading}>
        {skipped.length === 0 ? (
          <CheckCircle2 aria-hidden="true" size={24} />
        ) : (
          <AlertTriangle aria-hidden="true" size={24} />
        )}{' '}
        <PackageText text={receipt.displayName} />{' '}
        {skipped.length === 0 ? 'was made' : 'was made, but cannot do everything yet'}
      </h1>
      <p role="status">
        The agent was made
        {receipt.triggers.length > 0
          ? ` with ${receipt.triggers.length} ${receipt.triggers.length === 1 ? 'trigger' : 'triggers'} (${armedCount === 0 ? 'none armed: arm them on the dashboard when you want' : `${armedCount} armed`})`
          : ''}
        . Apollia Desktop runs no agent: it starts when an agent runtime on this computer is asked to run it
        {receipt.triggers.length > 0 ? ', or when an armed trigger queues a run that a runtime takes' : ''}.
      </p>
      {skipped.length > 0 ? (
        <section className="panel panel-warning" aria-labelledby="cannot-yet">
          <h2 id="cannot-yet">What it cannot do yet</h2>
          <ul>
            {skipped.map((server) => (
              <li key={server.server}>
                Without an MCP server saved as <code>{server.server}</code>, it cannot use{' '}
                {server.tools.map((tool, i) => (
                  <span key={tool.gateName}>
                    {i > 0 ? ', ' : ''}
                    <code>
                      <PackageText text={tool.name} />
                    </code>
                  </span>
                ))}
                . Save the server in Settings; this agent's card on the dashboard then offers to give{' '}
                {server.tools.length === 1 ? 'it' : 'them'} to it (no need to apply the template again).
              </li>
            ))}
          </ul>
          <button type="button" className="button button-small" onClick={() => show('settings')}>
            <SettingsIcon aria-hidden="true" size={14} /> Go to Settings → MCP servers
          </button>
        </section>
      ) : null}
      {armedCount > 0 ? <RunsWaitNote /> : null}
      {webhooks.map((id) => (
        <section key={id} className="panel" aria-label={`Webhook trigger ${triggerName(id)}`}>
          {armedHere.includes(id) ? (
            <p>
              The webhook trigger <code>{triggerName(id)}</code> is armed: each call to its address signed with its
              secret queues a run for the agent.
            </p>
          ) : (
            <p>
              The webhook trigger <code>{triggerName(id)}</code> is off until it has a secret. Its address is below:
              share it with your sender now or later, then make a secret here (shown to you once) or use the one your
              sender gives you.
            </p>
          )}
          <WebhookAddress triggerId={id} name={triggerName(id)} armed={armedHere.includes(id)} />
          <SetWebhookSecret
            triggerId={id}
            label={triggerName(id)}
            mode="arm"
            buttonLabel={`Make the secret for ${triggerName(id)}`}
            onDone={() => setArmedHere((now) => (now.includes(id) ? now : [...now, id]))}
          />
        </section>
      ))}
      <button type="button" className="button button-primary" onClick={() => closeSource(sourceId, 'dashboard')}>
        Go to the dashboard
      </button>
    </div>
  );
}
