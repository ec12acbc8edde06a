import { Lock } from 'lucide-react';
import { memo, useId, useMemo, useState } from 'react';
import type {
  AgentEntry,
  ApolliaManifest,
  ToolEntry,
  WorkflowEntry,
} from '../../../../shared/manifests/apollia-manifest';
import { FAMILY_SEVERITY, isSensitive } from '../../../../shared/manifests/apollia-manifest';
import type { ApoInspection } from '../../../../shared/manifests/inspection';
import { FAMILY_LABELS } from '../../../../shared/words/words';
import type { UpdateDiff } from '../../../../shared/decisions/update-diff';
import { useSettings } from '../../../api/hooks';
import { FamilyBadge, OutwardBadge, PermissionBadge } from '../../components/FamilyBadge';
import { type AccessDecided, decideAgent } from '../../../../shared/decisions/access-decisions';
import type { DecisionContext } from '../../../../shared/decisions/decision-input';
import type { InstalledDecisions } from '../../../../shared/decisions/decisions';
import { useDecisionContext } from './consent-decisions';
import { PackageText } from '../../components/PackageText';
import { useConsentStore } from '../../stores/consent-store';
import {
  accessClassifier,
  accessMarker,
  grantsSensitive,
  type AccessMark,
  type AccessRow,
} from '../../../../shared/decisions/access-rows';
import { AgentCard } from './AgentCard';
import { ConnectionsSection, McpServersSection, PipSection } from './PackageParts';
import { countOf, UpdateMark } from './UpdateMark';
import { AccessEntryWords, accessCounts, accessCountsText, FIRST_ROWS, firstRows, ShowAll } from './long-list';

/**
 * One access entry: its box, what it is, an update's mark, its family and how it runs, as the one
 * decision function decided it. Where the person may choose, a second box lets a granted entry
 * run without asking (off by default for code only its author vouches for). Memoised: a tick redraws one row.
 */
const AccessEntryRow = memo(function AccessEntryRow({
  sourceId,
  agentId,
  row,
  decided,
  mark,
}: {
  sourceId: string;
  agentId: string;
  row: AccessRow;
  decided: AccessDecided;
  mark: AccessMark | undefined;
}) {
  const setAccess = useConsentStore((s) => s.setAccess);
  const id = `access-${agentId}-${row.entry}`;
  const granted = decided.permission !== 'deny';
  // Locked by the organization's policy: shown with its reason, never a box the person could tick.
  const locked = decided.reason === 'policy' && decided.policy !== null && decided.permission === 'deny';
  // The choice matters where the app cannot check what the code does: a package's own code, or a tool known only when
  // it runs.
  const offerAllow = granted && decided.canAllow && decided.grantedAs === 'ask';
  const chosenAllow = granted && decided.canAllow && decided.reason === 'answer' && decided.permission === 'allow';
  return (
    <li className="row access-row">
      <input
        id={id}
        type="checkbox"
        checked={granted}
        disabled={decided.ownerDenied || locked}
        aria-describedby={`${id}-how`}
        onChange={(event) => setAccess(sourceId, agentId, row.entry, event.target.checked)}
      />
      <div className="access-main">
        <label htmlFor={id}>
          <AccessEntryWords row={row} />
        </label>
        {offerAllow || chosenAllow ? (
          <div className="check-row small allow-choice">
            <input
              id={`${id}-allow`}
              type="checkbox"
              checked={decided.permission === 'allow'}
              onChange={(event) => setAccess(sourceId, agentId, row.entry, event.target.checked ? 'allow' : 'ask')}
            />
            <label htmlFor={`${id}-allow`}>
              Let it run without asking me each time (
              {row.kind === 'pkg' || row.kind === 'workflow'
                ? 'only its author says it only reads: allow it only if you trust them'
                : 'what it does is known only when it runs: allow it only if you trust where it comes from'}
              )
            </label>
          </div>
        ) : null}
      </div>
      <span className="row-badges">
        <UpdateMark mark={mark} />
        <FamilyBadge family={row.family} />
        <OutwardBadge outward={row.outward} />
        {locked ? (
          <span className="badge badge-deny" id={`${id}-how`}>
            <Lock aria-hidden="true" size={12} /> Locked by your organization: {decided.policy}
          </span>
        ) : decided.ownerDenied ? (
          <span className="badge badge-deny" id={`${id}-how`}>
            Denied in your Settings
          </span>
        ) : (
          <PermissionBadge decided={decided} id={`${id}-how`} />
        )}
      </span>
    </li>
  );
});

/**
 * An agent's default access, each entry untickable, as the one decision function decides it for
 * this agent's answers (only this agent is decided again on a tick). A long list shows its counts
 * and its first rows (an update's new ones first), the rest one press away.
 */
