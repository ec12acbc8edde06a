import { CancelConfirm } from '../../components/CancelConfirm';
import { AlertTriangle, ArrowRight, CheckCircle2, Play, Settings as SettingsIcon } from 'lucide-react';
import { SetWebhookSecret } from '../../components/WebhookSecretChoice';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { AgentView, ApplyPreviewRequest, ApplyReceipt, SourceInspection } from '../../../../shared/contract/api';
import { checkParameter, parameterValue, unanchoredPinnedWords } from '../../../../shared/decisions/apply-parameters';
import { isAnchoredPattern } from '../../../../shared/manifests/package-pattern';
import { cronProblem, isTimeZone } from '../../../../shared/triggers/cron';
import {
  fillText,
  pinnedParameters,
  soloPlaceholder,
  type ParameterValue,
  type TemplateInspection,
  type TemplateManifest,
  type TemplateParameter,
} from '../../../../shared/manifests/template-manifest';
import { useApply, useDashboard, usePreviewApply } from '../../../api/hooks';
import { PackageText } from '../../components/PackageText';
import { triggerName } from '../../components/trigger-name';
import { ErrorPanel, Loading } from '../../components/Status';
import { BackAndCancel, WizardStep } from '../../components/Steps';
import { useDebounced } from '../../components/use-debounced';
import { useApplyStore, type ApplyDraft, type FieldValue } from '../../stores/apply-store';
import { useFlowStore } from '../../stores/flow-store';
import { ParameterField } from './ParameterField';
import { RunsWaitNote } from '../../components/RunsWaitNote';
import { WebhookAddress } from '../dashboard/WebhookAddress';
import { TemplateAccess } from './TemplateAccess';
import { TemplateOverview, TemplateTriggers } from './TemplateSteps';
import { TemplateReview } from './TemplateReview';

const STEPS = ['Overview', 'Parameters', 'Access', 'Triggers', 'Review'] as const;
const HEADINGS: Record<(typeof STEPS)[number], string> = {
  Overview: 'What this template makes',
  Parameters: 'Fill in its parameters',
  Access: 'What it may use',
  Triggers: 'What would start it',
  Review: 'Review and apply',
};

/** The form's starting values: each default filled (text as typed, a switch for a boolean). */
function initialValues(parameters: Record<string, TemplateParameter>): Record<string, FieldValue> {
  return Object.fromEntries(
    Object.entries(parameters).map(([name, def]) => [
      name,
      def.type === 'boolean' && !def.enum ? def.default === true : def.default === undefined ? '' : String(def.default),
    ]),
  );
}

/** The request values: blank text left out (apply takes the default), numbers as numbers when they read as one. */
function requestValues(
  parameters: Record<string, TemplateParameter>,
  values: Record<string, FieldValue>,
): Record<string, ParameterValue> {
  const out: Record<string, ParameterValue> = {};
  for (const [name, def] of Object.entries(parameters)) {
    const value = values[name];
    if (value === undefined) continue;
    if (typeof value === 'boolean') out[name] = value;
    else if (value.trim() === '') continue;
    else if ((def.type === 'number' || def.type === 'integer') && Number.isFinite(Number(value.trim())))
      out[name] = Number(value.trim());
    else if (def.type === 'boolean' && (value === 'true' || value === 'false')) out[name] = value === 'true';
    else out[name] = value;
  }
  return out;
}

type TemplateTrigger = NonNullable<TemplateManifest['triggers']>[number];

/**
 * The schedule triggers that use a parameter as their whole `cron` or `timezone`, by parameter, in
 * the manifest's order: found once per manifest, not once per parameter and keystroke (a template
 * may hold thousands of each; linear, DESIGN.md).
 */
