import { memo, useId, useMemo, useState, type ReactNode } from 'react';
import type { AgentEntry } from '../../../../shared/apollia-manifest';
import { CONNECTION_TYPES } from '../../../../shared/catalogues';
import type { ApoInspection } from '../../../../shared/inspection';
import { isPinnedRequirement, mcpCommandLine } from '../../../../shared/risk-summary';
import { packageVerdict, unpinnedLaunch } from '../../../../shared/verdict';
import { signatureVerdictOf, signatureVerdictWords } from '../../../../shared/signature-verdict';
import { UNSIGNED } from '../../../../shared/trust';
import type { SourceInspection } from '../../../../shared/api';
import { FamilyBadge, OutwardBadge, PermissionBadge } from '../../components/FamilyBadge';
import { VerdictPanel } from '../../components/VerdictPanel';
import { APOLLIA_NATIVE_TOOLS } from '../../../../shared/catalogues';
import type { AccessDecided, InstalledDecisions, TriggerDecided } from '../../../../shared/decisions';
import { FIRE_QUEUES_WORDS } from '../../../../shared/run-queue';
import { useFormDecisions } from './consent-decisions';
import { PackageText } from '../../components/PackageText';
import { useConsentDraft } from '../../stores/consent-store';
import { accessClassifier, type AccessRow } from '../../../../shared/access-rows';
import { AccessEntryWords, accessCounts, accessCountsText, FIRST_ROWS, firstRows, ShowAll } from './long-list';
import { countOf } from './UpdateMark';

const ReviewRow = memo(function ReviewRow({ row, decided }: { row: AccessRow; decided: AccessDecided }) {
  return (
    <li className="row access-row">
      <span className="row-main">
        <AccessEntryWords row={row} />
      </span>
      <span className="row-badges">
        <FamilyBadge family={row.family} /> <OutwardBadge outward={row.outward} /> <PermissionBadge decided={decided} />
      </span>
    </li>
  );
});

/** An agent's access as decided; a long list shows its counts and its first rows, the unticked ones first. */
function ReviewAgentAccess({
  agent,
  classify,
  decided,
}: {
  agent: AgentEntry;
  classify: (entry: string) => AccessRow;
  decided: Record<string, AccessDecided>;
}) {
  const entries = agent.defaults?.access;
  const rows = useMemo(() => (entries ?? []).map(classify), [entries, classify]);
  const [all, setAll] = useState(false);
  const listId = useId();
  const permission = (entry: string) => decided[entry]?.permission ?? 'deny';
  const shown = all ? rows : firstRows(rows, (row) => permission(row.entry) === 'deny');
  return (
    <>
      {rows.length === 0 ? <p className="muted small">No tools: it can only answer in words.</p> : null}
      {rows.length > FIRST_ROWS ? (
        <p className="small access-counts">
          {accessCountsText(accessCounts(rows, permission))}
          {all ? '' : ' Those not allowed are shown first.'}
        </p>
      ) : null}
      <ul className={rows.length > FIRST_ROWS ? 'rows rows-long' : 'rows'} id={listId}>
        {shown.map((row) => {
          const d = decided[row.entry];
          return d ? <ReviewRow key={row.entry} row={row} decided={d} /> : null;
        })}
      </ul>
      <ShowAll
        total={rows.length}
        expanded={all}
        onToggle={() => setAll(!all)}
        controls={listId}
        what="access entries"
      />
    </>
  );
}

/** What Install does to one trigger, in the decision's words. */
function TriggerOutcome({ decided, pickedPath }: { decided: TriggerDecided; pickedPath: string | undefined }) {
  if (decided.turnedOff)
    return (
      <span className="badge badge-warning-soft">Turned off by this update: you had it armed, and it changed</span>
    );
  if (!decided.armed) return <span className="badge badge-neutral">Stays off</span>;
  const folder =
    decided.folder?.kind === 'keep'
      ? `, still watching ${decided.folder.shown}`
      : decided.folder
        ? `, watching ${pickedPath ?? 'the folder you chose'}`
        : '';
  const secret =
    decided.secret?.kind === 'keep'
      ? `, its secret kept (${decided.secret.origin === 'given' ? "your sender's" : 'made here'})`
      : decided.secret?.kind === 'new'
        ? decided.secret.choice.kind === 'given'
          ? ', with the secret your sender gave'
          : ', with a new secret made here (shown once)'
        : '';
  return (
    <span className="badge badge-ask">
      {decided.status === 'unchanged' ? 'Stays armed' : 'Will be armed'}
      {folder}
      {secret}
    </span>
  );
}

/**
 * One group of the review: a heading and a disclosure. A group longer than `openUpTo` items starts
 * closed, its summary still saying how many there are, so a long package's review stays scannable.
 */
