import { FolderOpen, Lock } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import type { AgentEntry } from '../../../../shared/apollia-manifest';
import { firstByName } from '../../../../shared/consent';
import type { ApoInspection } from '../../../../shared/inspection';
import type { UpdateDiff } from '../../../../shared/update-diff';
import type { InstalledDecisions } from '../../../../shared/decisions';
import type { PolicyView } from '../../../../shared/policy';
import { useFormDecisions } from './consent-decisions';
import { usePickWatchFolder } from '../../../api/hooks';
import { PackageText } from '../../components/PackageText';
import { ScheduleText } from '../../components/ScheduleText';
import { SharedSecretCheck, WebhookSecretChoice } from '../../components/WebhookSecretChoice';
import { apoSchedule } from '../../components/schedule';
import { ErrorPanel } from '../../components/Status';
import { RunsWaitNote } from '../../components/RunsWaitNote';
import { useConsentDraft, useConsentStore } from '../../stores/consent-store';
import { firstRows, FIRST_ROWS, ShowAll } from './long-list';
import { countOf, UpdateMark } from './UpdateMark';

/** The agent or workflow a trigger starts, named for people (`agents`: the package's agents by id). */
function targetName(agents: ReadonlyMap<string, AgentEntry>, target: string): string {
  const agent = agents.get(target);
  if (agent) return `the agent ${agent.name}`;
  return `the workflow ${target}`;
}

/**
 * Step 3: each proposed trigger, off unless armed; a file_watch needs a folder, a webhook gets a
 * secret. For an update, a new or changed trigger is marked (and is off: the diff never arms it).
 */