function schedulesByParameter(manifest: TemplateManifest | undefined): Map<string, TemplateTrigger[]> {
  const uses = new Map<string, TemplateTrigger[]>();
  for (const trigger of manifest?.triggers ?? []) {
    if (trigger.type !== 'schedule') continue;
    const names = new Set([
      soloPlaceholder(trigger.cron),
      trigger.timezone === undefined ? null : soloPlaceholder(trigger.timezone),
    ]);
    for (const name of names) {
      if (name === null) continue;
      const list = uses.get(name);
      if (list) list.push(trigger);
      else uses.set(name, [trigger]);
    }
  }
  return uses;
}

/**
 * A parameter that a schedule uses as its whole `cron` or `timezone` is checked as one while the
 * person types (spec agent.md `parameters`: "apply checks every trigger with the parameters given").
 * `triggers`: those that use it ({@link schedulesByParameter}).
 */
function scheduleProblem(
  triggers: readonly TemplateTrigger[],
  name: string,
  value: ParameterValue | null,
): string | null {
  if (typeof value !== 'string') return null;
  for (const trigger of triggers) {
    if (trigger.type !== 'schedule') continue;
    if (soloPlaceholder(trigger.cron) === name) {
      const problem = cronProblem(value);
      if (problem) return `Not a schedule this app can read: ${problem}`;
    }
    if (trigger.timezone !== undefined && soloPlaceholder(trigger.timezone) === name && !isTimeZone(value)) {
      return `\`${value}\` is not a time zone this app knows (an IANA name like Europe/Paris)`;
    }
  }
  return null;
}

/** The agents on this computer (not archived) with this display name: each apply makes a new agent (spec "Apply"). */
function sameName(agents: readonly AgentView[], displayName: string): AgentView[] {
  return agents.filter((agent) => !agent.archived && agent.displayName === displayName);
}

/** After apply: the agent made; a webhook trigger's secret made now and shown once. */
function AppliedScreen({ receipt, sourceId, armed }: { receipt: ApplyReceipt; sourceId: string; armed: string[] }) {
  const closeSource = useFlowStore((s) => s.closeSource);
  const show = useFlowStore((s) => s.show);
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
        {skipped.length === 0 ? 'is ready' : 'was made, but cannot do everything yet'}
      </h1>
      <p role="status">
        The agent was made
        {receipt.triggers.length > 0
          ? ` with ${receipt.triggers.length} ${receipt.triggers.length === 1 ? 'trigger' : 'triggers'} (${armedCount === 0 ? 'none armed: arm them on the dashboard when you want' : `${armedCount} armed`})`
          : ''}
        .
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

/** For each pinned parameter whose pattern is unanchored, what the form says beside its field. */
function patternNotesOf(manifest: TemplateManifest | undefined): Map<string, string> {
  const notes = new Map<string, string>();
  for (const [param, tools] of pinnedParameters(manifest?.mcp)) {
    const pattern = manifest?.parameters?.[param]?.pattern;
    if (pattern !== undefined && Object.hasOwn(manifest?.parameters ?? {}, param) && !isAnchoredPattern(pattern))
      notes.set(param, unanchoredPinnedWords(param, pattern, [...tools]));
  }
  return notes;
}

/** Each field's problem as the person types (its own check, then the schedules that use it whole), or null. */
function parameterErrors(
  parameters: Record<string, TemplateParameter>,
  values: Record<string, FieldValue>,
  schedules: Map<string, TemplateTrigger[]>,
): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(parameters).map(([param, def]) => {
      const raw = values[param] === false && def.type !== 'boolean' ? '' : values[param];
      return [
        param,
        checkParameter(def, raw) ?? scheduleProblem(schedules.get(param) ?? [], param, parameterValue(def, raw)),
      ];
    }),
  );
}

