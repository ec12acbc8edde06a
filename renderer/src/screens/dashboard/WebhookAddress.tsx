import { LOCAL_ONLY_WORDS, listenerOrigin, webhookAddress } from '../../../../shared/triggers/webhook-address';
import { useSettings, useTriggerStatus } from '../../../api/hooks';
import { CopyButton } from '../../components/CopyButton';

/**
 * A webhook trigger's address, shown from the moment the trigger exists, armed or not: a sender
 * needs the address before it gives its secret. The running listener's origin when there is one
 * (it may have been started on another port), else the port chosen in Settings. Who can reach it is
 * said beside it, not folded away.
 */
export function WebhookAddress({ triggerId, name, armed }: { triggerId: string; name: string; armed: boolean }) {
  const status = useTriggerStatus();
  const settings = useSettings();
  const origin =
    status.data?.running && status.data.origin
      ? status.data.origin
      : settings.data
        ? listenerOrigin(settings.data.webhookPort.port)
        : null;
  if (!origin) return null;
  const url = webhookAddress(origin, triggerId);
  return (
    <div className="webhook-address">
      <p className="small hash-row">
        Address:{' '}
        <code className="hash" data-volatile aria-label={`Webhook address of ${name}`}>
          {url}
        </code>
        <CopyButton value={url} label={`Copy the address of ${name}`} />
      </p>
      <p className="small">
        {LOCAL_ONLY_WORDS}
        {armed
          ? ''
          : ' You can give this address to your sender now: calls to it are refused until the trigger is armed with a secret.'}
      </p>
    </div>
  );
}
