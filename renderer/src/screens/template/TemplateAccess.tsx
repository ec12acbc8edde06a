import { AlertTriangle, CheckCircle2, KeyRound, Lock, Settings as SettingsIcon, XCircle } from 'lucide-react';
import type { Approvals } from '../../../../shared/decisions/apply-context';
import type { ApplyPreview, PreviewMcpServer, PreviewMcpTool } from '../../../../shared/decisions/apply-preview';
import { builtinToolUse } from '../../../../shared/decisions/approvals-words';
import { reachesOutside, templateTool } from '../../../../shared/manifests/catalogues';
import { CodeText } from '../../components/CodeText';
import { FamilyBadge, OutwardBadge } from '../../components/FamilyBadge';
import { PackageText } from '../../components/PackageText';
import { useFlowStore } from '../../stores/flow-store';
import { ApprovalsChoiceField } from './ApprovalsChoiceField';
import { useSettings } from '../../../api/hooks';
import { mcpToolOutcome } from './mcp-tool-outcome';

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

/** One built-in tool: its words first, its name beside them, its family, and a box to leave it out. */
function BuiltinToolRow({ tool, given, onGive }: { tool: string; given: boolean; onGive: (given: boolean) => void }) {
  const known = templateTool(tool);
  const id = `give-${tool}`;
  return (
    <li className="row row-block">
      <div className="switch-row">
        <input id={id} type="checkbox" checked={given} onChange={(e) => onGive(e.target.checked)} />
        <label htmlFor={id}>
          {known?.description ? <PackageText text={known.description} /> : null}{' '}
          <code className="small muted">
            <PackageText text={tool} />
          </code>
        </label>
        <FamilyBadge family={known?.family ?? 'unknown'} />
        <OutwardBadge outward={reachesOutside(tool)} />
        {given ? null : <span className="badge badge-neutral">Left out</span>}
      </div>
    </li>
  );
}

