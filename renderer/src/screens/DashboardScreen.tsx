import { accessStateWords } from '../../../shared/words/words';
import { reachesOutside } from '../../../shared/manifests/catalogues';
import { Archive, Lock, Package, Settings as SettingsIcon, Trash2 } from 'lucide-react';
import { PolicyBanner } from '../components/PolicyBanner';
import { ExportFailingBanner } from '../components/ActivityRecordNotes';
import { IntegrityChangedPanel, PublisherBadge } from '../components/trust/PackageTrustLines';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { AccessView, AgentView, InstalledPackageView, WaitingServerView } from '../../../shared/contract/api';
import { useArchiveAgent, useDashboard, useSetToolAccess, useUninstallPackage } from '../../api/hooks';
import { CodeText } from '../components/CodeText';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { FamilyBadge, OutwardBadge } from '../components/FamilyBadge';
import { PackageText } from '../components/PackageText';
import { ErrorPanel, Loading } from '../components/Status';
import { useFlowStore } from '../stores/flow-store';
import { TriggerHostNote } from './dashboard/TriggerLive';
import { pausedCounts } from './dashboard/paused-count';
import { TriggerRowView } from './dashboard/TriggerRow';
import { agentCounts, agentCountsText, MANY_AGENTS, matchesFilter, riskiestFirst } from './dashboard/agent-summary';
import { formatDateTime } from '../components/date-format';
import { ApprovalsSwitch, RunsSwitchButton, RunsUnaskedPanel } from './dashboard/RunsUnasked';

function when(iso: string): string {
  return formatDateTime(iso);
}

function pinText(pin: AccessView['pin']): string {
  if (!pin) return '';
  return Object.entries(pin)
    .map(
      ([argument, value]) =>
        `${argument} = ${Array.isArray(value) ? value.map((v) => JSON.stringify(v)).join(' or ') : JSON.stringify(value)}`,
    )
    .join(', ');
}

function AccessRowView({ agent, access }: { agent: AgentView; access: AccessView }) {
  const set = useSetToolAccess();
  return (
    <li className="row">
      <PackageText text={access.what} />{' '}
      <code className="small muted">
        <PackageText text={access.tool} />
      </code>{' '}
      <FamilyBadge family={access.family ?? 'unknown'} /> <OutwardBadge outward={reachesOutside(access.tool)} />{' '}
      <span
        className={`badge badge-${!access.granted || access.permission === 'deny' ? 'deny' : access.permission === 'allow' ? 'allow' : 'ask'}`}
      >
        {accessStateWords(access.granted, access.permission)}
      </span>
      {access.policy ? (
        <span className="small row-note">
          <Lock aria-hidden="true" size={12} /> Locked by your organization: {access.policy}
          {access.granted ? ' (you allowed it: it applies again when the policy allows it)' : ''}
        </span>
      ) : null}
      <button
        type="button"
        className="button button-small"
        disabled={agent.archived || (Boolean(access.policy) && !access.granted)}
        // Busy, it is only marked so: a disabled button would drop the keyboard's focus to the page.
        aria-disabled={set.isPending || undefined}
        aria-label={`${access.granted ? 'Revoke' : 'Grant'} ${access.tool} for ${agent.displayName}`}
        onClick={() => {
          if (!set.isPending) set.mutate({ agentId: agent.id, tool: access.tool, granted: !access.granted });
        }}
      >
        {access.granted ? 'Revoke' : 'Grant'}
      </button>
      <RunsSwitchButton agent={agent} access={access} />
      {access.pin ? <span className="small row-note">Pinned: {pinText(access.pin)}</span> : null}
      {set.isError ? (
        <ErrorPanel
          error={set.error}
          title="The access was not changed"
          subject={`${agent.displayName} (${agent.origin} ${agent.from})`}
        />
      ) : null}
    </li>
  );
}

/**
 * A template's MCP server that apply skipped: while it is missing, where to save it; once saved, its
 * tools can be granted here, so coming back from Settings finishes what apply left (no second apply).
 */
