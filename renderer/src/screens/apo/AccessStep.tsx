import { AlertTriangle, CheckCircle2, XCircle } from 'lucide-react';
import type { ApoInspection } from '../../../../shared/inspection';
import { CONNECTION_TYPES } from '../../../../shared/catalogues';
import { isPinnedRequirement, mcpCommandLine } from '../../../../shared/risk-summary';
import { useSettings } from '../../../api/hooks';
import { AskBadge, FamilyBadge } from '../../components/FamilyBadge';
import { PackageText } from '../../components/PackageText';
import { useConsentDraft, useConsentStore } from '../../stores/consent-store';
import { accessRow } from './access';

/** Step 2: agents and their default access (each untickable), tools, connections, MCP servers, pip. */
export function AccessStep({ inspection, sourceId }: { inspection: ApoInspection; sourceId: string }) {
  const manifest = inspection.details?.manifest;
  const draft = useConsentDraft(sourceId);
  const setAccess = useConsentStore((s) => s.setAccess);
  const settings = useSettings();
  if (!manifest) return null;
  const connectionAvailable = (type: string) => settings.data?.connections.find((c) => c.type === type)?.available;

  return (
    <div className="step-body">
      <section aria-labelledby="agents-heading">
        <h3 id="agents-heading">Agents</h3>
        {(manifest.agents ?? []).length === 0 ? <p className="muted">This package has no agents.</p> : null}
        {(manifest.agents ?? []).map((agent) => {
          const entries = agent.defaults?.access ?? [];
          return (
            <article key={agent.id} className="card card-wide" aria-labelledby={`agent-${agent.id}`}>
              <h4 id={`agent-${agent.id}`}>
                <PackageText text={agent.name} /> <span className="muted small">({agent.id})</span>
              </h4>
              <p>
                <strong>Mission:</strong> <PackageText text={agent.mission} />
              </p>
              {agent.examples && agent.examples.length > 0 ? (
                <>
                  <p className="small muted">Example requests:</p>
                  <ul className="small">
                    {agent.examples.map((example, i) => (
                      <li key={i}>
                        <PackageText text={example} />
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
              {entries.length === 0 ? (
                <p className="muted">It asks for no tools: it can only answer in words.</p>
              ) : (
                <fieldset className="access-table">
                  <legend>
                    What <PackageText text={agent.name} /> may use (untick anything you do not want to allow)
                  </legend>
                  <ul className="rows">
                    {entries.map((entry) => {
                      const row = accessRow(entry, manifest);
                      const kept = draft.access[agent.id]?.[entry] ?? true;
                      const id = `access-${agent.id}-${entry}`;
                      return (
                        <li key={entry} className="row">
                          <input id={id} type="checkbox" checked={kept} onChange={(event) => setAccess(sourceId, agent.id, entry, event.target.checked)} />
                          <label htmlFor={id}>
                            <code><PackageText text={entry} /></code>
                            <span className="small muted block">
                              <PackageText text={row.what} />
                            </span>
                          </label>
                          <FamilyBadge family={row.family} />
                          {kept ? <AskBadge asks={row.asks} /> : <span className="badge badge-deny">Not allowed</span>}
                        </li>
                      );
                    })}
                  </ul>
                </fieldset>
              )}
              <dl className="facts small">
                {agent.defaults?.autonomy ? (
                  <>
                    <dt>Autonomy</dt>
                    <dd>{agent.defaults.autonomy}</dd>
                  </>
                ) : null}
                {agent.defaults?.planning ? (
                  <>
                    <dt>Planning</dt>
                    <dd>{agent.defaults.planning}</dd>
                  </>
                ) : null}
                {agent.defaults?.sources && agent.defaults.sources.length > 0 ? (
                  <>
                    <dt>Sources</dt>
                    <dd>
                      <PackageText text={agent.defaults.sources.join(', ')} />
                      {agent.defaults.sources.includes('memory') ? ' (memory: it may read and write its memory)' : ''}
                      {agent.defaults.sources.includes('profile') ? ' (profile: it may read your user profile)' : ''}
                    </dd>
                  </>
                ) : null}
                {agent.defaults?.model?.model ? (
                  <>
                    <dt>Model it recommends</dt>
                    <dd>
                      <PackageText text={agent.defaults.model.model} />
                    </dd>
                  </>
                ) : null}
              </dl>
            </article>
          );
        })}
      </section>

      <section aria-labelledby="tools-heading">
        <h3 id="tools-heading">Tools and workflows (Python code in the package)</h3>
        {(manifest.tools ?? []).length + (manifest.workflows ?? []).length === 0 ? <p className="muted">None.</p> : null}
        <ul className="rows">
          {(manifest.tools ?? []).map((tool) => (
            <li key={`t-${tool.name}`} className="row row-block">
              <p>
                <strong>Tool</strong> <code><PackageText text={tool.name} /></code> <FamilyBadge family={tool.action} />
              </p>
              <p className="small">
                <PackageText text={tool.description} />
              </p>
              <p className="small muted">
                Code: <code><PackageText text={tool.module} /></code>
              </p>
            </li>
          ))}
          {(manifest.workflows ?? []).map((workflow) => (
            <li key={`w-${workflow.name}`} className="row row-block">
              <p>
                <strong>Workflow</strong> <code><PackageText text={workflow.name} /></code> <FamilyBadge family={workflow.action} />
              </p>
              <p className="small">
                <PackageText text={workflow.description} />
              </p>
              {workflow.steps && workflow.steps.length > 0 ? (
                <p className="small">
                  Steps: <PackageText text={workflow.steps.join(' → ')} />
                </p>
              ) : null}
              <p className="small muted">
                Code: <code><PackageText text={workflow.module} /></code>
              </p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="connections-heading">
        <h3 id="connections-heading">Connections it needs</h3>
        {(manifest.requires ?? []).length === 0 ? <p className="muted">None.</p> : null}
        <ul className="rows">
          {(manifest.requires ?? []).map((requirement) => {
            const label = CONNECTION_TYPES.find((c) => c.type === requirement.type)?.label;
            const available = connectionAvailable(requirement.type);
            return (
              <li key={requirement.type} className="row row-block">
                <p>
                  <strong>{label ?? requirement.type}</strong> <code><PackageText text={requirement.type} /></code>{' '}
                  {available === true ? (
                    <span className="badge badge-allow">
                      <CheckCircle2 aria-hidden="true" size={12} /> This computer has it
                    </span>
                  ) : available === false ? (
                    <span className="badge badge-warning-soft">
                      <XCircle aria-hidden="true" size={12} /> Not set up on this computer
                    </span>
                  ) : label === undefined ? (
                    <span className="badge badge-warning-soft">Unknown connection type</span>
                  ) : null}
                </p>
                {requirement.reason ? (
                  <p className="small">
                    Why: <PackageText text={requirement.reason} />
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="mcp-heading">
        <h3 id="mcp-heading">MCP servers it brings</h3>
        {(manifest.mcp_servers ?? []).length === 0 ? <p className="muted">None.</p> : null}
        <ul className="rows">
          {(manifest.mcp_servers ?? []).map((server) => {
            const commandLine = mcpCommandLine(server);
            const envKeys = Object.keys(server.env ?? {});
            return (
              <li key={server.name} className="row row-block">
                <p>
                  <strong>
                    <PackageText text={server.name} />
                  </strong>{' '}
                  {commandLine !== '' ? <FamilyBadge family="execute_code" /> : <FamilyBadge family="send_external" />}
                </p>
                {commandLine !== '' ? (
                  <p>
                    Runs this program on this computer: <code className="command"><PackageText text={commandLine} /></code>
                  </p>
                ) : (
                  <p>
                    Connects to <code className="command"><PackageText text={server.url ?? '(no address)'} /></code> over {server.transport ?? 'stdio'}
                  </p>
                )}
                <p className="small">
                  {envKeys.length === 0 ? 'It receives no environment variables from the package.' : <>It receives these environment variables (names only): {envKeys.map((key) => <code key={key} className="env-key"><PackageText text={key} /></code>)}</>}
                </p>
                <p className="small muted">Whether a call to one of its tools asks you first is decided by that tool's action family; until this app knows it, each call asks.</p>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="pip-heading">
        <h3 id="pip-heading">Python packages it installs</h3>
        {(manifest.pip?.packages ?? []).length === 0 ? <p className="muted">None.</p> : null}
        <ul className="rows">
          {(manifest.pip?.packages ?? []).map((requirement) => (
            <li key={requirement} className="row">
              <code><PackageText text={requirement} /></code>{' '}
              {isPinnedRequirement(requirement) ? (
                <span className="badge badge-allow">Pinned to one version</span>
              ) : (
                <span className="badge badge-warning-soft">
                  <AlertTriangle aria-hidden="true" size={12} /> Not pinned: any version could be installed
                </span>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
