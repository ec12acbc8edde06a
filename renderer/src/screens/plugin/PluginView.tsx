import { PLUGIN_TRANSPORT_WORDS } from '../../../../shared/words/words';
import { AlertTriangle, Ban, Info, KeyRound, Server, ShieldAlert } from 'lucide-react';
import type { Inspection } from '../../../../shared/manifests/inspection';
import { textSafetyReport } from '../../../../shared/words/display-text';
import { pluginTextFields } from '../../../../shared/words/plugin-text-fields';
import {
  pluginRiskSummary,
  roleFloorWords,
  type PluginManifestView,
  type PluginRiskLine,
  type PluginSummary,
} from '../../../../shared/manifests/plugin-manifest';
import { RefusedScreen } from '../RefusedScreen';
import { CapabilityCard, ToolRow } from './CapabilityCard';
import { QueryProfileText } from './QueryProfileText';
import { PackageText } from '../../components/PackageText';
import { ProblemList } from '../../components/ProblemList';
import './plugin-view.css';

const CONNECTION_WORDS: Record<string, string> = {
  user: 'Each user connects their own account',
  tenant: 'One connection shared by the whole tenant',
  either: 'Either a user’s own or a tenant-wide connection',
  user_plus_tenant: 'A tenant connection first, then each user’s own on top',
  none: 'No connection record',
};

/** Words that start a sentence, used mid-sentence. */
function lowerFirst(words: string): string {
  return words.charAt(0).toLowerCase() + words.slice(1);
}

function RiskIcon({ line }: { line: PluginRiskLine }) {
  if (line.level === 'sensitive') return <ShieldAlert aria-hidden="true" size={18} />;
  if (line.level === 'cannot') return <Ban aria-hidden="true" size={18} />;
  return <Info aria-hidden="true" size={18} />;
}

/**
 * The read-only view of a plugin manifest (spec: aperium-plugin-manifest.md): who owns it, the
 * credential shapes it needs, each capability with its approval gate and role floor, each tool
 * read or write and whether it is safe to repeat, its MCP exposure, and a plain-words risk summary.
 * This app shows plugins; it never installs or runs them. All package text goes through
 * shared/words/display-text.ts (PackageText and the text-safety report).
 */
export function PluginView({
  inspection,
  displayName,
  sourceId,
}: {
  inspection: Inspection;
  displayName: string;
  sourceId: string;
}) {
  if (!inspection.ok || inspection.details === null || inspection.summary === null) {
    return <RefusedScreen inspection={inspection} displayName={displayName} sourceId={sourceId} />;
  }
  const view = inspection.details as PluginManifestView;
  const summary = inspection.summary as PluginSummary;
  const id = view.identity;
  const risks = pluginRiskSummary(view);
  const can = risks.filter((line) => line.level !== 'cannot');
  const cannot = risks.filter((line) => line.level === 'cannot');
  const textWarnings = textSafetyReport(pluginTextFields(view));
  const otherWarnings = inspection.warnings.filter((w) => !w.code.startsWith('text.'));

  return (
    <div className="screen">
      <h1>
        Plugin: <PackageText text={id.display_name} max={80} />
      </h1>
      <section className="panel shown-only" aria-label="This app only shows plugins">
        <Info aria-hidden="true" size={20} />
        <p>
          <strong>Shown only.</strong> This app reads plugin manifests to show you what a plugin declares. It does not
          install this plugin, run any of its code, connect it to anything, or ask for its credentials. Nothing changes
          on this computer.
        </p>
      </section>

      <TextWarnings warnings={textWarnings} />

      <WhoItIsFrom id={id} />

      <RiskSummary can={can} cannot={cannot} summary={summary} />

      <Credentials view={view} />

      <CapabilitiesAndTools view={view} />

      <McpExposure view={view} />

      <section aria-labelledby="plugin-data-heading">
        <h2 id="plugin-data-heading">Data it can answer queries on</h2>
        <QueryProfileText profile={view.query_profile} datasets={view.datasets} />
        {view.resources.length > 0 ? (
          <p className="small">
            Resources:{' '}
            {view.resources.map((resource, i) => (
              <span key={resource.name}>
                {i > 0 ? ', ' : ''}
                <code>
                  <PackageText text={resource.name} max={60} />
                </code>
              </span>
            ))}
          </p>
        ) : null}
      </section>

      {otherWarnings.length > 0 ? (
        <section aria-labelledby="plugin-warnings-heading" className="panel panel-warning">
          <h2 id="plugin-warnings-heading">Warnings from the check</h2>
          <ProblemList problems={otherWarnings} />
        </section>
      ) : null}
    </div>
  );
}

