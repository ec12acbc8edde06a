import { AlertTriangle, CheckCircle2, KeyRound, Settings as SettingsIcon, XCircle } from 'lucide-react';
import type { ApplyPreview, Approvals } from '../../../../shared/apply-preview';
import { approvalsLabel, builtinToolUse } from '../../../../shared/approvals-words';
import { templateVerdict } from '../../../../shared/template-verdict';
import { VerdictPanel } from '../../components/VerdictPanel';
import { ApprovalsChoiceField } from './ApprovalsChoiceField';
import { templateTool } from '../../../../shared/catalogues';
import type { TemplateInspection } from '../../../../shared/template-manifest';
import { FamilyBadge } from '../../components/FamilyBadge';
import { CodeText } from '../../components/CodeText';
import { RunsWaitNote } from '../../components/RunsWaitNote';
import { PackageText } from '../../components/PackageText';
import { ScheduleText } from '../../components/ScheduleText';
import { formatDateTime } from '../../components/date-format';
import { useFlowStore } from '../../stores/flow-store';
import { signatureVerdictOf, signatureVerdictWords } from '../../../../shared/signature-verdict';
import { BUILTIN, UNSIGNED } from '../../../../shared/trust';
import { mcpToolOutcome } from './mcp-tool-outcome';

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
  const show = useFlowStore((s) => s.show);
  const manifest = inspection.details?.manifest;
  if (!manifest) return null;
  const approvals = manifest.approvals ?? 'ask';
  const publisher = signatureVerdictWords(signatureVerdictOf(builtin ? BUILTIN : UNSIGNED, null));
  const missingRequired = (preview?.mcp ?? []).filter((server) => server.required && !server.saved);
  return (
    <div className="step-body">
      <VerdictPanel verdict={templateVerdict(manifest)} />
      {missingRequired.length > 0 ? (
        <section className="panel panel-warning" aria-labelledby="tpl-missing-required">
          <h3 id="tpl-missing-required">It needs something this computer does not have yet</h3>
          <ul>
            {missingRequired.map((server) => (
              <li key={server.server}>
                The MCP server <code>{server.server}</code> is required: it cannot be applied until a server is saved
                under that name in Settings → MCP servers.
              </li>
            ))}
          </ul>
          <button type="button" className="button button-small" onClick={() => show('settings')}>
            <SettingsIcon aria-hidden="true" size={14} /> Go to Settings → MCP servers
          </button>{' '}
          <span className="small">This form keeps your answers.</span>
        </section>
      ) : null}
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
              , harness: <PackageText text={manifest.harness.join(' then ')} />
            </>
          ) : null}
        </dd>
        <dt>Budget per run</dt>
        <dd>{manifest.budget ? `$${manifest.budget.per_run_usd} at most per run` : 'No cap set by the template'}</dd>
        <dt>Learning</dt>
        <dd>{manifest.learning ? 'Its runs learn: it keeps notes between runs' : 'Its runs do not learn'}</dd>
        <dt>Approvals</dt>
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
      </dl>
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

/** What the Access step changes: MCP grants, built-in tools left out, and the approvals choice. */
export interface TemplateAccessChoices {
  grants: string[];
  onGrant: (gateName: string, granted: boolean) => void;
  /** The template's built-in tools (agent.md `tools`), in its order. */
  templateTools: string[];
  withhold: string[];
  onWithhold: (tool: string, withheld: boolean) => void;
  /** The person's approvals choice; null keeps the template's recommendation. */
  approvals: Approvals | null;
  onApprovals: (approvals: Approvals | null) => void;
  hasTriggers: boolean;
}

/**
 * Access: how the agent asks, native tools (each can be unticked), MCP servers
 * and their tools with grants and pins, secrets.
 */