export function TriggersStep({
  inspection,
  sourceId,
}: {
  inspection: ApoInspection & {
    updateDiff?: UpdateDiff | null;
    installedDecisions?: InstalledDecisions | null;
    policy?: PolicyView;
  };
  sourceId: string;
}) {
  const manifest = inspection.details?.manifest;
  const diff = inspection.updateDiff ?? null;
  const draft = useConsentDraft(sourceId);
  const decisions = useFormDecisions(inspection, sourceId);
  const installed = inspection.installedDecisions ?? null;
  const setTrigger = useConsentStore((s) => s.setTrigger);
  const pick = usePickWatchFolder();
  // Looked up, not searched per trigger: a package may propose thousands (linear, DESIGN.md).
  const agents = useMemo(() => firstByName(manifest?.agents, (agent) => agent.id), [manifest]);
  const added = useMemo(() => new Set(diff?.triggers.added ?? []), [diff]);
  const changed = useMemo(() => new Set(diff?.triggers.changed ?? []), [diff]);
  const [all, setAll] = useState(false);
  const listId = useId();
  if (!manifest || !decisions) return null;
  const triggers = manifest.triggers ?? [];
  const armedNow = (id: string) => decisions.triggers[id]?.armed ?? false;
  // A package may propose thousands: the first ones (new, changed or armed first), the rest one
  // press away, with the counts above (as the Access step's long lists).
  const shown = all
    ? triggers
    : firstRows(triggers, (trigger) => added.has(trigger.id) || changed.has(trigger.id) || armedNow(trigger.id));
  const armedCount = triggers.filter((trigger) => armedNow(trigger.id)).length;
  return (
    <div className="step-body">
      <p>A package only proposes triggers. None starts anything unless you arm it here or later on the dashboard.</p>
      {triggers.length === 0 ? <p className="muted">This package proposes no triggers.</p> : <RunsWaitNote />}
      {pick.isError ? <ErrorPanel error={pick.error} title="The folder could not be chosen" /> : null}
      {triggers.length > FIRST_ROWS ? (
        <p className="small access-counts">
          {countOf(triggers.length, 'trigger', 'triggers')} proposed; {armedCount.toLocaleString('en-US')} armed.
        </p>
      ) : null}
      <ul className="rows" id={listId}>
        {shown.map((trigger) => {
          const decided = decisions.triggers[trigger.id];
          const answer = draft.triggers[trigger.id];
          const armed = decided?.armed ?? false;
          const id = `arm-${trigger.id}`;
          const needsFolder = trigger.source.type === 'file_watch';
          // What the installed version keeps for it (a changed trigger armed again keeps its folder and secret too).
          const had =
            installed && decided?.status !== 'new' && Object.hasOwn(installed.triggers, trigger.id)
              ? installed.triggers[trigger.id]
              : undefined;
          const folderShown = answer?.folderId ? answer.displayPath : (had?.folder ?? undefined);
          const hasFolder = Boolean(answer?.folderId) || Boolean(had?.folder);
          const keptSecret = trigger.source.type === 'webhook' ? (had?.secret ?? null) : null;
          const state = { ...(answer ?? {}), arm: armed };
          const chooseFolder = (event: { currentTarget: HTMLButtonElement }) => {
            const button = event.currentTarget;
            pick.mutate(undefined, {
              onSuccess: (folder) => {
                if (folder)
                  setTrigger(sourceId, trigger.id, {
                    arm: true,
                    folderId: folder.folderId,
                    displayPath: folder.displayPath,
                  });
              },
              // Disabled while the dialog is open, the button lost focus: give it back.
              onSettled: () => requestAnimationFrame(() => button.focus()),
            });
          };
          return (
            <li key={trigger.id} className="row row-block card">
              <h3 className="h4">
                Trigger{' '}
                <code>
                  <PackageText text={trigger.id} />
                </code>
                {added.has(trigger.id) ? (
                  <>
                    {' '}
                    <UpdateMark mark={{ kind: 'new' }} />
                  </>
                ) : changed.has(trigger.id) ? (
                  <>
                    {' '}
                    <span className="badge badge-changed">Changed: arm it again if you want it</span>
                  </>
                ) : null}
              </h3>
              <p>
                Starts <PackageText text={targetName(agents, trigger.target)} />
                {trigger.input ? (
                  <>
                    {' '}
                    with the message “<PackageText text={trigger.input} />”
                  </>
                ) : null}
              </p>
              <ScheduleText view={apoSchedule(trigger.source)} />
              {decided?.change && !decided.turnedOff ? (
                <p className="small">
                  Was: <PackageText text={decided.change.from} />. Now: <PackageText text={decided.change.to} />.
                </p>
              ) : null}
              {decided?.turnedOff ? (
                <p className="small panel-warning" role="note">
                  You had it armed. This update turns it off, because <PackageText text={decided.turnedOff} />. Arm it
                  again if you want it.
                </p>
              ) : null}
              {decided?.status === 'unchanged' && armed && !answer ? (
                <p className="small">Armed before, and kept armed by this update.</p>
              ) : null}
              {needsFolder ? (
                <div className="folder-row">
                  <p className="small">
                    {folderShown ? (
                      <>
                        Watched folder:{' '}
                        <code>
                          <PackageText text={folderShown} />
                        </code>
                      </>
                    ) : (
                      'To arm it, choose the folder it watches.'
                    )}
                  </p>
                  <button type="button" className="button" onClick={chooseFolder} disabled={pick.isPending}>
                    <FolderOpen aria-hidden="true" size={16} />{' '}
                    {folderShown ? `Choose another folder for ${trigger.id}…` : `Choose a folder for ${trigger.id}…`}
                  </button>
                </div>
              ) : null}
              {trigger.source.type === 'webhook' && armed ? (
                <WebhookSecretChoice
                  id={id}
                  label={trigger.id}
                  kept={keptSecret}
                  value={answer?.webhookSecret ?? (keptSecret ? { kind: 'keep' } : { kind: 'make' })}
                  onChange={(webhookSecret) => setTrigger(sourceId, trigger.id, { ...state, arm: true, webhookSecret })}
                />
              ) : null}
              {trigger.source.type === 'webhook' && armed ? (
                <SharedSecretCheck
                  triggerId={`${manifest.package.name}/${trigger.id}`}
                  label={trigger.id}
                  draft={answer?.webhookSecret}
                />
              ) : null}
              {decided?.policy ? (
                <p className="small panel-warning" role="note" id={`${id}-policy`}>
                  <Lock aria-hidden="true" size={14} /> Locked by your organization: {decided.policy}.
                  {decided.held ? ' You had it armed: it stays armed, and fires again when the policy allows it.' : ''}
                </p>
              ) : null}
              <div className="check-row">
                <input
                  id={id}
                  type="checkbox"
                  checked={armed}
                  disabled={(needsFolder && !hasFolder) || Boolean(decided?.policy)}
                  aria-describedby={
                    decided?.policy ? `${id}-policy` : needsFolder && !hasFolder ? `${id}-hint` : undefined
                  }
                  onChange={(event) => setTrigger(sourceId, trigger.id, { ...state, arm: event.target.checked })}
                />
                <label htmlFor={id}>Arm {trigger.id}</label>
                {needsFolder && !hasFolder ? (
                  <span id={`${id}-hint`} className="small muted">
                    Choose a folder first.
                  </span>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
      <ShowAll total={triggers.length} expanded={all} onToggle={() => setAll(!all)} controls={listId} what="triggers" />
    </div>
  );
}