/** The Parameters step: one field per parameter, and the agent's name as the values make it. */
function ParametersStep({
  sourceId,
  parameters,
  values,
  errors,
  notes,
  touched,
  liveName,
}: {
  sourceId: string;
  parameters: Record<string, TemplateParameter>;
  values: Record<string, FieldValue>;
  errors: Record<string, string | null>;
  notes: Map<string, string>;
  touched: Record<string, boolean>;
  liveName: string;
}) {
  const { setValue, touch } = useApplyStore();
  return (
    <div className="step-body">
      {Object.keys(parameters).length === 0 ? <p className="muted">This template has no parameters.</p> : null}
      <p className="small muted">
        The agent will be called:{' '}
        <strong>
          <PackageText text={liveName} />
        </strong>
      </p>
      {Object.entries(parameters).map(([param, def]) => (
        <ParameterField
          key={param}
          name={param}
          def={def}
          value={values[param] ?? ''}
          error={errors[param] ?? null}
          note={notes.get(param) ?? null}
          showError={touched[param] === true}
          onChange={(value) => setValue(sourceId, param, value)}
          onBlur={() => touch(sourceId, param)}
        />
      ))}
    </div>
  );
}

/** The steps drawn from the preview (Access, Triggers, Review): what `previewApply` answers, once it has. */
function PreviewedStep({
  name,
  preview,
  sourceId,
  manifest,
  draft,
  sameNameAs,
}: {
  name: 'Access' | 'Triggers' | 'Review';
  preview: ReturnType<typeof usePreviewApply>;
  sourceId: string;
  manifest: TemplateManifest;
  draft: Pick<ApplyDraft, 'grants' | 'withhold' | 'approvals'> & { arm: string[] };
  sameNameAs: readonly AgentView[];
}) {
  const { setGrant, setArm, setWithhold, setApprovals } = useApplyStore();
  if (preview.isError)
    return <ErrorPanel error={preview.error} title="What apply would make could not be worked out" />;
  if (!preview.data) return <Loading label="Working out what apply would make…" />;
  if (name === 'Access')
    return (
      <TemplateAccess
        preview={preview.data}
        choices={{
          grants: draft.grants,
          onGrant: (gate, granted) => setGrant(sourceId, gate, granted),
          templateTools: manifest.tools ?? [],
          withhold: draft.withhold,
          onWithhold: (tool, withheld) => setWithhold(sourceId, tool, withheld),
          approvals: draft.approvals,
          onApprovals: (value) => setApprovals(sourceId, value),
          hasTriggers: (manifest.triggers ?? []).length > 0,
        }}
      />
    );
  if (name === 'Triggers')
    return (
      <TemplateTriggers
        preview={preview.data}
        armed={draft.arm}
        onArm={(trigger, armed) => setArm(sourceId, trigger, armed)}
      />
    );
  return (
    <TemplateReview
      preview={preview.data}
      armed={draft.arm}
      sameName={sameName(sameNameAs, preview.data.displayName)}
    />
  );
}

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

/** The agent's name as the values typed so far make it; a parameter not given shows as `[name]`. */
function liveNameOf(
  manifest: TemplateManifest,
  parameters: Record<string, TemplateParameter>,
  values: Record<string, FieldValue>,
): string {
  const filledValues = Object.fromEntries(
    Object.entries(parameters).map(([n, def]) => [n, parameterValue(def, values[n]) ?? undefined]),
  );
  return fillText(manifest.display_name ?? manifest.name, filledValues).replace(/\$\{parameters\.([^}]*)\}/g, '[$1]');
}

/** Whether the person chose anything: a field changed from how it started, or anything granted, withheld or armed. */
function somethingChosen(
  chosen: {
    grants: string[];
    arm: string[];
    withhold: string[];
    approvals: ApplyDraft['approvals'] | null;
    values: Record<string, FieldValue>;
  },
  start: Record<string, FieldValue>,
): boolean {
  return (
    chosen.grants.length > 0 ||
    chosen.arm.length > 0 ||
    chosen.withhold.length > 0 ||
    chosen.approvals !== null ||
    Object.entries(chosen.values).some(([param, value]) => value !== start[param])
  );
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