function AgentAccess({
  agent,
  classify,
  marksOf,
  sourceId,
  context,
}: {
  agent: AgentEntry;
  classify: (entry: string) => AccessRow;
  marksOf: (agentId: string) => Map<string, AccessMark>;
  sourceId: string;
  context: DecisionContext;
}) {
  const entries = agent.defaults?.access;
  const rows = useMemo(() => (entries ?? []).map(classify), [entries, classify]);
  const marks = useMemo(() => marksOf(agent.id), [marksOf, agent.id]);
  const answers = useConsentStore((s) => s.drafts[sourceId]?.access[agent.id]);
  const decided = useMemo(() => decideAgent(context, agent, answers), [context, agent, answers]);
  const [all, setAll] = useState(false);
  const listId = useId();
  const shown = useMemo(() => (all ? rows : firstRows(rows, (row) => marks.has(row.entry))), [all, rows, marks]);
  const permission = (entry: string) => decided[entry]?.permission ?? 'deny';
  const long = shown.length < rows.length || all;
  return (
    <fieldset className="access-table">
      <legend>
        What <PackageText text={agent.name} /> may use (untick anything you do not want to allow)
      </legend>
      {long ? (
        <p className="small access-counts">
          {accessCountsText(accessCounts(rows, permission))}
          {marks.size > 0
            ? ` ${marks.size.toLocaleString('en-US')} new or changed in this version${all ? '' : ', shown first'}.`
            : ''}
        </p>
      ) : null}
      <ul className={rows.length > FIRST_ROWS ? 'rows rows-long' : 'rows'} id={listId}>
        {shown.map((row) => {
          const d = decided[row.entry];
          return d ? (
            <AccessEntryRow
              key={row.entry}
              sourceId={sourceId}
              agentId={agent.id}
              row={row}
              decided={d}
              mark={marks.get(row.entry)}
            />
          ) : null;
        })}
      </ul>
      <ShowAll
        total={rows.length}
        expanded={all}
        onToggle={() => setAll(!all)}
        controls={listId}
        what="access entries"
      />
    </fieldset>
  );
}

type Capability = { kind: 'Tool'; item: ToolEntry } | { kind: 'Workflow'; item: WorkflowEntry };

/** One tool or workflow of the package. Memoised: showing more rows draws only the new ones. */
const CapabilityRow = memo(function CapabilityRow({
  capability,
  mark,
}: {
  capability: Capability;
  mark: AccessMark | undefined;
}) {
  const { kind, item } = capability;
  return (
    <li className="row row-block access-row">
      <p>
        <strong>
          <PackageText text={item.description} />
        </strong>
      </p>
      <p className="small">
        {kind === 'Tool' ? 'Python tool' : 'Python workflow'}{' '}
        <code>
          <PackageText text={item.name} />
        </code>{' '}
        <UpdateMark mark={mark} /> <span className="muted">its author says:</span> <FamilyBadge family={item.action} />
      </p>
      {capability.kind === 'Workflow' && capability.item.steps && capability.item.steps.length > 0 ? (
        <p className="small">
          Steps: <PackageText text={capability.item.steps.join(' → ')} />
        </p>
      ) : null}
      <p className="small muted">
        Code:{' '}
        <code>
          <PackageText text={item.module} />
        </code>
      </p>
    </li>
  );
});

/** The marks an update puts on the package's tools and workflows: new ones, and those whose family changed. */
function capabilityMarks(diff: UpdateDiff | null): Map<string, AccessMark> {
  const marks = new Map<string, AccessMark>();
  if (!diff) return marks;
  for (const [kind, part] of [
    ['Tool', diff.tools],
    ['Workflow', diff.workflows],
  ] as const) {
    for (const name of part.added) marks.set(`${kind}:${name}`, { kind: 'new' });
    for (const change of part.familyChanged)
      marks.set(`${kind}:${change.name}`, { kind: 'changed', from: change.from, to: change.to });
  }
  return marks;
}