/** The template's built-in tools: those the owner never allows, said as left out, then each offered one. */
function BuiltinToolsSection({
  choices,
  deniedNative,
  approvals,
}: {
  choices: TemplateAccessChoices;
  deniedNative: { tool: string; policy: string | null }[];
  approvals: Approvals;
}) {
  const offered = choices.templateTools.filter((tool) => !deniedNative.some((denied) => denied.tool === tool));
  return (
    <section aria-labelledby="tpl-tools">
      <h3 id="tpl-tools">Built-in tools</h3>
      {choices.templateTools.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <p className="small muted">
          Ticked: the agent gets it and {builtinToolUse(approvals, 'it')}. Untick one to leave it out: the agent gets it
          denied, and you can allow it later on the dashboard.
        </p>
      )}
      {deniedNative.length > 0 ? (
        <ul className="rows" aria-label="Tools left out">
          {deniedNative.map(({ tool, policy }) => (
            <li key={tool} className="row">
              <code>
                <PackageText text={tool} />
              </code>{' '}
              {policy !== null ? (
                <>
                  <span className="badge badge-deny">
                    <Lock aria-hidden="true" size={12} /> Locked by your organization
                  </span>{' '}
                  <span className="small muted">
                    <PackageText text={policy} />: the agent does not get it.
                  </span>
                </>
              ) : (
                <>
                  <span className="badge badge-deny">Denied in your Settings</span>{' '}
                  <span className="small muted">You never allow it: the agent does not get it.</span>
                </>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <ul className="rows">
        {offered.map((tool) => (
          <BuiltinToolRow
            key={tool}
            tool={tool}
            given={!choices.withhold.includes(tool)}
            onGive={(given) => choices.onWithhold(tool, !given)}
          />
        ))}
      </ul>
    </section>
  );
}

/** One MCP tool of a template: its switch, what apply will do with it, its pin, and why it may stay denied. */
function McpToolRow({
  tool,
  saved,
  granted,
  approvals,
  onGrant,
}: {
  tool: PreviewMcpTool;
  saved: boolean;
  granted: boolean;
  approvals: Approvals;
  onGrant: (granted: boolean) => void;
}) {
  const show = useFlowStore((s) => s.show);
  const id = `grant-${tool.gateName}`;
  const outcome = mcpToolOutcome(tool, saved, granted, approvals);
  return (
    <li className="row row-block">
      <div className="switch-row">
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={granted}
          aria-checked={granted}
          disabled={!saved}
          onChange={(e) => onGrant(e.target.checked)}
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
        The template {tool.asks === 'allow' ? 'asks you to allow it' : 'leaves it asking you first'}. Only what you
        switch on runs without asking.
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
}

/** One MCP server the template names: saved here or missing (with the way to Settings), then its tools. */
function McpServerCard({
  server,
  grants,
  onGrant,
  approvals,
}: {
  server: PreviewMcpServer;
  grants: string[];
  onGrant: (gateName: string, granted: boolean) => void;
  approvals: Approvals;
}) {
  const askForServer = useFlowStore((s) => s.askForServer);
  return (
    <article className="card card-wide" aria-labelledby={`tpl-mcp-${server.server}`}>
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
          <button type="button" className="button button-small" onClick={() => askForServer(server.server)}>
            <SettingsIcon aria-hidden="true" size={14} /> Save {server.server} in Settings → MCP servers
          </button>
        </div>
      ) : null}
      <ul className="rows">
        {server.tools.map((tool) => (
          <McpToolRow
            key={tool.gateName}
            tool={tool}
            saved={server.saved}
            granted={grants.includes(tool.gateName)}
            approvals={approvals}
            onGrant={(granted) => onGrant(tool.gateName, granted)}
          />
        ))}
      </ul>
    </article>
  );
}

/** The secrets the template needs, each saved here or missing (with the way to Settings). */
function SecretsSection({ secrets }: { secrets: ApplyPreview['secrets'] }) {
  const show = useFlowStore((s) => s.show);
  return (
    <section aria-labelledby="tpl-secrets">
      <h3 id="tpl-secrets">Secrets it needs</h3>
      {secrets.length === 0 ? <p className="muted">None.</p> : null}
      <ul className="rows">
        {secrets.map((secret) => (
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
  );
}

/**
 * Access: how the agent asks, built-in tools (each can be unticked), MCP servers and their tools
 * with grants and pins, secrets.
 */
export function TemplateAccess({ preview, choices }: { preview: ApplyPreview; choices: TemplateAccessChoices }) {
  // Built-in tools the owner never allows are left out of `tools`; their `grants.<tool>` warnings name them.
  // A tool the organization's policy blocks is said as its lock, with its reason, never as the person's own list.
  const deniedNative = preview.warnings
    .filter((w) => w.code.startsWith('grants.') && !w.code.startsWith('grants.mcp:'))
    .map((w) => ({
      tool: w.code.slice('grants.'.length),
      policy: /blocked by your organization's policy \((.*)\): the agent/.exec(w.message)?.[1] ?? null,
    }));
  // Asked before each tool unless the person chooses `never` (the template's value is only its recommendation); the
  // organization may forbid `never`, and then the choice is locked at the control with its reason.
  const settings = useSettings();
  const unattendedForbidden = settings.data?.policy?.effective?.unattended === false;
  const approvals = unattendedForbidden ? 'ask' : (choices.approvals ?? preview.approvals.chosen);
  return (
    <div className="step-body">
      <ApprovalsChoiceField
        recommended={preview.approvals.recommended}
        chosen={approvals}
        hasTriggers={choices.hasTriggers}
        lockedNever={
          unattendedForbidden ? (settings.data?.policy?.effective?.organization ?? 'your organization') : null
        }
        onChoose={(value) => choices.onApprovals(value === 'ask' ? null : value)}
      />
      <BuiltinToolsSection choices={choices} deniedNative={deniedNative} approvals={approvals} />
      <section aria-labelledby="tpl-mcp">
        <h3 id="tpl-mcp">MCP servers</h3>
        {preview.mcp.length === 0 ? <p className="muted">None.</p> : null}
        {preview.mcp.map((server) => (
          <McpServerCard
            key={server.server}
            server={server}
            grants={choices.grants}
            onGrant={choices.onGrant}
            approvals={approvals}
          />
        ))}
      </section>
      <SecretsSection secrets={preview.secrets} />
    </div>
  );
}
