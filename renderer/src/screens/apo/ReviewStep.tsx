import { memo, useId, useMemo, useState } from 'react';
import type { AgentEntry, TriggerEntry } from '../../../../shared/manifests/apollia-manifest';
import type { ApoInspection } from '../../../../shared/manifests/inspection';
import { grantedManifest, packageVerdict } from '../../../../shared/decisions/verdict';
import { signatureVerdictOf, signatureVerdictWords } from '../../../../shared/trust/signature-verdict';
import { UNSIGNED } from '../../../../shared/trust/trust';
import type { SourceInspection } from '../../../../shared/contract/api';
import { FamilyBadge, OutwardBadge, PermissionBadge } from '../../components/FamilyBadge';
import { VerdictPanel } from '../../components/VerdictPanel';
import { APOLLIA_NATIVE_TOOLS } from '../../../../shared/manifests/catalogues';
import type { AccessDecided } from '../../../../shared/decisions/access-decisions';
import type { Decisions, InstalledDecisions } from '../../../../shared/decisions/decisions';
import type { TriggerDecided } from '../../../../shared/decisions/trigger-decisions';
import { FIRE_QUEUES_WORDS } from '../../../../shared/triggers/run-queue';
import { useFormDecisions } from './consent-decisions';
import { PackageText } from '../../components/PackageText';
import { type ConsentDraft, useConsentDraft } from '../../stores/consent-store';
import { accessClassifier, grantsSensitive, type AccessRow } from '../../../../shared/decisions/access-rows';
import { AccessEntryWords, accessCounts, accessCountsText, FIRST_ROWS, firstRows, ShowAll } from './long-list';
import { countOf } from './UpdateMark';
import { PublisherChange } from './UpdateChanges';
import {
  absentParts,
  CodeGroup,
  ConnectionsGroup,
  PipGroup,
  ProgramsGroup,
  ReviewGroup,
  reviewParts,
  ServersGroup,
} from './ReviewGroups';

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

/**
 * An agent's access as decided; a long list shows its counts and its first rows: the sensitive ones it is granted and
 * the unticked ones first, so nothing risky waits behind "Show all".
 */
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
  const shown = all
    ? rows
    : firstRows(
        rows,
        (row) => permission(row.entry) === 'deny',
        (row) => row.family !== 'read',
      );
  return (
    <>
      {rows.length === 0 ? <p className="muted small">No tools: it can only answer in words.</p> : null}
      {rows.length > FIRST_ROWS ? (
        <p className="small access-counts">
          {accessCountsText(accessCounts(rows, permission))}
          {all ? '' : ' Those not allowed are shown first, then the sensitive ones.'}
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

/** The access group: each agent's name and the access it is given. */
function AccessGroup({
  agents,
  classify,
  decisions,
}: {
  agents: AgentEntry[];
  classify: (entry: string) => AccessRow;
  decisions: Decisions;
}) {
  return (
    <ReviewGroup
      id="review-access"
      title="Access you allow"
      always
      count={agents.length}
      summary={agents.length === 0 ? 'No agents.' : `${countOf(agents.length, 'agent', 'agents')}: what each may use`}
      openUpTo={5}
      openAnyway={agents.some((agent) => grantsSensitive(decisions.agents[agent.id] ?? {}, classify))}
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
  );
}

/** The triggers group: how many will be armed or are turned off, and what Install does to each. */
function TriggersGroup({
  triggers,
  decisions,
  draft,
}: {
  triggers: TriggerEntry[];
  decisions: Decisions;
  draft: ConsentDraft;
}) {
  const armed = triggers.filter((trigger) => decisions.triggers[trigger.id]?.armed).length;
  const turnedOff = triggers.filter((trigger) => decisions.triggers[trigger.id]?.turnedOff).length;
  return (
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
  );
}

/**
 * Step 4: everything that will be granted or run, grouped: agents' access, programs, servers, code, connections, pip,
 * triggers.
 */
export function ReviewStep({
  inspection,
  sourceId,
}: {
  inspection: ApoInspection & { installedDecisions?: InstalledDecisions | null } & Partial<
      Pick<SourceInspection, 'signatureVerdict' | 'updateDiff' | 'signerFingerprint'>
    >;
  sourceId: string;
}) {
  const manifest = inspection.details?.manifest;
  const draft = useConsentDraft(sourceId);
  const decisions = useFormDecisions(inspection, sourceId);
  const classify = useMemo(() => (manifest ? accessClassifier(manifest) : null), [manifest]);
  // The verdict of what the person's answers grant, not of the package's proposals: unticked tools leave it.
  const verdict = useMemo(
    () =>
      manifest && decisions ? packageVerdict(grantedManifest(manifest, decisions.agents), APOLLIA_NATIVE_TOOLS) : null,
    [manifest, decisions],
  );
  if (!manifest || !classify || !decisions || !verdict) return null;
  const parts = reviewParts(manifest);
  const absent = absentParts(parts);
  const status = signatureVerdictWords(
    inspection.signatureVerdict ??
      signatureVerdictOf(inspection.summary?.signature ?? UNSIGNED, manifest.package.publisher),
  );
  return (
    <div className="step-body">
      {/* A changed publisher is said again where Install is pressed, not only on the update's first step. */}
      {inspection.updateDiff?.publisher ? (
        <PublisherChange
          publisher={inspection.updateDiff.publisher}
          signed={inspection.signatureVerdict?.signature.state === 'verified'}
          headingId="review-publisher-change-heading"
        />
      ) : null}
      <VerdictPanel verdict={verdict} />
      <p>
        You are about to install{' '}
        <strong>
          <PackageText text={manifest.package.name} />
        </strong>{' '}
        version <PackageText text={manifest.package.version} /> from <PackageText text={manifest.package.publisher} /> (
        {status.label.toLowerCase()}).
      </p>
      {inspection.signerFingerprint ? (
        <p className="small" role="note" aria-label="Fingerprint of the signing key">
          Signed by the key with fingerprint <code className="fingerprint">{inspection.signerFingerprint}</code>:
          compare it with the one the publisher gave you, or with Settings → Trusted publishers.
        </p>
      ) : null}
      <AccessGroup agents={manifest.agents ?? []} classify={classify} decisions={decisions} />
      <ProgramsGroup programs={parts.programs} />
      <ServersGroup remote={parts.remote} />
      <CodeGroup code={parts.code} />
      <ConnectionsGroup requires={parts.requires} />
      <PipGroup pip={parts.pip} />
      {absent.length > 0 ? (
        <p className="small muted">Nothing else to run or grant: no {absent.join(', no ')}.</p>
      ) : null}
      <TriggersGroup triggers={manifest.triggers ?? []} decisions={decisions} draft={draft} />
    </div>
  );
}
