import { AlertTriangle, KeyRound, Settings as SettingsIcon } from 'lucide-react';
import { harnessWords, TRIGGER_TYPE_WORDS } from '../../../../shared/words/words';
import type { ApplyPreview } from '../../../../shared/decisions/apply-preview';
import { approvalsLabel } from '../../../../shared/decisions/approvals-words';
import { templateVerdict } from '../../../../shared/decisions/template-verdict';
import { VerdictPanel } from '../../components/VerdictPanel';
import type { TemplateInspection, TemplateManifest } from '../../../../shared/manifests/template-manifest';
import { CodeText } from '../../components/CodeText';
import { RunsWaitNote } from '../../components/RunsWaitNote';
import { PackageText } from '../../components/PackageText';
import { ScheduleText } from '../../components/ScheduleText';
import { formatDateTime } from '../../components/date-format';
import { useFlowStore } from '../../stores/flow-store';
import { signatureVerdictOf, signatureVerdictWords } from '../../../../shared/trust/signature-verdict';
import { BUILTIN, UNSIGNED } from '../../../../shared/trust/trust';

/** A required MCP server this computer lacks: named, with the way to Settings (the form keeps its answers). */
function MissingServers({ servers }: { servers: ApplyPreview['mcp'] }) {
  const askForServer = useFlowStore((s) => s.askForServer);
  if (servers.length === 0) return null;
  return (
    <section className="panel panel-warning" aria-labelledby="tpl-missing-required">
      <h3 id="tpl-missing-required">It needs something this computer does not have yet</h3>
      <ul>
        {servers.map((server) => (
          <li key={server.server}>
            The MCP server <code>{server.server}</code> is required: it cannot be applied until a server is saved under
            that name in Settings → MCP servers.
          </li>
        ))}
      </ul>
      <div className="button-row">
        {servers.map((server) => (
          <button
            key={server.server}
            type="button"
            className="button button-small"
            onClick={() => askForServer(server.server)}
          >
            <SettingsIcon aria-hidden="true" size={14} /> Save {server.server} in Settings → MCP servers
          </button>
        ))}
        <span className="small">This form keeps your answers, and Settings offers the way back.</span>
      </div>
    </section>
  );
}

/** Who the template is from: its author as written, then the one signature verdict (shipped with the app, or not). */
function AuthorFact({ manifest, builtin }: { manifest: TemplateManifest; builtin: boolean }) {
  const publisher = signatureVerdictWords(signatureVerdictOf(builtin ? BUILTIN : UNSIGNED, null));
  return (
    <dd>
      {manifest.author ? <PackageText text={manifest.author.name} /> : <span className="muted">Not given</span>}{' '}
      <span
        className={`badge ${publisher.tone === 'allow' ? 'badge-allow' : 'badge-warning-soft'}`}
        data-publisher-state={publisher.state}
      >
        {publisher.label}
      </span>
      <span className="small muted block">{publisher.explanation}</span>
      {manifest.author?.url ? (
        <span className="small muted block">
          <PackageText text={manifest.author.url} />
        </span>
      ) : null}
    </dd>
  );
}

/** The model the template asks for (tier, preferred model, effort, harness), or the app's default. */
function ModelFact({ manifest }: { manifest: TemplateManifest }) {
  return (
    <dd>
      {manifest.model ? (
        <>
          {manifest.model.tier} tier
          {manifest.model.prefer ? (
            <>
              {' '}
              (prefers <PackageText text={manifest.model.prefer} />)
            </>
          ) : null}
        </>
      ) : (
        "This app's default"
      )}
      {manifest.effort ? `, ${manifest.effort} effort` : ''}
      {manifest.harness && manifest.harness.length > 0 ? (
        <>
          . <PackageText text={harnessWords(manifest.harness)} />
        </>
      ) : null}
    </dd>
  );
}

