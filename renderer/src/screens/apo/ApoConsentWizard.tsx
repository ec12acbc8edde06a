import { ArrowLeft, ArrowRight, Download } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { InstallReceipt, SourceInspection } from '../../../../shared/api';
import { proposedConsent, type ConsentDecision } from '../../../../shared/consent';
import type { ApoInspection } from '../../../../shared/inspection';
import { useInstall } from '../../../api/hooks';
import { PackageText } from '../../components/PackageText';
import { ErrorPanel } from '../../components/Status';
import { WizardStep } from '../../components/Steps';
import { useConsentDraft, useConsentStore, type ConsentDraft } from '../../stores/consent-store';
import { AccessStep } from './AccessStep';
import { OverviewStep } from './OverviewStep';
import { ReviewStep } from './ReviewStep';
import { TriggersStep } from './TriggersStep';
import { UpdateChanges } from './UpdateChanges';

/** The draft a form starts from: the package's proposal, or for an update the user's kept answers. */
function startingDraft(inspection: SourceInspection & ApoInspection): Partial<ConsentDraft> {
  const manifest = inspection.details?.manifest;
  const diff = inspection.updateDiff;
  const base: ConsentDecision = diff ? diff.merged : manifest ? proposedConsent(manifest) : { agents: {}, triggers: {} };
  const access: ConsentDraft['access'] = {};
  for (const [agentId, consent] of Object.entries(base.agents)) access[agentId] = { ...consent.access };
  if (diff) {
    for (const [agentId, entries] of Object.entries(diff.proposedAccess)) {
      access[agentId] = { ...access[agentId], ...Object.fromEntries(entries.map((entry) => [entry, true])) };
    }
  }
  const triggers: ConsentDraft['triggers'] = {};
  for (const [id, arming] of Object.entries(base.triggers)) triggers[id] = { arm: arming.armed, ...(arming.folderId ? { folderId: arming.folderId } : {}) };
  return { step: 0, access, triggers };
}

/** The answers the store records: every offered entry, ticked or not; triggers armed only when asked. */
export function decisionFrom(inspection: ApoInspection, draft: ConsentDraft): ConsentDecision {
  const manifest = inspection.details?.manifest;
  const agents: ConsentDecision['agents'] = {};
  for (const agent of manifest?.agents ?? []) {
    agents[agent.id] = { access: Object.fromEntries((agent.defaults?.access ?? []).map((entry) => [entry, draft.access[agent.id]?.[entry] ?? true])) };
  }
  const triggers: ConsentDecision['triggers'] = {};
  for (const trigger of manifest?.triggers ?? []) {
    const state = draft.triggers[trigger.id];
    const armed = Boolean(state?.arm) && (trigger.source.type !== 'file_watch' || Boolean(state?.folderId));
    triggers[trigger.id] = state?.folderId ? { armed, folderId: state.folderId } : { armed };
  }
  return { agents, triggers };
}

/**
 * The `.apo` consent form: one step at a time, Back and Next, focus on each step's heading.
 * For an update, a first step shows what changed; the rest is the same form with earlier answers kept.
 */
export function ApoConsentWizard({ inspection, sourceId, allowDowngrade, onInstalled }: { inspection: SourceInspection & ApoInspection; sourceId: string; allowDowngrade: boolean; onInstalled: (receipt: InstallReceipt) => void }) {
  const seed = useConsentStore((s) => s.seed);
  const setStep = useConsentStore((s) => s.setStep);
  const draft = useConsentDraft(sourceId);
  const install = useInstall();
  const installing = useRef(false);

  useEffect(() => {
    seed(sourceId, startingDraft(inspection));
  }, [seed, sourceId, inspection]);

  const isUpdate = inspection.updateDiff !== null && inspection.installed !== null;
  const steps = [...(isUpdate ? ['What changed'] : []), 'Overview', 'Access', 'Triggers', 'Review'] as const;
  const step = Math.min(draft.step, steps.length - 1);
  const name = steps[step] ?? 'Overview';
  const manifest = inspection.details?.manifest;

  const doInstall = () => {
    if (installing.current) return;
    installing.current = true;
    install.mutate(
      { sourceId, decisions: decisionFrom(inspection, draft), ...(allowDowngrade ? { allowDowngrade: true } : {}) },
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
      <h1>
        {allowDowngrade ? 'Downgrade' : isUpdate ? 'Update' : 'Install'} <PackageText text={manifest?.package.name} />
      </h1>
      <WizardStep steps={steps} current={step} label="Consent steps" heading={heading[name]}>
        {name === 'What changed' && inspection.updateDiff && inspection.installed ? <UpdateChanges diff={inspection.updateDiff} installedVersion={inspection.installed.version} /> : null}
        {name === 'Overview' ? <OverviewStep inspection={inspection} /> : null}
        {name === 'Access' ? <AccessStep inspection={inspection} sourceId={sourceId} /> : null}
        {name === 'Triggers' ? <TriggersStep inspection={inspection} sourceId={sourceId} /> : null}
        {name === 'Review' ? <ReviewStep inspection={inspection} sourceId={sourceId} /> : null}
      </WizardStep>
      {install.isError ? <ErrorPanel error={install.error} title="The package was not installed" /> : null}
      <div className="wizard-nav">
        <button type="button" className="button" disabled={step === 0 || install.isPending} onClick={() => setStep(sourceId, step - 1)}>
          <ArrowLeft aria-hidden="true" size={16} /> Back
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