function ReviewGroup({
  id,
  title,
  count,
  summary,
  openUpTo = 12,
  always = false,
  children,
}: {
  id: string;
  title: string;
  count: number;
  summary: string;
  openUpTo?: number;
  always?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(count <= openUpTo);
  if (count === 0 && !always) return null;
  return (
    <section aria-labelledby={id} className="review-group">
      <h3 id={id}>{title}</h3>
      {count === 0 ? (
        <p className="muted small">{summary}</p>
      ) : (
        <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
          <summary>{summary}</summary>
          {/* A closed group draws nothing: a package of thousands of tools keeps the step light. */}
          {open ? children : null}
        </details>
      )}
    </section>
  );
}

/**
 * Step 4: everything that will be granted or run, grouped: agents' access, programs, servers, code, connections, pip,
 * triggers.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: being split by the consent-form rework
export function ReviewStep({
  inspection,
  sourceId,
}: {
  inspection: ApoInspection & { installedDecisions?: InstalledDecisions | null } & Partial<
      Pick<SourceInspection, 'signatureVerdict'>
    >;
  sourceId: string;
}) {
  const manifest = inspection.details?.manifest;
  const draft = useConsentDraft(sourceId);
  const decisions = useFormDecisions(inspection, sourceId);
  const classify = useMemo(() => (manifest ? accessClassifier(manifest) : null), [manifest]);
  const verdict = useMemo(() => (manifest ? packageVerdict(manifest, APOLLIA_NATIVE_TOOLS) : null), [manifest]);
  if (!manifest || !classify || !decisions || !verdict) return null;
  const agents = manifest.agents ?? [];
  const triggers = manifest.triggers ?? [];
  const servers = manifest.mcp_servers ?? [];
  const programs = servers.filter((server) => mcpCommandLine(server) !== '');
  const remote = servers.filter((server) => mcpCommandLine(server) === '');
  const code = [
    ...(manifest.tools ?? []).map((item) => ({ kind: 'Tool', item })),
    ...(manifest.workflows ?? []).map((item) => ({ kind: 'Workflow', item })),
  ];
  const requires = manifest.requires ?? [];
  const pip = manifest.pip?.packages ?? [];
  const unpinnedPip = pip.filter((requirement) => !isPinnedRequirement(requirement));
  const armed = triggers.filter((trigger) => decisions.triggers[trigger.id]?.armed).length;
  const turnedOff = triggers.filter((trigger) => decisions.triggers[trigger.id]?.turnedOff).length;
  const status = signatureVerdictWords(
    inspection.signatureVerdict ??
      signatureVerdictOf(inspection.summary?.signature ?? UNSIGNED, manifest.package.publisher),
  );
  const absent = [
    programs.length === 0 ? 'programs' : '',
    remote.length === 0 ? 'outside servers' : '',
    code.length === 0 ? 'Python code' : '',
    requires.length === 0 ? 'connections to your accounts' : '',
    pip.length === 0 ? 'Python packages' : '',
  ].filter(Boolean);
  return (
    <div className="step-body">
      <VerdictPanel verdict={verdict} />
      <p>
        You are about to install{' '}
        <strong>
          <PackageText text={manifest.package.name} />
        </strong>{' '}
        version <PackageText text={manifest.package.version} /> from <PackageText text={manifest.package.publisher} /> (
        {status.label.toLowerCase()}).
      </p>
      <ReviewGroup
        id="review-access"
        title="Access you allow"
        always
        count={agents.length}
        summary={agents.length === 0 ? 'No agents.' : `${countOf(agents.length, 'agent', 'agents')}: what each may use`}
        openUpTo={5}
      >
        {agents.map((agent) => (
          <div key={agent.id}>
            <h4>
              <PackageText text={agent.name} />
            </h4>
            <ReviewAgentAccess agent={agent} classify={classify} decided={decisions.agents[agent.id] ?? {}} />
          </div>
        ))}
      </ReviewGroup>
      <ReviewGroup
        id="review-programs"
        title="Programs it starts on this computer"
        count={programs.length}
        summary={
          programs.length === 0
            ? 'None.'
            : `${countOf(programs.length, 'program', 'programs')}, started when an agent uses one of their tools`
        }
      >
        <ul className="rows">
          {programs.map((server) => {
            const env = Object.keys(server.env ?? {});
            return (
              <li key={server.name} className="row row-block">
                <p>
                  <strong>
                    <PackageText text={server.name} />
                  </strong>
                  :{' '}
                  <code className="command">
                    <PackageText text={mcpCommandLine(server)} />
                  </code>
                  {unpinnedLaunch(server) !== null ? (
                    <>
                      {' '}
                      <span className="badge badge-warning-soft">Not pinned: can change after you consent</span>
                    </>
                  ) : null}
                </p>
                <p className="small">
                  {env.length === 0 ? (
                    'It is given no environment variables by the package.'
                  ) : (
                    <>
                      Environment variables it is given:{' '}
                      {env.map((key) => (
                        <code key={key} className="env-key">
                          <PackageText text={`${key}=${server.env?.[key] ?? ''}`} />
                        </code>
                      ))}
                    </>
                  )}
                </p>
              </li>
            );
          })}
        </ul>
      </ReviewGroup>
      <ReviewGroup
        id="review-servers"
        title="Servers it connects to"
        count={remote.length}
        summary={remote.length === 0 ? 'None.' : `${countOf(remote.length, 'server', 'servers')} outside this computer`}
      >
        <ul className="rows">
          {remote.map((server) => (
            <li key={server.name} className="row">
              <strong>
                <PackageText text={server.name} />
              </strong>
              :{' '}
              <code className="command">
                <PackageText text={server.url ?? '(no address)'} />
              </code>
            </li>
          ))}
        </ul>
      </ReviewGroup>
      <ReviewGroup
        id="review-code"
        title="Its Python code"
        count={code.length}
        summary={
          code.length === 0
            ? 'None.'
            : `${countOf(code.length, 'tool or workflow', 'tools and workflows')}; the code runs with your permissions`
        }
      >
        <ul className="rows">
          {code.map(({ kind, item }) => (
            <li key={`${kind}:${item.name}`} className="row">
              <span className="row-main">
                <PackageText text={item.description} />
                <span className="small muted block">
                  {kind}{' '}
                  <code>
                    <PackageText text={item.name} />
                  </code>{' '}
                  in{' '}
                  <code>
                    <PackageText text={item.module} />
                  </code>
                </span>
              </span>
              <span className="row-badges">
                <FamilyBadge family={item.action} />
              </span>
            </li>
          ))}
        </ul>
      </ReviewGroup>
      <ReviewGroup
        id="review-connections"
        title="Connections it uses"
        count={requires.length}
        summary={
          requires.length === 0
            ? 'None.'
            : requires.map((r) => CONNECTION_TYPES.find((c) => c.type === r.type)?.label ?? r.type).join(', ')
        }
      >
        <ul className="rows">
          {requires.map((requirement) => (
            <li key={requirement.type} className="row">
              <code>
                <PackageText text={requirement.type} />
              </code>
              {requirement.reason ? (
                <span className="small">
                  <PackageText text={requirement.reason} />
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      </ReviewGroup>
      <ReviewGroup
        id="review-pip"
        title="Python packages it installs"
        count={pip.length}
        summary={
          pip.length === 0
            ? 'None.'
            : `${countOf(pip.length, 'package', 'packages')}${unpinnedPip.length > 0 ? `, ${unpinnedPip.length} not pinned to one version` : ', each pinned to one version'}`
        }
      >
        <ul className="rows">
          {pip.map((requirement) => (
            <li key={requirement} className="row">
              <code>
                <PackageText text={requirement} />
              </code>
              {isPinnedRequirement(requirement) ? null : (
                <span className="badge badge-warning-soft">Not pinned: any version could be installed</span>
              )}
            </li>
          ))}
        </ul>
      </ReviewGroup>
      {absent.length > 0 ? (
        <p className="small muted">Nothing else to run or grant: no {absent.join(', no ')}.</p>
      ) : null}
      <ReviewGroup
        id="review-triggers"
        title="Triggers"
        always
        count={triggers.length}
        summary={
          triggers.length === 0
            ? 'None proposed.'
            : `${countOf(triggers.length, 'trigger', 'triggers')}, ${armed === 0 ? 'none' : armed} armed${turnedOff > 0 ? `, ${turnedOff} turned off by this update` : ''}`
        }
      >
        <ul className="rows">
          {triggers.map((trigger) => {
            const decided = decisions.triggers[trigger.id];
            return (
              <li key={trigger.id} className="row">
                <code>
                  <PackageText text={trigger.id} />
                </code>{' '}
                {decided ? (
                  <TriggerOutcome decided={decided} pickedPath={draft.triggers[trigger.id]?.displayPath} />
                ) : null}
                {decided?.change ? (
                  <span className="small block">
                    Changed: <PackageText text={decided.change.from} /> → <PackageText text={decided.change.to} />
                  </span>
                ) : null}
              </li>
            );
          })}
        </ul>
        {armed > 0 ? <p className="small">{FIRE_QUEUES_WORDS}</p> : null}
      </ReviewGroup>
    </div>
  );
}