/** The approvals the template recommends; the person chooses on the Access step. */
function ApprovalsFact({ manifest }: { manifest: TemplateManifest }) {
  const approvals = manifest.approvals ?? 'ask';
  return (
    <dd>
      The template recommends: <strong>{approvalsLabel(approvals)}</strong>
      {approvals === 'never' ? (
        <span className="text-warning block">
          <AlertTriangle aria-hidden="true" size={14} /> Unattended, the tools it is given run without asking you; a
          pinned tool runs only as pinned.
        </span>
      ) : null}
      <span className="small muted block">
        You choose on the Access step. Tools you never allow and pins hold either way.
      </span>
    </dd>
  );
}

/** What the template is: its facts, with the agent's display name filled live from the parameters. */
function TemplateFacts({
  manifest,
  displayName,
  builtin,
}: {
  manifest: TemplateManifest;
  displayName: string;
  builtin: boolean;
}) {
  return (
    <dl className="facts facts-wide">
      <dt>Agent name</dt>
      <dd>
        <strong>
          <PackageText text={displayName} />
        </strong>
      </dd>
      <dt>Template</dt>
      <dd>
        <PackageText text={manifest.name} /> version <PackageText text={manifest.version} />
      </dd>
      <dt>What it does</dt>
      <dd>
        <PackageText text={manifest.description} multiline />
      </dd>
      <dt>Author</dt>
      <AuthorFact manifest={manifest} builtin={builtin} />
      {manifest.license ? (
        <>
          <dt>License</dt>
          <dd>
            <PackageText text={manifest.license} />
          </dd>
        </>
      ) : null}
      {manifest.repository ? (
        <>
          <dt>Repository</dt>
          <dd>
            <code>
              <PackageText text={manifest.repository} />
            </code>
          </dd>
        </>
      ) : null}
      <dt>Model</dt>
      <ModelFact manifest={manifest} />
      <dt>Budget per run</dt>
      <dd>{manifest.budget ? `$${manifest.budget.per_run_usd} at most per run` : 'No cap set by the template'}</dd>
      <dt>Learning</dt>
      <dd>{manifest.learning ? 'Its runs learn: it keeps notes between runs' : 'Its runs do not learn'}</dd>
      <dt>Approvals</dt>
      <ApprovalsFact manifest={manifest} />
    </dl>
  );
}

/**
 * Overview: first the verdict (the worst the agent could do, its level and the
 * facts behind it), then what the template is, its display name filled live from the parameters, who it is
 * from (the one signature verdict: shipped with the app, or not signed), and a required MCP server this computer
 * lacks, shown here first rather than at Review.
 */
export function TemplateOverview({
  inspection,
  displayName,
  builtin,
  preview,
}: {
  inspection: TemplateInspection;
  displayName: string;
  builtin: boolean;
  preview: ApplyPreview | null;
}) {
  const manifest = inspection.details?.manifest;
  if (!manifest) return null;
  const missingRequired = (preview?.mcp ?? []).filter((server) => server.required && !server.saved);
  return (
    <div className="step-body">
      <VerdictPanel verdict={templateVerdict(manifest)} />
      <MissingServers servers={missingRequired} />
      <TemplateFacts manifest={manifest} displayName={displayName} builtin={builtin} />
      <TemplateTexts details={inspection.details} />
    </div>
  );
}

/**
 * What the agent will be told: its instructions, skills and rules, exactly as the template wrote
 * them. Shown as plain text (never rendered as Markdown or HTML: no markup runs, no image loads, no
 * link is followed), each behind a disclosure so the Overview stays short.
 */
