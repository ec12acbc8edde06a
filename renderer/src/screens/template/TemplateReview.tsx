import { FIRE_QUEUES_WORDS } from '../../../../shared/triggers/run-queue';
import { Settings as SettingsIcon } from 'lucide-react';
import type { AgentView } from '../../../../shared/contract/api';
import type { ApplyPreview, PreviewProblem } from '../../../../shared/decisions/apply-preview';
import { templateTool } from '../../../../shared/manifests/catalogues';
import { CodeText } from '../../components/CodeText';
import { FamilyBadge } from '../../components/FamilyBadge';
import { PackageText } from '../../components/PackageText';
import { useFlowStore } from '../../stores/flow-store';
import { APPROVALS_ALWAYS, approvalsLabel, builtinToolUse } from '../../../../shared/decisions/approvals-words';
import { mcpToolOutcome } from './mcp-tool-outcome';

/** A warning's code in plain words (spec: `mcp.<server>`, `pins.<tool>`, `grants.<tool>`). */
function warningTitle(problem: PreviewProblem): string {
  if (problem.code.startsWith('mcp.')) return 'An MCP server is not saved';
  if (problem.code.startsWith('pins.')) return 'A pinned tool will be denied';
  if (problem.code.startsWith('grants.')) return 'Denied in your Settings';
  if (problem.code.startsWith('pattern.')) return 'A pinned destination takes any value containing a match';
  return 'Note';
}

