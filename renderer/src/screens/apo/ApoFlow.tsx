import { CheckCircle2, Info } from 'lucide-react';
import { Fragment, useEffect, useRef, useState } from 'react';
import type { InstallReceipt, SourceInspection } from '../../../../shared/contract/api';
import type { ApoInspection } from '../../../../shared/manifests/inspection';
import type { UpdateDiff } from '../../../../shared/decisions/update-diff';
import { RunsWaitNote } from '../../components/RunsWaitNote';
import { PackageText } from '../../components/PackageText';
import { SecretOnce } from '../../components/SecretOnce';
import { SharedSecretWarning } from '../../components/WebhookSecretChoice';
import { WebhookAddress } from '../dashboard/WebhookAddress';
import { triggerName } from '../../components/trigger-name';
import { useRefuseKeyChange } from '../../../api/hooks';
import { useFlowStore, useMarkFinished } from '../../stores/flow-store';
import { useConsentStore } from '../../stores/consent-store';
import { ApoConsentWizard } from './ApoConsentWizard';
import { KeyChangeStop } from '../../components/trust/KeyChangeStop';
import { RefusedScreen } from '../RefusedScreen';

/** After install: what was done, and each webhook secret shown once. */
function InstalledScreen({
  receipt,
  sourceId,
  publisherChange,
}: {
  receipt: InstallReceipt;
  sourceId: string;
  /** The publisher's old and new names when this update changed them. */
  publisherChange: UpdateDiff['publisher'];
}) {
  const closeSource = useFlowStore((s) => s.closeSource);
  useMarkFinished(sourceId, 'done');
  const verb =
    receipt.outcome === 'updated' ? 'updated' : receipt.outcome === 'downgraded' ? 'downgraded' : 'installed';
  // Focus moves to the new screen's heading: Install's button is gone, focus must not drop to the page.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const webhooks = [
    ...receipt.webhookSecrets.map((secret) => secret.triggerId),
    ...receipt.webhookSecretsGiven.map((given) => given.triggerId),
  ];
  return (
    <div className="screen">
      <h1 tabIndex={-1} ref={heading}>
        <CheckCircle2 aria-hidden="true" size={24} /> {receipt.name} {receipt.version} is {verb}
      </h1>
      <p role="status">
        {receipt.previousVersion ? `It replaced version ${receipt.previousVersion}. ` : ''}
        {receipt.armed.length === 0
          ? 'No trigger is armed.'
          : `Armed triggers: ${receipt.armed.map(triggerName).join(', ')}.`}
      </p>
      {publisherChange ? (
        <p className={publisherChange.comparison === 'lookalike' ? 'panel panel-error' : 'panel panel-warning'}>
          <PackageText
            text={`The publisher is now named “${publisherChange.to}” (was “${publisherChange.from}”)${
              publisherChange.comparison === 'lookalike' ? ', a name that passes for the old one' : ''
            }. Activity keeps this with the update.`}
          />
        </p>
      ) : null}
      {receipt.webhookSecrets.map((secret) => (
        <SecretOnce key={secret.triggerId} label={triggerName(secret.triggerId)} secret={secret.secret} />
      ))}
      {receipt.webhookSecretsGiven.map((given) => (
        <Fragment key={given.triggerId}>
          <p className="panel">
            The secret your sender gave is kept for {triggerName(given.triggerId)}. It will not be shown again.
          </p>
          {given.sharedWarning ? (
            <SharedSecretWarning label={triggerName(given.triggerId)} warning={given.sharedWarning} />
          ) : null}
        </Fragment>
      ))}
      {webhooks.map((id) => (
        <WebhookAddress key={id} triggerId={id} name={triggerName(id)} armed />
      ))}
      {receipt.armed.length > 0 ? <RunsWaitNote /> : null}
      <button type="button" className="button button-primary" onClick={() => closeSource(sourceId, 'dashboard')}>
        Go to the dashboard
      </button>
    </div>
  );
}

/**
 * An opened `.apo`: refused → error screen; same version → already installed; older → ask first; else the consent form.
 */
export function ApoFlow({
  inspection,
  sourceId,
  displayName,
}: {
  inspection: SourceInspection;
  sourceId: string;
  displayName: string;
}) {
  const [receipt, setReceipt] = useState<InstallReceipt | null>(null);
  // Taken when Install is pressed: once installed, the package is inspected again and is no longer an update.
  const [publisherChange, setPublisherChange] = useState<UpdateDiff['publisher']>(null);
  const [downgradeOk, setDowngradeOk] = useState(false);
  const [keyChangeOk, setKeyChangeOk] = useState(false);
  const refuse = useRefuseKeyChange();
  const closeSource = useFlowStore((s) => s.closeSource);
  const dropDraft = useConsentStore((s) => s.drop);
  const apo = inspection as SourceInspection & ApoInspection;

  if (receipt)
    return (
      <InstalledScreen
        receipt={receipt}
        sourceId={sourceId}
        publisherChange={receipt.outcome === 'installed' ? null : publisherChange}
      />
    );
  if (!inspection.ok || !apo.details || !apo.summary)
    return <RefusedScreen inspection={inspection} displayName={displayName} sourceId={sourceId} />;
  const installed = inspection.installed;
  // Trust: a changed signing key is a stop before anything else; accepted only explicitly.
  if (inspection.keyChange?.kind === 'changed' && !keyChangeOk) {
    return (
      <KeyChangeStop
        change={inspection.keyChange}
        verdict={inspection.signatureVerdict}
        packageName={apo.summary.name}
        diff={inspection.updateDiff}
        installedVersion={installed?.version ?? null}
        onAccept={() => setKeyChangeOk(true)}
        onCancel={() => refuse.mutate({ sourceId }, { onSettled: () => closeSource(sourceId) })}
      />
    );
  }
  if (installed?.relation === 'same' && !inspection.installedChanged) {
    return (
      <div className="screen">
        <h1>
          <Info aria-hidden="true" size={24} /> {apo.summary.name} {apo.summary.version} is already installed
        </h1>
        <p>
          This exact version is already on this computer. There is nothing to install. You can change what it may do on
          the dashboard.
        </p>
        <button type="button" className="button button-primary" onClick={() => closeSource(sourceId, 'dashboard')}>
          Go to the dashboard
        </button>
      </div>
    );
  }
  if (installed?.relation === 'older' && !downgradeOk) {
    return (
      <div className="screen">
        <h1>This is an older version</h1>
        <p>
          Version {installed.version} of {apo.summary.name} is installed; this file is version {apo.summary.version},
          which is older. Installing it replaces the newer version (a downgrade). Your earlier answers are kept.
        </p>
        <div className="button-row">
          {/* Keeping the newer version is the safe choice, so it is the primary one: a tab left open since an older
              file was opened never offers the downgrade as the thing to do. */}
          <button type="button" className="button button-primary" onClick={() => closeSource(sourceId)}>
            Keep version {installed.version}
          </button>
          <button type="button" className="button" onClick={() => setDowngradeOk(true)}>
            Review the downgrade
          </button>
        </div>
      </div>
    );
  }
  return (
    <ApoConsentWizard
      inspection={apo}
      sourceId={sourceId}
      allowDowngrade={installed?.relation === 'older' && downgradeOk}
      acceptKeyChange={inspection.keyChange?.kind === 'changed' && keyChangeOk}
      onInstalled={(done) => {
        dropDraft(sourceId);
        setPublisherChange(inspection.updateDiff?.publisher ?? null);
        setReceipt(done);
      }}
    />
  );
}