function WaitingServer({ agent, waiting }: { agent: AgentView; waiting: WaitingServerView }) {
  const set = useSetToolAccess();
  const show = useFlowStore((s) => s.show);
  const names = waiting.tools.map((tool) => tool.name).join(', ');
  return (
    <section
      className={`panel ${waiting.saved ? 'panel-info' : 'panel-warning'}`}
      aria-label={`Waiting for the MCP server ${waiting.server}`}
    >
      {waiting.saved ? (
        <p>
          The MCP server <code>{waiting.server}</code> is saved now. Give its{' '}
          {waiting.tools.length === 1 ? 'tool' : 'tools'} to this agent:
        </p>
      ) : (
        <>
          <p>
            It cannot use <PackageText text={names} /> yet: no MCP server named <code>{waiting.server}</code> is saved
            on this computer. Save it in Settings, then come back here to give{' '}
            {waiting.tools.length === 1 ? 'it' : 'them'} to this agent.
          </p>
          <button type="button" className="button button-small" onClick={() => show('settings')}>
            <SettingsIcon aria-hidden="true" size={14} /> Go to Settings → MCP servers
          </button>
        </>
      )}
      {waiting.saved ? (
        <ul className="rows">
          {waiting.tools.map((tool) => (
            <li key={tool.tool} className="row">
              <code>
                <PackageText text={tool.name} />
              </code>
              {tool.pinText ? (
                <span className="small row-note">
                  <CodeText text={tool.pinText} />
                </span>
              ) : null}
              {tool.grantable ? (
                <button
                  type="button"
                  className="button button-small"
                  disabled={set.isPending || agent.archived}
                  aria-label={`Grant ${tool.name} for ${agent.displayName}`}
                  onClick={() => set.mutate({ agentId: agent.id, tool: tool.tool, granted: true })}
                >
                  Grant
                </button>
              ) : (
                <span className="small muted">
                  Cannot be given: its pin needs a parameter that was not given, or you never allow it.
                </span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {set.isError ? <ErrorPanel error={set.error} title="The tool was not given" /> : null}
    </section>
  );
}

function AgentCard({ agent }: { agent: AgentView }) {
  const archive = useArchiveAgent();
  const [confirm, setConfirm] = useState(false);
  const revealAgent = useFlowStore((s) => s.revealAgent);
  const agentRevealed = useFlowStore((s) => s.agentRevealed);
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from elsewhere ("Open the existing agent"): brought into view and focused.
  useEffect(() => {
    if (revealAgent !== agent.id || !heading.current) return;
    heading.current.scrollIntoView({ block: 'start' });
    heading.current.focus();
    agentRevealed();
  }, [revealAgent, agent.id, agentRevealed]);
  return (
    <article className="card card-wide" aria-labelledby={`agent-card-${agent.id}`}>
      <h3 id={`agent-card-${agent.id}`} tabIndex={-1} ref={heading}>
        <PackageText text={agent.displayName} />{' '}
        {agent.archived ? <span className="badge badge-neutral">Archived</span> : null}
      </h3>
      <p className="small muted">
        From {agent.origin === 'package' ? 'package' : 'template'} <PackageText text={agent.from} /> {agent.fromVersion}{' '}
        · made {when(agent.createdAt)}
        {agent.budgetPerRunUsd !== null ? ` · budget $${agent.budgetPerRunUsd} per run` : ''}
      </p>
      <ApprovalsSwitch agent={agent} />
      <p>
        <PackageText text={agent.description} />
      </p>
      <h4>What it may use</h4>
      {agent.access.length === 0 ? <p className="muted small">No tools.</p> : null}
      <ul className="rows">
        {agent.access.map((access) => (
          <AccessRowView key={access.tool} agent={agent} access={access} />
        ))}
      </ul>
      {agent.waitingServers.map((waiting) => (
        <WaitingServer key={waiting.server} agent={agent} waiting={waiting} />
      ))}
      <h4>Triggers</h4>
      {agent.triggers.length === 0 ? <p className="muted small">None.</p> : null}
      <ul className="rows">
        {agent.triggers.map((trigger) => (
          <TriggerRowView key={trigger.id} trigger={trigger} />
        ))}
      </ul>
      {!agent.archived ? (
        <>
          <button
            type="button"
            className="button"
            onClick={() => setConfirm(true)}
            aria-label={`Archive ${agent.displayName}`}
          >
            <Archive aria-hidden="true" size={16} /> Archive agent
          </button>
          <ConfirmDialog
            open={confirm}
            title={`Archive ${agent.displayName}?`}
            confirmLabel="Archive"
            busy={archive.isPending}
            onCancel={() => setConfirm(false)}
            onConfirm={() => archive.mutate({ agentId: agent.id }, { onSuccess: () => setConfirm(false) })}
          >
            <p>The agent stops: its triggers are disarmed and it is kept, archived, in the records.</p>
            {archive.isError ? <ErrorPanel error={archive.error} title="The agent was not archived" /> : null}
          </ConfirmDialog>
        </>
      ) : null}
    </article>
  );
}

function PackageCard({ pkg }: { pkg: InstalledPackageView }) {
  const uninstall = useUninstallPackage();
  const [confirm, setConfirm] = useState(false);
  return (
    <li className="card card-wide">
      <h3>
        <Package aria-hidden="true" size={18} /> <PackageText text={pkg.name} />{' '}
        <span className="muted">{pkg.version}</span>
      </h3>
      <p className="small">
        Publisher: <PackageText text={pkg.publisher} /> <PublisherBadge pkg={pkg} />
      </p>
      <p className="small muted">
        Installed {when(pkg.installedAt)}
        {pkg.updatedAt ? ` · updated ${when(pkg.updatedAt)}` : ''}
      </p>
      <IntegrityChangedPanel pkg={pkg} />
      {pkg.description ? (
        <p>
          <PackageText text={pkg.description} />
        </p>
      ) : null}
      {pkg.triggers.length > 0 ? (
        <>
          <h4>Workflow triggers</h4>
          <ul className="rows">
            {pkg.triggers.map((trigger) => (
              <TriggerRowView key={trigger.id} trigger={trigger} />
            ))}
          </ul>
        </>
      ) : null}
      <button
        type="button"
        className="button button-danger-soft"
        onClick={() => setConfirm(true)}
        aria-label={`Uninstall ${pkg.name}`}
      >
        <Trash2 aria-hidden="true" size={16} /> Uninstall
      </button>
      <ConfirmDialog
        open={confirm}
        title={`Uninstall ${pkg.name}?`}
        confirmLabel="Uninstall"
        busy={uninstall.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() => uninstall.mutate({ name: pkg.name }, { onSuccess: () => setConfirm(false) })}
      >
        <p>This removes:</p>
        <ul>
          <li>the package's files from this computer,</li>
          <li>
            its records and your answers for it ({pkg.agents.length === 1 ? '1 agent' : `${pkg.agents.length} agents`}),
          </li>
          <li>all of its triggers, armed or not.</li>
        </ul>
        {uninstall.isError ? <ErrorPanel error={uninstall.error} title="The package was not uninstalled" /> : null}
      </ConfirmDialog>
    </li>
  );
}

/** What is installed here: packages, agents with their access and triggers, and any store damage. */
/**
 * The dashboard's agents, riskiest first; past a few, a summary line (how many may do something sensitive, what runs
 * without asking, what is armed) and a filter by name, so one agent among many is found at once.
 */
function AgentsSection({ agents }: { agents: readonly AgentView[] }) {
  const [filter, setFilter] = useState('');
  // Ordered when the set of agents changes, not on each grant or revoke: a card never jumps away under the press.
  const ids = agents.map((agent) => agent.id).join('\n');
  const order = useMemo(() => riskiestFirst(agents).map((agent) => agent.id), [ids]);
  const byId = new Map(agents.map((agent) => [agent.id, agent]));
  const ordered = order.flatMap((id) => byId.get(id) ?? []);
  const shown = ordered.filter((agent) => matchesFilter(agent, filter));
  const many = agents.length > MANY_AGENTS;
  return (
    <section aria-labelledby="agents-heading-dash">
      <h2 id="agents-heading-dash">Agents</h2>
      {agents.length === 0 ? <p className="muted">No agent is on this computer yet.</p> : null}
      {many ? (
        <>
          <p className="agents-summary">{agentCountsText(agentCounts(agents))} The riskiest are shown first.</p>
          <div className="field agents-filter">
            <label htmlFor="agents-filter">Filter agents by name</label>
            <input
              id="agents-filter"
              type="search"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
            />
          </div>
          {filter.trim() !== '' ? (
            <p className="small muted" aria-live="polite">
              Showing {shown.length.toLocaleString('en-US')} of {agents.length.toLocaleString('en-US')} agents.
            </p>
          ) : null}
        </>
      ) : null}
      {shown.map((agent) => (
        <AgentCard key={agent.id} agent={agent} />
      ))}
    </section>
  );
}

export function DashboardScreen() {
  const dashboard = useDashboard();
  const show = useFlowStore((s) => s.show);
  return (
    <div className="screen">
      <h1>Dashboard</h1>
      {dashboard.isPending ? <Loading label="Loading what is installed…" /> : null}
      {dashboard.isError ? <ErrorPanel error={dashboard.error} title="The dashboard could not be loaded" /> : null}
      {dashboard.data ? (
        <>
          <PolicyBanner view={dashboard.data.policy?.view} notice={dashboard.data.policy?.notice} />
          <ExportFailingBanner exported={dashboard.data.activityExport} onOpen={() => show('activity')} />
          {dashboard.data.damage.length > 0 ? (
            <section className="panel panel-error" role="alert" aria-labelledby="damage-heading">
              <h2 id="damage-heading">Some saved records were damaged</h2>
              <p>They were kept aside, not deleted. What they held is not shown below.</p>
              <ul>
                {dashboard.data.damage.map((damage) => (
                  <li key={damage.keptAs}>
                    <code>
                      <PackageText text={damage.keptAs} />
                    </code>
                    : {damage.reason} ({when(damage.at)})
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <RunsUnaskedPanel agents={dashboard.data.agents} />
          <TriggerHostNote paused={pausedCounts(dashboard.data)} />
          {dashboard.data.packages.length === 0 && dashboard.data.agents.length === 0 ? (
            <p>
              Nothing is installed on this computer yet.{' '}
              <button type="button" className="link-button link-inline" onClick={() => show('open')}>
                Open a package or a template
              </button>{' '}
              to get started.
            </p>
          ) : null}
          <section aria-labelledby="packages-heading">
            <h2 id="packages-heading">Installed packages</h2>
            {dashboard.data.packages.length === 0 ? <p className="muted">No package is installed yet.</p> : null}
            <ul className="card-list">
              {dashboard.data.packages.map((pkg) => (
                <PackageCard key={pkg.name} pkg={pkg} />
              ))}
            </ul>
          </section>
          <AgentsSection agents={dashboard.data.agents} />
        </>
      ) : null}
    </div>
  );
}
