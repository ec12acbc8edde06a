import { CancelConfirm } from '../../components/CancelConfirm';
import { ArrowRight, Download } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { InstallReceipt, SourceInspection } from '../../../../shared/contract/api';
import type { ApoInspection } from '../../../../shared/manifests/inspection';
import { useInstall } from '../../../api/hooks';
import { PackageText } from '../../components/PackageText';
import { ErrorPanel } from '../../components/Status';
import { secretFieldId, webhookSecretReady } from '../../components/WebhookSecretChoice';
import { triggerControlId } from './TriggerCard';
import { BackAndCancel, WizardStep } from '../../components/Steps';
import { useConsentDraft, useConsentStore, type ConsentDraft } from '../../stores/consent-store';
import { answersFromDraft, useFormDecisions } from './consent-decisions';
import { useFlowStore } from '../../stores/flow-store';
import { AccessStep } from './AccessStep';
import { OverviewStep, PublisherLine } from './OverviewStep';
import { ReviewStep } from './ReviewStep';
import { TriggersStep } from './TriggersStep';
import { UpdateChanges } from './UpdateChanges';
import { FirstSignedNote, KeyChangeAcceptedNote } from '../../components/trust/KeyChangeStop';
import { PolicyBanner } from '../../components/PolicyBanner';

/** Whether the person touched any answer (Cancel then asks nothing): the draft holds only what they touched. */
function answersChanged(draft: ConsentDraft): boolean {
  return (
    Object.values(draft.access).some((entries) => Object.keys(entries).length > 0) ||
    Object.keys(draft.triggers).length > 0
  );
}

/**
 * The update panel with what the update keeps and turns off: decided only while this step is shown,
 * so a tick on another step does not decide the whole package again here.
 */
function DecidedUpdateChanges({
  inspection,
  sourceId,
  diff,
  installedVersion,
}: {
  inspection: SourceInspection & ApoInspection;
  sourceId: string;
  diff: NonNullable<SourceInspection['updateDiff']>;
  installedVersion: string;
}) {
  const decisions = useFormDecisions(inspection, sourceId);
  // Who signed the update, and how that stands to the key the installed version was signed with, first.
  return (
    <UpdateChanges
      diff={diff}
      installedVersion={installedVersion}
      decisions={decisions}
      signed={inspection.signatureVerdict?.signature.state === 'verified'}
      lead={
        inspection.signatureVerdict && inspection.summary ? (
          <PublisherLine publisher={inspection.summary.publisher} verdict={inspection.signatureVerdict} />
        ) : null
      }
    />
  );
}

/** The title of each step, over its body. */
function stepHeading(name: string, allowDowngrade: boolean): string | undefined {
  const heading: Record<string, string> = {
    'What changed': allowDowngrade
      ? 'What changes if you go back to this version'
      : 'What changed since the installed version',
    Overview: 'What this package is',
    Access: 'What it asks to use',
    Triggers: 'What would start it',
    Review: 'Review and install',
  };
  return heading[name];
}

/** A failed install's error, focused when it appears: the Install button's press is answered where the eye goes. */
function InstallError({ error }: { error: unknown }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), []);
  return (
    <div ref={panel} tabIndex={-1}>
      <ErrorPanel error={error} title="The package was not installed" />
    </div>
  );
}

/** Install with the answers of the draft, once at a time: a second click while one is under way does nothing. */
function useInstallAnswers({
  sourceId,
  draft,
  allowDowngrade,
  acceptKeyChange,
  onInstalled,
}: {
  sourceId: string;
  draft: ConsentDraft;
  allowDowngrade: boolean;
  acceptKeyChange: boolean;
  onInstalled: (receipt: InstallReceipt) => void;
}) {
  const install = useInstall();
  const installing = useRef(false);
  const doInstall = () => {
    if (installing.current) return;
    installing.current = true;
    install.mutate(
      {
        sourceId,
        decisions: answersFromDraft(draft),
        ...(allowDowngrade ? { allowDowngrade: true } : {}),
        ...(acceptKeyChange ? { acceptKeyChange: true } : {}),
      },
      {
        onSuccess: (receipt) => onInstalled(receipt),
        onSettled: () => {
          installing.current = false;
        },
      },
    );
  };
  return { install, doInstall };
}

/** Cancel: closes at once when no answer was touched, else asks first; `close` forgets the answers and closes. */
function useCancelConsent(sourceId: string, draft: ConsentDraft) {
  const closeSource = useFlowStore((s) => s.closeSource);
  const dropDraft = useConsentStore((s) => s.drop);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const close = () => {
    dropDraft(sourceId);
    closeSource(sourceId);
  };
  const cancel = () => {
    if (!answersChanged(draft)) {
      close();
      return;
    }
    setConfirmCancel(true);
  };
  return { confirmCancel, setConfirmCancel, cancel, close };
}

/**
 * The webhook triggers whose pasted secret does not hold (Standard Webhooks: `whsec_` then base64 of a 24–64 byte
 * key), in the form's order: Next stays on the Triggers step until each is fixed, so a bad secret is named at its
 * field and never only by Install.
 */
export function badGivenSecrets(draft: ConsentDraft): string[] {
  return Object.entries(draft.triggers)
    .filter(
      ([, trigger]) =>
        trigger.arm && trigger.webhookSecret?.kind === 'given' && !webhookSecretReady(trigger.webhookSecret),
    )
    .map(([triggerId]) => triggerId);
}

