import { CancelConfirm } from '../../components/CancelConfirm';
import { useOwnerDenied } from '../../components/owner-denied';
import { ArrowLeft, ArrowRight, Download, X } from 'lucide-react';
import { webhookSecretRequest } from '../../components/WebhookSecretChoice';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { InstallReceipt, SourceInspection } from '../../../../shared/api';
import { proposedConsent, type ConsentDecision } from '../../../../shared/consent';
import type { ApoInspection } from '../../../../shared/inspection';
import { ownRecord } from '../../../../shared/own-data';
import { useInstall } from '../../../api/hooks';
import { PackageText } from '../../components/PackageText';
import { ErrorPanel } from '../../components/Status';
import { WizardStep } from '../../components/Steps';
import { useConsentDraft, useConsentStore, type ConsentDraft } from '../../stores/consent-store';
import { useFlowStore } from '../../stores/flow-store';
import { AccessStep } from './AccessStep';
import { OverviewStep } from './OverviewStep';
import { ReviewStep } from './ReviewStep';
import { TriggersStep } from './TriggersStep';
import { UpdateChanges } from './UpdateChanges';
import { FirstSignedNote, KeyChangeAcceptedNote } from '../../components/trust/KeyChangeStop';

/**
 * The draft a form starts from: the package's proposal, or for an update the user's kept answers
 * with every new or widened entry unticked (`diff.merged`: nothing new is granted until ticked).
 */
export function startingDraft(inspection: SourceInspection & ApoInspection): Pick<ConsentDraft, 'step' | 'access' | 'triggers'> {
  const manifest = inspection.details?.manifest;
  const diff = inspection.updateDiff;
  const base: ConsentDecision = diff ? diff.merged : manifest ? proposedConsent(manifest) : { agents: ownRecord(), triggers: ownRecord() };
  const access: ConsentDraft['access'] = ownRecord();
  for (const [agentId, consent] of Object.entries(base.agents)) access[agentId] = { ...consent.access };
  const triggers: ConsentDraft['triggers'] = ownRecord();
  for (const [id, arming] of Object.entries(base.triggers)) triggers[id] = { arm: arming.armed, ...(arming.folderId ? { folderId: arming.folderId } : {}) };
  return { step: 0, access, triggers };
}

/** Whether the person changed any answer from where the form started (Cancel then asks nothing). */
function answersChanged(start: Pick<ConsentDraft, 'access' | 'triggers'>, draft: ConsentDraft): boolean {
  for (const [agentId, entries] of Object.entries(draft.access)) {
    for (const [entry, kept] of Object.entries(entries)) if ((start.access[agentId]?.[entry] ?? false) !== kept) return true;
  }
  for (const [id, trigger] of Object.entries(draft.triggers)) {
    const before = start.triggers[id];
    if (Boolean(before?.arm) !== Boolean(trigger.arm) || (before?.folderId ?? null) !== (trigger.folderId ?? null)) return true;
  }
  return false;
}

/** The answers the store records: every offered entry, ticked or not; triggers armed only when asked. */
export function decisionFrom(inspection: ApoInspection, draft: ConsentDraft, denied: (entry: string) => boolean = () => false): ConsentDecision {
  const manifest = inspection.details?.manifest;
  const agents: ConsentDecision['agents'] = ownRecord();
  for (const agent of manifest?.agents ?? []) {
    agents[agent.id] = { access: Object.fromEntries((agent.defaults?.access ?? []).map((entry) => [entry, !denied(entry) && (draft.access[agent.id]?.[entry] ?? true)])) };
  }
  const triggers: ConsentDecision['triggers'] = ownRecord();
  for (const trigger of manifest?.triggers ?? []) {
    const state = draft.triggers[trigger.id];
    const armed = Boolean(state?.arm) && (trigger.source.type !== 'file_watch' || Boolean(state?.folderId));
    triggers[trigger.id] = state?.folderId ? { armed, folderId: state.folderId } : { armed };
    const webhookSecret = armed && trigger.source.type === 'webhook' ? webhookSecretRequest(state?.webhookSecret) : undefined;
    if (webhookSecret) triggers[trigger.id] = { armed, webhookSecret };
  }
  return { agents, triggers };
}

/**
 * The `.apo` consent form: one step at a time, Back and Next, focus on each step's heading.
 * For an update, a first step shows what changed; the rest is the same form with earlier answers kept.
 */
