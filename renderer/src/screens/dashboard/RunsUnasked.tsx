/**
 * How an agent's tools run, said and switched on the dashboard: the outbound tools that run
 * without asking listed first with a one-click Ask; a package tool's Ask first / Run without asking on its row; a
 * template agent's switch between asking and running unattended. Each goes through the core's decision function
 * (`setToolAsks`, `setApprovals`), and a choice the organization's policy forbids is locked at the control with its
 * reason.
 */
import { Lock } from 'lucide-react';
import type { AccessView, AgentView } from '../../../../shared/contract/api';
import { unattendedLocked } from '../../../../shared/decisions/approvals-decision';
import { approvalsSummary } from '../../../../shared/decisions/approvals-words';
import { useDashboard, useSetApprovals, useSetToolAsks } from '../../../api/hooks';
import { PackageText } from '../../components/PackageText';
import { ErrorPanel } from '../../components/Status';
import { outboundUnasked, runsSwitch } from './runs-unasked';

/** Why running without asking is locked here (the organization's reason), or null. */
function useUnattendedLock(): string | null {
  const dashboard = useDashboard();
  return unattendedLocked(dashboard.data?.policy?.view.effective);
}

/** The outbound tools that run without asking, each with the switch that makes it ask; nothing when there is none. */
export function RunsUnaskedPanel({ agents }: { agents: readonly AgentView[] }) {
  const rows = outboundUnasked(agents);
  const asks = useSetToolAsks();
  const approvals = useSetApprovals();
  if (rows.length === 0) return null;
  const busy = asks.isPending || approvals.isPending;
  return (
    <section className="panel panel-warning" aria-labelledby="runs-unasked-heading">
      <h2 id="runs-unasked-heading">Sends outside without asking</h2>
      <p>
        {rows.length === 1 ? 'This tool sends' : 'These tools send'} what {rows.length === 1 ? 'it looks' : 'they look'}{' '}
        up outside this computer, and {rows.length === 1 ? 'runs' : 'run'} without asking you first: what the agent read
        here could leave with the query.
      </p>
      <ul className="rows">
        {rows.map(({ agent, access, switches }) => (
          <li key={`${agent.id} ${access.tool}`} className="row">
            <span>
              <strong>
                <PackageText text={agent.displayName} />
              </strong>
              : <PackageText text={access.what} />{' '}
              <code className="small">
                <PackageText text={access.tool} />
              </code>
              {switches === 'agent' ? (
                <span className="small row-note">It runs unattended: every tool it is given runs without asking.</span>
              ) : null}
            </span>
            <button
              type="button"
              className="button button-small"
              aria-disabled={busy || undefined}
              aria-label={
                switches === 'tool'
                  ? `Make ${access.tool} ask first for ${agent.displayName}`
                  : `Make ${agent.displayName} ask before each tool`
              }
              onClick={() => {
                if (busy) return;
                if (switches === 'tool') asks.mutate({ agentId: agent.id, tool: access.tool, asks: true });
                else approvals.mutate({ agentId: agent.id, approvals: 'ask' });
              }}
            >
              {switches === 'tool' ? 'Ask first' : 'Make it ask first'}
            </button>
          </li>
        ))}
      </ul>
      {(asks.error ?? approvals.error) ? (
        <ErrorPanel error={(asks.error ?? approvals.error) as Error} title="Nothing was changed" />
      ) : null}
    </section>
  );
}

/** A package tool's row: Ask first when it runs without asking, Run without asking where the person may choose it. */
export function RunsSwitchButton({ agent, access }: { agent: AgentView; access: AccessView }) {
  const asks = useSetToolAsks();
  const locked = useUnattendedLock();
  const choice = runsSwitch(agent, access);
  if (choice === null) return null;
  const lockedHere = choice === 'unasked' && locked !== null;
  return (
    <>
      <button
        type="button"
        className="button button-small"
        disabled={lockedHere}
        aria-disabled={asks.isPending || undefined}
        aria-label={`${choice === 'ask' ? 'Make it ask first' : 'Let it run without asking'}: ${access.tool} for ${agent.displayName}`}
        onClick={() => {
          if (!asks.isPending) asks.mutate({ agentId: agent.id, tool: access.tool, asks: choice === 'ask' });
        }}
      >
        {choice === 'ask' ? 'Ask first' : 'Run without asking'}
      </button>
      {lockedHere ? (
        <span className="small row-note">
          <Lock aria-hidden="true" size={12} /> Running without asking is locked by your organization: {locked}.
        </span>
      ) : null}
      {asks.isError ? <ErrorPanel error={asks.error} title="How it runs was not changed" /> : null}
    </>
  );
}

/** A template agent's approvals, said, with the switch to the other one (running unattended locked by a policy). */
export function ApprovalsSwitch({ agent }: { agent: AgentView }) {
  const set = useSetApprovals();
  const locked = useUnattendedLock();
  if (agent.approvals === null) return null;
  const toNever = agent.approvals === 'ask';
  const lockedHere = toNever && locked !== null;
  return (
    <div className="approvals-switch">
      <p className="small">It {approvalsSummary(agent.approvals)}.</p>
      {agent.archived ? null : (
        <p className="small">
          <button
            type="button"
            className="button button-small"
            disabled={lockedHere}
            aria-disabled={set.isPending || undefined}
            aria-label={
              toNever ? `Let ${agent.displayName} run unattended` : `Make ${agent.displayName} ask before each tool`
            }
            onClick={() => {
              if (!set.isPending) set.mutate({ agentId: agent.id, approvals: toNever ? 'never' : 'ask' });
            }}
          >
            {toNever ? 'Let it run unattended' : 'Ask me before each tool'}
          </button>{' '}
          {lockedHere ? (
            <span>
              <Lock aria-hidden="true" size={12} /> Locked by your organization: {locked}.
            </span>
          ) : toNever ? (
            <span className="muted">Unattended, the tools it is given run without asking; pins still hold.</span>
          ) : null}
        </p>
      )}
      {set.isError ? <ErrorPanel error={set.error} title="Its approvals were not changed" /> : null}
    </div>
  );
}