function TemplateTexts({ details }: { details: TemplateInspection['details'] }) {
  if (!details) return null;
  return (
    <section aria-labelledby="template-texts-heading" className="panel">
      <h3 id="template-texts-heading">What the agent will be told</h3>
      <p className="small muted">
        As the template wrote it; <code>{'${parameters.…}'}</code> parts are filled from the parameters you give.
      </p>
      <details className="template-text">
        <summary>Instructions</summary>
        <pre className="template-text-body">
          <PackageText text={details.body} max={20_000} multiline />
        </pre>
      </details>
      {details.skills.map((skill) => (
        <details key={skill.name} className="template-text">
          <summary>
            Skill{' '}
            <code>
              <PackageText text={skill.name} />
            </code>
            : <PackageText text={skill.description} />
          </summary>
          <pre className="template-text-body">
            <PackageText text={skill.body} max={20_000} multiline />
          </pre>
        </details>
      ))}
      {details.rules.map((rule) => (
        <details key={rule.file} className="template-text">
          <summary>
            Rule{' '}
            <code>
              <PackageText text={rule.file} />
            </code>
          </summary>
          <pre className="template-text-body">
            <PackageText text={rule.body} max={20_000} multiline />
          </pre>
        </details>
      ))}
    </section>
  );
}

/**
 * Triggers: schedules in words in their zone with next three times, each armed only if ticked
 * (one rule for arming); webhooks are armed after apply, with their secret.
 */
export function TemplateTriggers({
  preview,
  armed,
  onArm,
}: {
  preview: ApplyPreview;
  armed: string[];
  onArm: (trigger: string, armed: boolean) => void;
}) {
  return (
    <div className="step-body">
      {preview.triggers.length === 0 ? (
        <p className="muted">
          This template makes no triggers: it runs only when an agent runtime on this computer is asked to run it
          (Apollia Desktop runs no agent).
        </p>
      ) : (
        <>
          <p>
            Triggers are made with the agent, off until you arm them. Tick one to arm it now; you can arm or disarm any
            of them later on the dashboard.
          </p>
          <RunsWaitNote />
        </>
      )}
      <ul className="rows">
        {preview.triggers.map((trigger) => (
          <li key={trigger.name} className="row row-block card">
            <h3 className="h4">
              Trigger{' '}
              <code>
                <PackageText text={trigger.name} />
              </code>{' '}
              <span className="muted small">({TRIGGER_TYPE_WORDS[trigger.type] ?? trigger.type})</span>
            </h3>
            {trigger.type !== 'webhook' ? (
              <div className="switch-row">
                <input
                  id={`arm-${trigger.name}`}
                  type="checkbox"
                  checked={armed.includes(trigger.name)}
                  disabled={Boolean(trigger.error)}
                  onChange={(e) => onArm(trigger.name, e.target.checked)}
                />
                <label htmlFor={`arm-${trigger.name}`}>
                  Arm <code>{trigger.name}</code> when the agent is made
                </label>
              </div>
            ) : null}
            {trigger.type === 'schedule' || trigger.type === 'at' ? (
              <ScheduleText
                view={{
                  words:
                    trigger.type === 'at'
                      ? `Once, at ${trigger.at ? formatDateTime(trigger.at, trigger.timezone ?? 'UTC') : ''}`
                      : (trigger.words ?? trigger.cron ?? ''),
                  next: trigger.next.map((iso) => new Date(iso)),
                  timezone: trigger.timezone ?? 'UTC',
                }}
              />
            ) : null}
            {trigger.type === 'webhook' ? (
              <p>
                <KeyRound aria-hidden="true" size={14} /> When another program calls its web address
                {trigger.events && trigger.events.length > 0 ? (
                  <> with an event of type {trigger.events.join(', ')}</>
                ) : null}
                {trigger.max_concurrent ? `, at most ${trigger.max_concurrent} runs at once` : ''}. It stays off after
                apply, until you set its secret there: made on this computer and shown to you once, or the one your
                sender gave you.
              </p>
            ) : null}
            {trigger.input ? (
              <p className="small">
                Message: “<PackageText text={trigger.input} multiline />”
              </p>
            ) : null}
            {trigger.error ? (
              <p className="small text-error" role="alert">
                <CodeText text={trigger.error} />
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