/** Where the manifest's text could mislead: lookalike letters, hidden controls, bidirectional text. */
function TextWarnings({ warnings }: { warnings: ReturnType<typeof textSafetyReport> }) {
  if (warnings.length === 0) return null;
  return (
    <section aria-labelledby="plugin-text-heading" className="panel panel-warning" role="alert">
      <h2 id="plugin-text-heading">
        <AlertTriangle aria-hidden="true" size={18} /> The text of this manifest could mislead you
      </h2>
      <ul>
        {warnings.map((warning, i) => (
          <li key={i}>
            <PackageText text={warning.message} max={400} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Who the plugin says it is from: nothing is signed, so the owner is shown unverified. */
function WhoItIsFrom({ id }: { id: PluginManifestView['identity'] }) {
  return (
    <section aria-labelledby="plugin-who-heading">
      <h2 id="plugin-who-heading">Who it is from</h2>
      <dl className="facts facts-wide">
        <dt>Owner</dt>
        <dd>
          <PackageText text={id.owner} max={120} />{' '}
          <span className="badge badge-warning-soft" title="Nothing is signed: anyone can write any owner name">
            <AlertTriangle aria-hidden="true" size={12} /> Unverified
          </span>
        </dd>
        <dt>Name</dt>
        <dd>
          <code>
            <PackageText text={id.name} max={80} />
          </code>
        </dd>
        <dt>Version</dt>
        <dd>
          <PackageText text={id.version} max={60} />
        </dd>
        <dt>Homepage</dt>
        <dd>
          {id.homepage ? (
            <>
              <code>
                <PackageText text={id.homepage} max={200} />
              </code>{' '}
              <span className="small muted">(not opened from here)</span>
            </>
          ) : (
            <span className="muted">None given.</span>
          )}
        </dd>
        <dt>What it does</dt>
        <dd>
          {id.description ? (
            <PackageText text={id.description} multiline max={600} />
          ) : (
            <span className="muted">The manifest gives no description.</span>
          )}
        </dd>
      </dl>
    </section>
  );
}

/** What the plugin could do and what it does not, in plain words, with its highest role floor. */
function RiskSummary({
  can,
  cannot,
  summary,
}: {
  can: PluginRiskLine[];
  cannot: PluginRiskLine[];
  summary: PluginSummary;
}) {
  return (
    <section aria-labelledby="plugin-risk-heading" className="panel">
      <h2 id="plugin-risk-heading">What this plugin could do</h2>
      <ul className="risk-list">
        {can.map((line, i) => (
          <li key={i} className={`risk risk-${line.level}`}>
            <RiskIcon line={line} /> <PackageText text={line.text} max={400} />
          </li>
        ))}
      </ul>
      {cannot.length > 0 ? (
        <>
          <h3>What it does not do</h3>
          <ul className="risk-list">
            {cannot.map((line, i) => (
              <li key={i} className="risk risk-cannot">
                <RiskIcon line={line} /> <PackageText text={line.text} max={400} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p className="small muted">
        Highest role floor: {lowerFirst(roleFloorWords(summary.role_floor))}. Write tools: {summary.write_tools.length}.
        Capabilities that need approval: {summary.approval_capabilities.length}.
      </p>
    </section>
  );
}

/** The shape of the credentials it needs (never values: none are asked), its connections and profiles. */
function Credentials({ view }: { view: PluginManifestView }) {
  return (
    <section aria-labelledby="plugin-credentials-heading">
      <h2 id="plugin-credentials-heading">
        <KeyRound aria-hidden="true" size={18} /> Credentials it needs
      </h2>
      <p className="small muted">
        The manifest describes the shape of the credentials only. It holds no values, and this app asks for none.
      </p>
      <dl className="facts">
        <dt>Shape</dt>
        <dd>
          {view.auth ? (
            <>
              <code>
                <PackageText text={view.auth.type} max={80} />
              </code>{' '}
              <span className="small muted">
                (from {view.auth.source === 'auth_shape' ? 'auth_shape' : 'the legacy auth.type'})
              </span>
            </>
          ) : (
            <span className="muted">None declared.</span>
          )}
        </dd>
        {view.auth && view.auth.scopes.length > 0 ? (
          <>
            <dt>Scopes</dt>
            <dd>
              {view.auth.scopes.map((scope, i) => (
                <span key={i}>
                  {i > 0 ? ', ' : ''}
                  <code>
                    <PackageText text={scope} max={80} />
                  </code>
                </span>
              ))}
            </dd>
          </>
        ) : null}
        <dt>Connections</dt>
        <dd>
          {view.connection_shapes.length === 0 ? (
            <span className="muted">Not declared.</span>
          ) : (
            <ul>
              {view.connection_shapes.map((shape, i) => (
                <li key={i}>{CONNECTION_WORDS[shape] ?? <PackageText text={shape} max={60} />}</li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      <DeploymentProfiles profiles={view.profiles} />
    </section>
  );
}

/** Whether it exposes its tools as an MCP server, and whether its tools come from a remote one. */
function McpExposure({ view }: { view: PluginManifestView }) {
  return (
    <section aria-labelledby="plugin-mcp-heading">
      <h2 id="plugin-mcp-heading">
        <Server aria-hidden="true" size={18} /> MCP
      </h2>
      {view.mcp ? (
        <p>
          It can expose its tools as an MCP server <strong>{PLUGIN_TRANSPORT_WORDS[view.mcp.transport]}</strong>
          {view.mcp.port !== null ? <> on port {view.mcp.port}</> : null}
          {view.mcp.host ? (
            <>
              {' '}
              at host{' '}
              <code>
                <PackageText text={view.mcp.host} max={120} />
              </code>
            </>
          ) : null}
          {view.mcp.transport === 'STDIO'
            ? ' (an MCP client outside Aperium).'
            : ': any program that can reach it could call the tools.'}
        </p>
      ) : (
        <p>It does not expose an MCP server.</p>
      )}
      {view.remote_mcp ? (
        <>
          <p>
            Its tools come from a remote MCP server, discovered when it runs. The URL is built from credentials and
            settings:
          </p>
          <p>
            <code>
              <PackageText text={view.remote_mcp.url_template} max={300} />
            </code>
          </p>
          {view.remote_mcp.credential_keys.length > 0 ? (
            <p className="small">
              Credentials filled into it: <PackageText text={view.remote_mcp.credential_keys.join(', ')} max={200} />
            </p>
          ) : null}
        </>
      ) : (
        <p>It does not use a remote MCP server.</p>
      )}
    </section>
  );
}

/** The deployment profiles it offers, each with the settings it asks for. */
function DeploymentProfiles({ profiles }: { profiles: PluginManifestView['profiles'] }) {
  if (profiles.length === 0) return null;
  return (
    <>
      <h3>Deployment profiles</h3>
      <ul className="rows">
        {profiles.map((profile) => (
          <li key={profile.name} className="row row-block">
            <strong>
              <PackageText text={profile.display_name ?? profile.name} max={80} />
            </strong>
            {profile.description ? (
              <>
                {' '}
                <span className="small">
                  <PackageText text={profile.description} max={200} />
                </span>
              </>
            ) : null}
            <p className="small">
              Settings asked for:{' '}
              {profile.config_keys.length === 0
                ? 'none'
                : profile.config_keys.map(({ key, hint }, i) => (
                    <span key={key}>
                      {i > 0 ? ', ' : ''}
                      <code>
                        <PackageText text={key} max={60} />
                      </code>
                      {hint ? (
                        <>
                          {' '}
                          (<PackageText text={hint} max={120} />)
                        </>
                      ) : null}
                    </span>
                  ))}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Each capability with its tools; a tool naming no declared capability is listed after them. */
function CapabilitiesAndTools({ view }: { view: PluginManifestView }) {
  // Grouped once, not filtered per capability: a manifest may hold thousands of each (linear, DESIGN.md).
  const toolsOf = new Map<string, typeof view.tools>(view.capabilities.map((c) => [c.name, []]));
  const orphanTools: typeof view.tools = [];
  for (const tool of view.tools) (toolsOf.get(tool.capability) ?? orphanTools).push(tool);
  return (
    <section aria-labelledby="plugin-capabilities-heading">
      <h2 id="plugin-capabilities-heading">Capabilities and their tools</h2>
      <ul className="card-list">
        {view.capabilities.map((capability) => (
          <CapabilityCard key={capability.name} capability={capability} tools={toolsOf.get(capability.name) ?? []} />
        ))}
      </ul>
      {orphanTools.length > 0 ? (
        <ul className="tool-list">
          {orphanTools.map((tool) => (
            <ToolRow key={tool.name} tool={tool} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