/** Review: warnings, blockers, and everything that will be granted or run. */
export function TemplateReview({
  preview,
  armed,
  sameName = [],
}: {
  preview: ApplyPreview;
  armed: string[];
  sameName?: AgentView[];
}) {
  const show = useFlowStore((s) => s.show);
  const askForServer = useFlowStore((s) => s.askForServer);
  const showAgent = useFlowStore((s) => s.showAgent);
  // What Settings can resolve (spec "Apply": missing secrets and required MCP servers are a 409).
  const missingServer = preview.mcp.find((server) => server.required && !server.saved)?.server ?? null;
  const missingSecret = preview.blockers.some((b) => b.code === 'apply.secret_missing');
  const granted = preview.mcp.flatMap((server) =>
    server.tools.filter((tool) => tool.setting === 'allow').map((tool) => tool.gateName),
  );
  return (
    <div className="step-body">
      <p>
        Applying makes the agent{' '}
        <strong>
          <PackageText text={preview.displayName} />
        </strong>{' '}
        with {preview.tools.length} {preview.tools.length === 1 ? 'tool' : 'tools'}
        {granted.length > 0
          ? `, ${granted.length} MCP ${granted.length === 1 ? 'tool' : 'tools'} allowed ${preview.approvals.chosen === 'never' ? 'without asking' : '(each still asks you first, as you chose)'}`
          : ', no MCP tool allowed without asking'}
        {preview.triggers.length > 0
          ? ` and ${preview.triggers.length} ${preview.triggers.length === 1 ? 'trigger' : 'triggers'}`
          : ''}
        .
      </p>
      {sameName[0] ? (
        <section className="panel panel-warning" aria-labelledby="tpl-same-name">
          <h3 id="tpl-same-name">An agent with this name is already here</h3>
          <p>
            <PackageText text={preview.displayName} /> is already on this computer
            {sameName.length > 1 ? ` (${sameName.length} agents)` : ''}. Each apply makes a new agent: Apply makes a
            second one with the same name, with its own triggers. To change the one you have, open it instead; to tell
            them apart, give this one other parameters.
          </p>
          <button type="button" className="button button-small" onClick={() => showAgent(sameName[0]?.id ?? '')}>
            Open the existing agent
          </button>
        </section>
      ) : null}
      {preview.blockers.length > 0 ? (
        <section className="panel panel-error" aria-labelledby="tpl-blockers">
          <h3 id="tpl-blockers">Can't apply yet</h3>
          <ul>
            {preview.blockers.map((blocker, i) => (
              <li key={i}>
                <CodeText text={blocker.message} />
              </li>
            ))}
          </ul>
          {missingServer || missingSecret ? (
            <div className="button-row">
              <button
                type="button"
                className="button button-small"
                onClick={() => (missingServer ? askForServer(missingServer) : show('settings'))}
              >
                <SettingsIcon aria-hidden="true" size={14} />{' '}
                {missingServer ? `Save ${missingServer} in Settings → MCP servers` : 'Go to Settings → Secrets'}
              </button>
              <span className="small">Then come back here: this form keeps your answers.</span>
            </div>
          ) : null}
        </section>
      ) : null}
      {preview.warnings.length > 0 ? (
        <section className="panel panel-warning" aria-labelledby="tpl-warnings">
          <h3 id="tpl-warnings">Warnings</h3>
          <ul>
            {preview.warnings.map((warning, i) => (
              <li key={i}>
                <strong>{warningTitle(warning)}:</strong> <CodeText text={warning.message} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {preview.blockers.length === 0 && preview.warnings.length === 0 ? (
        <p className="text-ok">Nothing is missing.</p>
      ) : null}
      <TemplateGrants preview={preview} armed={armed} />
    </div>
  );
}

/**
 * What the agent will get and what will start it, grouped: every tool with its setting, every trigger armed or not,
 * every secret.
 */
function TemplateGrants({ preview, armed }: { preview: ApplyPreview; armed: string[] }) {
  const mcpTools = preview.mcp.flatMap((server) => server.tools.map((tool) => ({ server, tool })));
  return (
    <section aria-labelledby="tpl-grants">
      <h3 id="tpl-grants">Everything it gets</h3>
      <p>
        <strong>Approvals:</strong> {approvalsLabel(preview.approvals.chosen)}
        {preview.approvals.chosen === preview.approvals.recommended
          ? ' (as the template recommends)'
          : ` (your choice: the template recommends “${approvalsLabel(preview.approvals.recommended)}”)`}
        . {APPROVALS_ALWAYS}
      </p>
      <details className="review-group" open>
        <summary>
          Built-in tools ({preview.tools.length}): {builtinToolUse(preview.approvals.chosen)}
        </summary>
        {preview.tools.length === 0 ? <p className="muted small">None.</p> : null}
        <ul className="rows">
          {[
            ...preview.tools.map((tool) => ({ tool, left: false })),
            ...preview.withheld.map((tool) => ({ tool, left: true })),
          ].map(({ tool, left }) => (
            <li key={tool} className="row">
              {templateTool(tool)?.description ?? ''}{' '}
              <code>
                <PackageText text={tool} />
              </code>{' '}
              {left ? (
                <>
                  <span className="badge badge-neutral">Left out by you</span>{' '}
                  <span className="small muted">
                    The agent gets it denied; you can allow it later on the dashboard.
                  </span>
                </>
              ) : (
                <FamilyBadge family={templateTool(tool)?.family ?? 'unknown'} />
              )}
            </li>
          ))}
        </ul>
      </details>
      {mcpTools.length === 0 ? <p className="small muted">No MCP tools.</p> : null}
      <details className="review-group" open={mcpTools.length <= 12} hidden={mcpTools.length === 0}>
        <summary>MCP tools ({mcpTools.length})</summary>
        <ul className="rows">
          {mcpTools.map(({ server, tool }) => {
            const outcome = mcpToolOutcome(tool, server.saved, tool.setting === 'allow', preview.approvals.chosen);
            return (
              <li key={tool.gateName} className="row">
                <code>
                  <PackageText text={tool.gateName} />
                </code>{' '}
                <span className={`badge badge-${outcome.badge}`}>{outcome.words}</span>
                {tool.pinText ? (
                  <span className="small block">
                    Pinned: <CodeText text={tool.pinText} />
                  </span>
                ) : null}
              </li>
            );
          })}
        </ul>
      </details>
      <details className="review-group" open>
        <summary>Triggers ({preview.triggers.length})</summary>
        {preview.triggers.length === 0 ? (
          <p className="muted small">None: it runs only when an agent runtime is asked to run it.</p>
        ) : null}
        <ul className="rows">
          {preview.triggers.map((trigger) => (
            <li key={trigger.name} className="row">
              <code>
                <PackageText text={trigger.name} />
              </code>{' '}
              <span className="small muted">({trigger.type})</span>{' '}
              {armed.includes(trigger.name) ? (
                <span className="badge badge-warning-soft">Armed when made</span>
              ) : (
                <span className="badge badge-neutral">Off until you arm it</span>
              )}
            </li>
          ))}
        </ul>
        {preview.triggers.some((trigger) => armed.includes(trigger.name)) ? (
          <p className="small">{FIRE_QUEUES_WORDS}</p>
        ) : null}
      </details>
      {preview.secrets.length === 0 ? <p className="small muted">It reads no secrets.</p> : null}
      <details className="review-group" open hidden={preview.secrets.length === 0}>
        <summary>Secrets it reads ({preview.secrets.length})</summary>
        <ul className="rows">
          {preview.secrets.map((secret) => (
            <li key={secret.name} className="row">
              <code>{secret.name}</code>{' '}
              {secret.saved ? (
                <span className="badge badge-allow">Saved on this computer</span>
              ) : (
                <span className="badge badge-send_external">Missing</span>
              )}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