/** Tools and workflows: a long list shows how many of each family, and its first rows. */
const CapabilitiesSection = memo(function CapabilitiesSection({
  manifest,
  diff,
}: {
  manifest: ApolliaManifest;
  diff: UpdateDiff | null;
}) {
  const items = useMemo<Capability[]>(
    () => [
      ...(manifest.tools ?? []).map((item): Capability => ({ kind: 'Tool', item })),
      ...(manifest.workflows ?? []).map((item): Capability => ({ kind: 'Workflow', item })),
    ],
    [manifest],
  );
  const marks = useMemo(() => capabilityMarks(diff), [diff]);
  const [all, setAll] = useState(false);
  const listId = useId();
  const key = (c: Capability) => `${c.kind}:${c.item.name}`;
  const shown = useMemo(() => (all ? items : firstRows(items, (c) => marks.has(key(c)))), [all, items, marks]);
  const tools = manifest.tools?.length ?? 0;
  const workflows = manifest.workflows?.length ?? 0;
  const what = workflows === 0 ? 'tools' : tools === 0 ? 'workflows' : 'tools and workflows';
  const families = useMemo(() => {
    const counts = new Map<keyof typeof FAMILY_LABELS, number>();
    for (const { item } of items) counts.set(item.action, (counts.get(item.action) ?? 0) + 1);
    return FAMILY_SEVERITY.flatMap((family) =>
      counts.has(family) ? [[family, counts.get(family) ?? 0] as const] : [],
    );
  }, [items]);
  const sensitive = families.reduce((sum, [family, count]) => sum + (isSensitive(family) ? count : 0), 0);
  return (
    <section aria-labelledby="tools-heading">
      <h3 id="tools-heading">Tools and workflows (Python code in the package)</h3>
      {items.length > 0 ? (
        <p className="small">
          This code runs with your permissions when an agent or a trigger uses it. What each part says it does is its
          author's word: Apollia does not check it.
        </p>
      ) : null}
      {items.length === 0 ? <p className="muted">None.</p> : null}
      {shown.length < items.length || all ? (
        <p className="small access-counts">
          {countOf(tools, 'tool', 'tools')} and {countOf(workflows, 'workflow', 'workflows')};{' '}
          {sensitive.toLocaleString('en-US')} sensitive:{' '}
          {families
            .map(([family, count]) => `${count.toLocaleString('en-US')} ${FAMILY_LABELS[family].toLowerCase()}`)
            .join(', ')}
          .
          {marks.size > 0
            ? ` ${marks.size.toLocaleString('en-US')} new or changed in this version${all ? '' : ', shown first'}.`
            : ''}
        </p>
      ) : null}
      <ul className={items.length > FIRST_ROWS ? 'rows rows-long' : 'rows'} id={listId}>
        {shown.map((capability) => (
          <CapabilityRow key={key(capability)} capability={capability} mark={marks.get(key(capability))} />
        ))}
      </ul>
      <ShowAll total={items.length} expanded={all} onToggle={() => setAll(!all)} controls={listId} what={what} />
    </section>
  );
});

/**
 * Step 2: agents and their default access (each untickable), tools, connections, MCP servers, pip.
 * Memoised and not subscribed to the draft: a tick redraws its agent's list, not the step.
 */
export const AccessStep = memo(function AccessStep({
  inspection,
  sourceId,
}: {
  inspection: ApoInspection & { updateDiff?: UpdateDiff | null; installedDecisions?: InstalledDecisions | null };
  sourceId: string;
}) {
  const manifest = inspection.details?.manifest;
  const diff = inspection.updateDiff ?? null;
  const settings = useSettings();
  const classify = useMemo(() => (manifest ? accessClassifier(manifest) : null), [manifest]);
  // Once per diff, not per agent: an update may add thousands of agents.
  const marksOf = useMemo(() => accessMarker(diff), [diff]);
  const newAgents = useMemo(() => new Set(diff?.agents.added ?? []), [diff]);
  const context = useDecisionContext(inspection);
  // An agent granted a sensitive entry by default opens expanded: decided once, as the form first shows it, so a card
  // never closes under the person's hand when they untick.
  const risky = useMemo(() => {
    if (!manifest || !classify || !context) return new Set<string>();
    const agents = manifest.agents ?? [];
    return new Set(
      agents.filter((a) => grantsSensitive(decideAgent(context, a, undefined), classify)).map((a) => a.id),
    );
  }, [manifest, classify, context]);
  if (!manifest || !classify) return null;
  const code = (manifest.tools?.length ?? 0) + (manifest.workflows?.length ?? 0);
  const requires = manifest.requires ?? [];
  const servers = manifest.mcp_servers ?? [];
  const pip = manifest.pip?.packages ?? [];
  // An empty section would only say "None.": they are named together in one line instead.
  const absent = [
    code === 0 ? 'Python code' : '',
    requires.length === 0 ? 'connections to your accounts' : '',
    servers.length === 0 ? 'programs or servers' : '',
    pip.length === 0 ? 'Python packages' : '',
  ].filter(Boolean);
  const connectionAvailable = (type: string) => settings.data?.connections.find((c) => c.type === type)?.available;

  return (
    <div className="step-body">
      <section aria-labelledby="agents-heading">
        <h3 id="agents-heading">Agents</h3>
        {(manifest.agents ?? []).length === 0 ? <p className="muted">This package has no agents.</p> : null}
        {(manifest.agents ?? []).map((agent, index) => {
          const changed =
            diff !== null && (newAgents.has(agent.id) || (diff.proposedAccess[agent.id]?.length ?? 0) > 0);
          return (
            <AgentCard
              key={agent.id}
              agent={agent}
              isNew={newAgents.has(agent.id)}
              open={index < 3 || changed || risky.has(agent.id)}
              access={
                context ? (
                  <AgentAccess
                    agent={agent}
                    classify={classify}
                    marksOf={marksOf}
                    sourceId={sourceId}
                    context={context}
                  />
                ) : null
              }
            />
          );
        })}
      </section>

      {code > 0 ? <CapabilitiesSection manifest={manifest} diff={diff} /> : null}
      <ConnectionsSection requires={requires} connectionAvailable={connectionAvailable} />
      <McpServersSection servers={servers} />
      <PipSection pip={pip} />
      {absent.length > 0 ? <p className="muted">It brings no {absent.join(', no ')}.</p> : null}
    </div>
  );
});
