import { CancelConfirm } from '../../components/CancelConfirm';
import { ArrowRight, Play } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { AgentView, ApplyPreviewRequest, ApplyReceipt, SourceInspection } from '../../../../shared/contract/api';
import type { TemplateInspection, TemplateParameter } from '../../../../shared/manifests/template-manifest';
import { useApply, useDashboard, usePreviewApply } from '../../../api/hooks';
import { PackageText } from '../../components/PackageText';
import { ErrorPanel, Loading } from '../../components/Status';
import { BackAndCancel, WizardStep } from '../../components/Steps';
import { useDebounced } from '../../components/use-debounced';
import { useApplyStore, type ApplyDraft, type FieldValue } from '../../stores/apply-store';
import { useFlowStore } from '../../stores/flow-store';
import { AppliedScreen } from './AppliedScreen';
import { ParametersStep } from './ParametersStep';
import { PreviewedStep } from './PreviewedStep';
import { TemplateOverview } from './TemplateSteps';
import {
  initialValues,
  liveNameOf,
  parameterErrors,
  patternNotesOf,
  requestValues,
  schedulesByParameter,
  somethingChosen,
} from './template-form';

const STEPS = ['Overview', 'Parameters', 'Access', 'Triggers', 'Review'] as const;
const HEADINGS: Record<(typeof STEPS)[number], string> = {
  Overview: 'What this template makes',
  Parameters: 'Fill in its parameters',
  Access: 'What it may use',
  Triggers: 'What would start it',
  Review: 'Review and apply',
};

/**
 * Back, Cancel, and Next (held back while `wrong` names fields to fix) or, on the last step, Apply (only once the
 * preview can apply).
 */
function WizardNav({
  step,
  busy,
  wrong,
  canApply,
  onStep,
  onCancel,
  onApply,
}: {
  step: number;
  busy: boolean;
  wrong: string[];
  canApply: boolean;
  onStep: (step: number) => void;
  onCancel: () => void;
  onApply: () => void;
}) {
  const blockedNext = wrong.length > 0;
  return (
    <div className="wizard-nav">
      <BackAndCancel step={step} busy={busy} onStep={onStep} onCancel={onCancel} />
      {blockedNext ? (
        <p className="small text-error" id="next-blocked">
          To continue, fill in or fix {wrong.length === 1 ? 'this field' : `these ${wrong.length} fields`}:{' '}
          {wrong.join(', ')}.
        </p>
      ) : null}
      {step < STEPS.length - 1 ? (
        <button
          type="button"
          className="button button-primary"
          disabled={blockedNext}
          aria-describedby={blockedNext ? 'next-blocked' : undefined}
          onClick={() => onStep(step + 1)}
        >
          Next <ArrowRight aria-hidden="true" size={16} />
        </button>
      ) : (
        <button type="button" className="button button-primary" disabled={busy || !canApply} onClick={onApply}>
          <Play aria-hidden="true" size={16} /> {busy ? 'Applying…' : 'Apply'}
        </button>
      )}
    </div>
  );
}

/**
 * The preview request the form's answers make (blank text left out, lists sorted), and the preview of it once the
 * person pauses typing.
 */
function usePreviewRequest(
  sourceId: string,
  parameters: Record<string, TemplateParameter>,
  draft: ApplyDraft | undefined,
) {
  const values = draft?.values ?? initialValues(parameters);
  const grants = draft?.grants ?? [];
  const withhold = draft?.withhold ?? [];
  const approvals = draft?.approvals ?? null;
  const request: ApplyPreviewRequest = useMemo(
    () => ({
      sourceId,
      parameters: requestValues(parameters, values),
      grants: [...grants].sort(),
      ...(withhold.length > 0 ? { withhold: [...withhold].sort() } : {}),
      ...(approvals ? { approvals } : {}),
    }),
    [sourceId, parameters, values, grants, withhold, approvals],
  );
  const settled = useDebounced(request, 250);
  const preview = usePreviewApply(sourceId, settled);
  return { values, grants, withhold, approvals, request, settled, preview };
}

/** The content of the step shown: the overview, the parameter fields, or a step drawn from the preview. */
function CurrentStep({
  name,
  template,
  builtin,
  sourceId,
  liveName,
  preview,
  form,
  draft,
  sameNameAs,
}: {
  name: (typeof STEPS)[number];
  template: SourceInspection & TemplateInspection;
  builtin: boolean;
  sourceId: string;
  liveName: string;
  preview: ReturnType<typeof usePreviewApply>;
  form: {
    parameters: Record<string, TemplateParameter>;
    values: Record<string, FieldValue>;
    errors: Record<string, string | null>;
    notes: Map<string, string>;
    touched: Record<string, boolean>;
  };
  draft: Pick<ApplyDraft, 'grants' | 'withhold' | 'approvals'> & { arm: string[] };
  sameNameAs: readonly AgentView[];
}) {
  const manifest = template.details?.manifest;
  if (name === 'Overview')
    return (
      <TemplateOverview inspection={template} displayName={liveName} builtin={builtin} preview={preview.data ?? null} />
    );
  if (name === 'Parameters') return <ParametersStep sourceId={sourceId} liveName={liveName} {...form} />;
  if (!manifest) return null;
  return (
    <PreviewedStep
      name={name}
      preview={preview}
      sourceId={sourceId}
      manifest={manifest}
      draft={draft}
      sameNameAs={sameNameAs}
    />
  );
}