export function TemplateAccess({ preview, choices }: { preview: ApplyPreview; choices: TemplateAccessChoices }) {
  const show = useFlowStore((s) => s.show);
  const { grants, onGrant } = choices;
  // Built-in tools the owner never allows are left out of `tools`; their `grants.<tool>` warnings name them.
  const deniedNative = preview.warnings
    .filter((w) => w.code.startsWith('grants.') && !w.code.startsWith('grants.mcp:'))
    .map((w) => w.code.slice('grants.'.length));
  const offered = choices.templateTools.filter((tool) => !deniedNative.includes(tool));
  const chosenApprovals = choices.approvals ?? preview.approvals.recommended;
  return (
    <div className="step-body">
      <ApprovalsChoiceField
        recommended={preview.approvals.recommended}
        chosen={chosenApprovals}
        hasTriggers={choices.hasTriggers}
        onChoose={(value) => choices.onApprovals(value === preview.approvals.recommended ? null : value)}
      />
      <section aria-labelledby="tpl-tools">
        <h3 id="tpl-tools">Built-in tools</h3>
        {choices.templateTools.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <p className="small muted">
            Ticked: the agent gets it and {builtinToolUse(chosenApprovals, 'it')}. Untick one to leave it out: the agent
            gets it denied, and you can allow it later on the dashboard.
          </p>
        )}
        {deniedNative.length > 0 ? (
          <ul className="rows" aria-label="Tools left out">
            {deniedNative.map((tool) => (
              <li key={tool} className="row">
                <code>
                  <PackageText text={tool} />
                </code>{' '}
                <span className="badge badge-deny">Denied in your Settings</span>{' '}
                <span className="small muted">You never allow it: the agent does not get it.</span>
              </li>
            ))}
          </ul>
        ) : null}
        <ul className="rows">
          {offered.map((tool) => {
            const known = templateTool(tool);
            const id = `give-${tool}`;
            const given = !choices.withhold.includes(tool);
            return (
              <li key={tool} className="row row-block">
                <div className="switch-row">
                  <input
                    id={id}
                    type="checkbox"
                    checked={given}
                    onChange={(e) => choices.onWithhold(tool, !e.target.checked)}
                  />
                  <label htmlFor={id}>
                    {known?.description ? <PackageText text={known.description} /> : null}{' '}
                    <code>
                      <PackageText text={tool} />
                    </code>
                  </label>
                  <FamilyBadge family={known?.family ?? 'unknown'} />
                  {given ? null : <span className="badge badge-neutral">Left out</span>}
                </div>
              </li>
            );
          })}
        </ul>
      </section>
      <section aria-labelledby="tpl-mcp">
        <h3 id="tpl-mcp">MCP servers</h3>
        {preview.mcp.length === 0 ? <p className="muted">None.</p> : null}
        {preview.mcp.map((server) => (
          <article key={server.server} className="card card-wide" aria-labelledby={`tpl-mcp-${server.server}`}>
            <h4 id={`tpl-mcp-${server.server}`}>
              <PackageText text={server.server} />{' '}
              {server.saved ? (
                <span className="badge badge-allow">
                  <CheckCircle2 aria-hidden="true" size={12} /> Saved on this computer
                </span>
              ) : (
                <span className={`badge ${server.required ? 'badge-send_external' : 'badge-warning-soft'}`}>
                  <XCircle aria-hidden="true" size={12} /> Missing{server.required ? ' (required)' : ''}
                </span>
              )}
            </h4>
            {!server.saved ? (
              <div>
                <p className="small">
                  {server.required
                    ? 'This template cannot be applied until a server is saved under this name.'
                    : 'Without it, apply skips these tools: nothing of this server is granted.'}
                </p>
                <button type="button" className="button button-small" onClick={() => show('settings')}>
                  <SettingsIcon aria-hidden="true" size={14} /> Go to Settings → MCP servers
                </button>
              </div>
            ) : null}
            <ul className="rows">
              {server.tools.map((tool) => {
                const id = `grant-${tool.gateName}`;
                const granted = grants.includes(tool.gateName);
                const outcome = mcpToolOutcome(tool, server.saved, granted, chosenApprovals);
                return (
                  <li key={tool.gateName} className="row row-block">
                    <div className="switch-row">
                      <input
                        id={id}
                        type="checkbox"
                        role="switch"
                        checked={granted}
                        aria-checked={granted}
                        disabled={!server.saved}
                        onChange={(e) => onGrant(tool.gateName, e.target.checked)}
                      />
                      <label htmlFor={id}>
                        Allow{' '}
                        <code>
                          <PackageText text={tool.name} />
                        </code>{' '}
                        without asking
                      </label>
                      <span className={`badge badge-${outcome.badge}`}>{outcome.words}</span>
                    </div>
                    <p className="small muted">
                      The template {tool.asks === 'allow' ? 'asks you to allow it' : 'leaves it asking you first'}. Only
                      what you switch on runs without asking.
                    </p>
                    {tool.pinText ? (
                      <p className="small">
                        Pinned: <CodeText text={tool.pinText} />
                      </p>
                    ) : null}
                    {tool.ownerDenied ? (
                      <p className="small text-warning">
                        <AlertTriangle aria-hidden="true" size={14} /> Denied in your Settings:{' '}
                        <code>
                          <PackageText text={tool.gateName} />
                        </code>{' '}
                        is on your list of tools you never allow, so it stays denied even if you switch it on.{' '}
                        <button type="button" className="button button-small" onClick={() => show('settings')}>
                          <SettingsIcon aria-hidden="true" size={14} /> Go to Settings → Tools you never allow
                        </button>
                      </p>
                    ) : null}
                    {tool.pin === null && tool.pinnedBy && tool.pinnedBy.length > 0 ? (
                      <p className="small text-warning">
                        <AlertTriangle aria-hidden="true" size={14} /> Will be denied: its pin needs{' '}
                        {tool.pinnedBy.map((p) => `“${p}”`).join(', ')}, which you left empty.
                      </p>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </article>
        ))}
      </section>
      <section aria-labelledby="tpl-secrets">
        <h3 id="tpl-secrets">Secrets it needs</h3>
        {preview.secrets.length === 0 ? <p className="muted">None.</p> : null}
        <ul className="rows">
          {preview.secrets.map((secret) => (
            <li key={secret.name} className="row">
              <KeyRound aria-hidden="true" size={14} /> <code>{secret.name}</code>{' '}
              {secret.saved ? (
                <span className="badge badge-allow">Saved on this computer</span>
              ) : (
                <>
                  <span className="badge badge-send_external">Missing</span>
                  <button type="button" className="button button-small" onClick={() => show('settings')}>
                    Go to Settings → Secrets
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
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
        <p className="muted">This template makes no triggers: it runs when you start it.</p>
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
              <span className="muted small">({trigger.type})</span>
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