/** Back, Cancel, and Next, or on the last step the install button saying what it installs. */
function ConsentNav({
  step,
  last,
  pending,
  installLabel,
  onStep,
  onCancel,
  onInstall,
}: {
  step: number;
  last: boolean;
  pending: boolean;
  installLabel: string;
  onStep: (step: number) => void;
  onCancel: () => void;
  onInstall: () => void;
}) {
  return (
    <div className="wizard-nav">
      <BackAndCancel step={step} busy={pending} onStep={onStep} onCancel={onCancel} />
      {!last ? (
        <button type="button" className="button button-primary" onClick={() => onStep(step + 1)}>
          Next <ArrowRight aria-hidden="true" size={16} />
        </button>
      ) : (
        <button
          type="button"
          className="button button-primary"
          disabled={pending}
          aria-disabled={pending}
          onClick={onInstall}
        >
          <Download aria-hidden="true" size={16} /> {pending ? 'Installing…' : installLabel}
        </button>
      )}
    </div>
  );
}

/**
 * The `.apo` consent form: one step at a time, Back and Next, focus on each step's heading.
 * For an update, a first step shows what changed; the rest is the same form with earlier answers kept.
 */
export function ApoConsentWizard({
  inspection,
  sourceId,
  allowDowngrade,
  acceptKeyChange = false,
  onInstalled,
}: {
  inspection: SourceInspection & ApoInspection;
  sourceId: string;
  allowDowngrade: boolean;
  acceptKeyChange?: boolean;
  onInstalled: (receipt: InstallReceipt) => void;
}) {
  const seed = useConsentStore((s) => s.seed);
  const setStep = useConsentStore((s) => s.setStep);
  const setTrigger = useConsentStore((s) => s.setTrigger);
  const draft = useConsentDraft(sourceId);
  const { install, doInstall } = useInstallAnswers({ sourceId, draft, allowDowngrade, acceptKeyChange, onInstalled });
  const { confirmCancel, setConfirmCancel, cancel, close } = useCancelConsent(sourceId, draft);
  const titleRef = useRef<HTMLHeadingElement>(null);

  // The draft starts empty: every answer untouched, so the decision keeps (an update) or proposes (a first install).
  useEffect(() => {
    seed(sourceId, { step: 0 });
  }, [seed, sourceId]);

  // Focus moves to the new screen when a package opens, so a keyboard or screen-reader user starts at its title.
  useEffect(() => {
    titleRef.current?.focus();
  }, [sourceId]);

  const isUpdate = inspection.updateDiff !== null && inspection.installed !== null;
  const steps = [...(isUpdate ? ['What changed'] : []), 'Overview', 'Access', 'Triggers', 'Review'] as const;
  const step = Math.min(draft.step, steps.length - 1);
  const name = steps[step] ?? 'Overview';
  const manifest = inspection.details?.manifest;

  return (
    <div className="screen wizard">
      <h1 ref={titleRef} tabIndex={-1}>
        {allowDowngrade ? 'Downgrade' : isUpdate ? 'Update' : 'Install'} <PackageText text={manifest?.package.name} />
      </h1>
      <PolicyBanner view={inspection.policy} />
      {inspection.keyChange?.kind === 'first_signed' ? <FirstSignedNote change={inspection.keyChange} /> : null}
      {inspection.keyChange?.kind === 'changed' && acceptKeyChange ? (
        <KeyChangeAcceptedNote change={inspection.keyChange} />
      ) : null}
      <WizardStep steps={steps} current={step} label="Consent steps" heading={stepHeading(name, allowDowngrade)}>
        {name === 'What changed' && inspection.updateDiff && inspection.installed ? (
          <DecidedUpdateChanges
            inspection={inspection}
            sourceId={sourceId}
            diff={inspection.updateDiff}
            installedVersion={inspection.installed.version}
          />
        ) : null}
        {name === 'Overview' ? <OverviewStep inspection={inspection} /> : null}
        {name === 'Access' ? <AccessStep inspection={inspection} sourceId={sourceId} /> : null}
        {name === 'Triggers' ? <TriggersStep inspection={inspection} sourceId={sourceId} /> : null}
        {name === 'Review' ? <ReviewStep inspection={inspection} sourceId={sourceId} /> : null}
      </WizardStep>
      {install.isError ? <InstallError error={install.error} /> : null}
      {confirmCancel ? (
        <CancelConfirm
          question="Close this package and forget the answers you changed? Nothing is installed."
          closeLabel="Close without installing"
          onKeepGoing={() => setConfirmCancel(false)}
          onClose={close}
        />
      ) : null}
      <ConsentNav
        step={step}
        last={step >= steps.length - 1}
        pending={install.isPending}
        installLabel={allowDowngrade ? 'Install the older version' : isUpdate ? 'Install update' : 'Install'}
        onStep={(next) => {
          // Going past Triggers with a pasted secret that does not hold: stay on Triggers, its error shown, its field
          // focused.
          const triggersAt = steps.indexOf('Triggers');
          const bad = next > triggersAt ? badGivenSecrets(draft) : [];
          const first = bad[0];
          if (first === undefined) {
            setStep(sourceId, next);
            return;
          }
          setStep(sourceId, triggersAt);
          for (const triggerId of bad) {
            const trigger = draft.triggers[triggerId];
            if (trigger?.webhookSecret?.kind === 'given')
              setTrigger(sourceId, triggerId, {
                ...trigger,
                webhookSecret: { ...trigger.webhookSecret, touched: true },
              });
          }
          requestAnimationFrame(() => document.getElementById(secretFieldId(triggerControlId(first)))?.focus());
        }}
        onCancel={cancel}
        onInstall={doInstall}
      />
      <p className="visually-hidden" role="status" aria-live="polite">
        {install.isPending ? 'Installing…' : ''}
      </p>
    </div>
  );
}