/** The template apply wizard: it renders exactly what `previewApply` answers, re-fetched as the form changes. */
export function TemplateFlow({
  inspection,
  sourceId,
  builtin,
}: {
  inspection: SourceInspection;
  sourceId: string;
  builtin: boolean;
}) {
  const template = inspection as SourceInspection & TemplateInspection;
  const manifest = template.details?.manifest;
  const parameters = useMemo(() => manifest?.parameters ?? {}, [manifest]);
  const schedules = useMemo(() => schedulesByParameter(manifest), [manifest]);
  // A pin's destination checked by an unanchored pattern: said beside its field.
  const patternNotes = useMemo(() => patternNotesOf(manifest), [manifest]);
  const seed = useApplyStore((s) => s.seed);
  const draft: ApplyDraft | undefined = useApplyStore((s) => s.drafts[sourceId]);
  const { setStep, drop } = useApplyStore();
  const apply = useApply();
  // The agents already here, to warn before Apply makes a second one of the same name.
  const dashboard = useDashboard();
  const applying = useRef(false);
  const [receipt, setReceipt] = useState<{ done: ApplyReceipt; armed: string[] } | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const closeSource = useFlowStore((s) => s.closeSource);
  const titleRef = useRef<HTMLHeadingElement>(null);
  // Focus moves to the new screen when a template opens: once its form is drawn.
  const drawn = draft !== undefined && manifest !== undefined;
  useEffect(() => {
    if (drawn) titleRef.current?.focus();
  }, [drawn]);

  useEffect(() => {
    seed(sourceId, initialValues(parameters));
  }, [seed, sourceId, parameters]);

  const { values, grants, withhold, approvals, request, settled, preview } = usePreviewRequest(
    sourceId,
    parameters,
    draft,
  );

  if (receipt) return <AppliedScreen receipt={receipt.done} sourceId={sourceId} armed={receipt.armed} />;
  if (!manifest || !draft) return <Loading label="Preparing the form…" />;

  const errors = parameterErrors(parameters, values, schedules);
  const wrong = Object.entries(errors)
    .filter(([, error]) => error !== null)
    .map(([name]) => name);
  const step = Math.min(draft.step, STEPS.length - 1);
  const name = STEPS[step] ?? 'Overview';
  const liveName = liveNameOf(manifest, parameters, values);
  const stale = preview.isFetching || settled !== request;
  const blockedNext = name === 'Parameters' && wrong.length > 0;

  const arm = draft.arm ?? [];
  // Cancel asks nothing when nothing was chosen (every field as it started, nothing granted or armed).
  const chosen = somethingChosen({ grants, arm, withhold, approvals, values }, initialValues(parameters));
  const close = () => {
    drop(sourceId);
    closeSource(sourceId);
  };
  const cancel = () => (chosen ? setConfirmCancel(true) : close());

  const doApply = () => {
    if (applying.current || !preview.data?.canApply || wrong.length > 0) return;
    applying.current = true;
    apply.mutate(
      { ...request, requestId: draft.requestId, ...(arm.length > 0 ? { arm: [...arm].sort() } : {}) },
      {
        onSuccess: (done) => {
          drop(sourceId);
          setReceipt({ done, armed: arm });
        },
        onSettled: () => {
          applying.current = false;
        },
      },
    );
  };

  return (
    <div className="screen wizard">
      <h1 ref={titleRef} tabIndex={-1}>
        Apply template <PackageText text={manifest.name} />
      </h1>
      <WizardStep steps={STEPS} current={step} label="Apply steps" heading={HEADINGS[name]}>
        <CurrentStep
          name={name}
          template={template}
          builtin={builtin}
          sourceId={sourceId}
          liveName={liveName}
          preview={preview}
          form={{ parameters, values, errors, notes: patternNotes, touched: draft.touched }}
          draft={{ grants, withhold, approvals, arm }}
          sameNameAs={dashboard.data?.agents ?? []}
        />
        <p className="small muted" role="status" aria-live="polite">
          {stale && name !== 'Overview' && name !== 'Parameters' ? 'Updating…' : ''}
        </p>
      </WizardStep>
      {apply.isError ? <ErrorPanel error={apply.error} title="The template was not applied" /> : null}
      {confirmCancel ? (
        <CancelConfirm
          question="Close this template and forget the answers you gave? Nothing is made."
          closeLabel="Close without applying"
          onKeepGoing={() => setConfirmCancel(false)}
          onClose={close}
        />
      ) : null}
      <WizardNav
        step={step}
        busy={apply.isPending}
        wrong={blockedNext ? wrong : []}
        canApply={!stale && preview.data?.canApply === true && wrong.length === 0}
        onStep={(to) => setStep(sourceId, to)}
        onCancel={cancel}
        onApply={doApply}
      />
    </div>
  );
}