export function ApoConsentWizard({ inspection, sourceId, allowDowngrade, acceptKeyChange = false, onInstalled }: { inspection: SourceInspection & ApoInspection; sourceId: string; allowDowngrade: boolean; acceptKeyChange?: boolean; onInstalled: (receipt: InstallReceipt) => void }) {
  const seed = useConsentStore((s) => s.seed);
  const setStep = useConsentStore((s) => s.setStep);
  const draft = useConsentDraft(sourceId);
  const install = useInstall();
  const installing = useRef(false);
  const denied = useOwnerDenied();
  const closeSource = useFlowStore((s) => s.closeSource);
  const dropDraft = useConsentStore((s) => s.drop);
  const start = useMemo(() => startingDraft(inspection), [inspection]);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const titleRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    seed(sourceId, start);
  }, [seed, sourceId, start]);

  // Focus moves to the new screen when a package opens, so a keyboard or screen-reader user starts at its title.
  useEffect(() => {
    titleRef.current?.focus();
  }, [sourceId]);

  const cancel = () => {
    if (!answersChanged(start, draft)) {
      dropDraft(sourceId);
      closeSource(sourceId);
      return;
    }
    setConfirmCancel(true);
  };

  const isUpdate = inspection.updateDiff !== null && inspection.installed !== null;
  const steps = [...(isUpdate ? ['What changed'] : []), 'Overview', 'Access', 'Triggers', 'Review'] as const;
  const step = Math.min(draft.step, steps.length - 1);
  const name = steps[step] ?? 'Overview';
  const manifest = inspection.details?.manifest;

  const doInstall = () => {
    if (installing.current) return;
    installing.current = true;
    install.mutate(
      { sourceId, decisions: decisionFrom(inspection, draft, denied), ...(allowDowngrade ? { allowDowngrade: true } : {}), ...(acceptKeyChange ? { acceptKeyChange: true } : {}) },
      {
        onSuccess: (receipt) => onInstalled(receipt),
        onSettled: () => {
          installing.current = false;
        },
      },
    );
  };

  const heading: Record<string, string> = {
    'What changed': allowDowngrade ? 'What changes if you go back to this version' : 'What changed since the installed version',
    Overview: 'What this package is',
    Access: 'What it asks to use',
    Triggers: 'What would start it',
    Review: 'Review and install',
  };

  return (
    <div className="screen wizard">
      <h1 ref={titleRef} tabIndex={-1}>
        {allowDowngrade ? 'Downgrade' : isUpdate ? 'Update' : 'Install'} <PackageText text={manifest?.package.name} />
      </h1>
      {inspection.keyChange?.kind === 'first_signed' ? <FirstSignedNote change={inspection.keyChange} /> : null}
      {inspection.keyChange?.kind === 'changed' && acceptKeyChange ? <KeyChangeAcceptedNote change={inspection.keyChange} /> : null}
      <WizardStep steps={steps} current={step} label="Consent steps" heading={heading[name]}>
        {name === 'What changed' && inspection.updateDiff && inspection.installed ? <UpdateChanges diff={inspection.updateDiff} installedVersion={inspection.installed.version} /> : null}
        {name === 'Overview' ? <OverviewStep inspection={inspection} /> : null}
        {name === 'Access' ? <AccessStep inspection={inspection} sourceId={sourceId} /> : null}
        {name === 'Triggers' ? <TriggersStep inspection={inspection} sourceId={sourceId} /> : null}
        {name === 'Review' ? <ReviewStep inspection={inspection} sourceId={sourceId} /> : null}
      </WizardStep>
      {install.isError ? <ErrorPanel error={install.error} title="The package was not installed" /> : null}
      {confirmCancel ? (
        <CancelConfirm
          question="Close this package and forget the answers you changed? Nothing is installed."
          closeLabel="Close without installing"
          onKeepGoing={() => setConfirmCancel(false)}
          onClose={() => {
            dropDraft(sourceId);
            closeSource(sourceId);
          }}
        />
      ) : null}
      <div className="wizard-nav">
        <button type="button" className="button" disabled={step === 0 || install.isPending} onClick={() => setStep(sourceId, step - 1)}>
          <ArrowLeft aria-hidden="true" size={16} /> Back
        </button>
        <button type="button" className="button wizard-cancel" disabled={install.isPending} onClick={cancel}>
          <X aria-hidden="true" size={16} /> Cancel
        </button>
        {step < steps.length - 1 ? (
          <button type="button" className="button button-primary" onClick={() => setStep(sourceId, step + 1)}>
            Next <ArrowRight aria-hidden="true" size={16} />
          </button>
        ) : (
          <button type="button" className="button button-primary" disabled={install.isPending} aria-disabled={install.isPending} onClick={doInstall}>
            <Download aria-hidden="true" size={16} /> {install.isPending ? 'Installing…' : allowDowngrade ? 'Install the older version' : isUpdate ? 'Install update' : 'Install'}
          </button>
        )}
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {install.isPending ? 'Installing…' : ''}
      </p>
    </div>
  );
}
