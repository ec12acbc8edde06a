import { FolderOpen, Lock } from 'lucide-react';
import type { TriggerEntry } from '../../../../shared/manifests/apollia-manifest';
import type { InstalledDecisions } from '../../../../shared/decisions/decisions';
import type { TriggerDecided } from '../../../../shared/decisions/trigger-decisions';
import type { usePickWatchFolder } from '../../../api/hooks';
import { PackageText } from '../../components/PackageText';
import { ScheduleText } from '../../components/ScheduleText';
import { SharedSecretCheck, WebhookSecretChoice } from '../../components/WebhookSecretChoice';
import { apoSchedule } from '../../components/schedule';
import type { TriggerDraft } from '../../stores/consent-store';
import { UpdateMark } from './UpdateMark';

/** The id the Triggers step gives a trigger's controls (its arm box, and its secret's field beside it). */
export function triggerControlId(triggerId: string): string {
  return `arm-${triggerId}`;
}

/** What the installed version records for a trigger, as it keeps it (its folder, its secret). */
export type InstalledTrigger = InstalledDecisions['triggers'][string];

/**
 * One proposed trigger on the Triggers step: what it starts and when, what an update did to it, its folder or
 * secret, and the box that arms it.
 */
export function TriggerCard({
  trigger,
  packageName,
  target,
  mark,
  decided,
  answer,
  had,
  pick,
  onSet,
}: {
  trigger: TriggerEntry;
  packageName: string;
  /** The agent or workflow it starts, in words. */
  target: string;
  /** How an update stands to it: new, changed, or neither. */
  mark: 'new' | 'changed' | null;
  decided: TriggerDecided | undefined;
  answer: TriggerDraft | undefined;
  /** What the installed version keeps for it (a changed trigger armed again keeps its folder and secret too). */
  had: InstalledTrigger | undefined;
  /** The one folder dialog of the step: open, it disables every trigger's folder button. */
  pick: ReturnType<typeof usePickWatchFolder>;
  onSet: (draft: TriggerDraft) => void;
}) {
  const armed = decided?.armed ?? false;
  const id = triggerControlId(trigger.id);
  const needsFolder = trigger.source.type === 'file_watch';
  const folderShown = answer?.folderId ? answer.displayPath : (had?.folder ?? undefined);
  const hasFolder = Boolean(answer?.folderId) || Boolean(had?.folder);
  const keptSecret = trigger.source.type === 'webhook' ? (had?.secret ?? null) : null;
  const state = { ...(answer ?? {}), arm: armed };
  const chooseFolder = (event: { currentTarget: HTMLButtonElement }) => {
    const button = event.currentTarget;
    pick.mutate(undefined, {
      onSuccess: (folder) => {
        if (folder) onSet({ arm: true, folderId: folder.folderId, displayPath: folder.displayPath });
      },
      // Disabled while the dialog is open, the button lost focus: give it back.
      onSettled: () => requestAnimationFrame(() => button.focus()),
    });
  };
  return (
    <li className="row row-block card">
      <TriggerHeading triggerId={trigger.id} mark={mark} />
      <p>
        Starts <PackageText text={target} />
        {trigger.input ? (
          <>
            {' '}
            with the message “<PackageText text={trigger.input} />”
          </>
        ) : null}
      </p>
      <ScheduleText view={apoSchedule(trigger.source)} />
      <UpdateNotes decided={decided} keptArmed={decided?.status === 'unchanged' && armed && !answer} />
      {needsFolder ? (
        <FolderChoice
          triggerId={trigger.id}
          folderShown={folderShown}
          onChoose={chooseFolder}
          choosing={pick.isPending}
        />
      ) : null}
      {trigger.source.type === 'webhook' && armed ? (
        <WebhookSecretChoice
          id={id}
          label={trigger.id}
          kept={keptSecret}
          value={answer?.webhookSecret ?? (keptSecret ? { kind: 'keep' } : { kind: 'make' })}
          onChange={(webhookSecret) => onSet({ ...state, arm: true, webhookSecret })}
        />
      ) : null}
      {trigger.source.type === 'webhook' && armed ? (
        <SharedSecretCheck
          triggerId={`${packageName}/${trigger.id}`}
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
      <ArmCheck
        id={id}
        triggerId={trigger.id}
        armed={armed}
        needsFolder={needsFolder && !hasFolder}
        locked={Boolean(decided?.policy)}
        onArm={(arm) => onSet({ ...state, arm })}
      />
    </li>
  );
}

/** The trigger's name, marked when an update adds it or changes it (a changed one is off until armed again). */
function TriggerHeading({ triggerId, mark }: { triggerId: string; mark: 'new' | 'changed' | null }) {
  return (
    <h3 className="h4">
      Trigger{' '}
      <code>
        <PackageText text={triggerId} />
      </code>
      {mark === 'new' ? (
        <>
          {' '}
          <UpdateMark mark={{ kind: 'new' }} />
        </>
      ) : mark === 'changed' ? (
        <>
          {' '}
          <span className="badge badge-changed">Changed: arm it again if you want it</span>
        </>
      ) : null}
    </h3>
  );
}

/** What an update did to the trigger: what changed, that it is turned off and why, or that it stays armed. */
function UpdateNotes({ decided, keptArmed }: { decided: TriggerDecided | undefined; keptArmed: boolean }) {
  return (
    <>
      {decided?.change && !decided.turnedOff ? (
        <p className="small">
          Was: <PackageText text={decided.change.from} />. Now: <PackageText text={decided.change.to} />.
        </p>
      ) : null}
      {decided?.turnedOff ? (
        <p className="small panel-warning" role="note">
          You had it armed. This update turns it off, because <PackageText text={decided.turnedOff} />. Arm it again if
          you want it.
        </p>
      ) : null}
      {keptArmed ? <p className="small">Armed before, and kept armed by this update.</p> : null}
    </>
  );
}

/** A file_watch trigger's folder: the one it watches (or that it needs one), and the button that chooses it. */
function FolderChoice({
  triggerId,
  folderShown,
  onChoose,
  choosing,
}: {
  triggerId: string;
  folderShown: string | undefined;
  onChoose: (event: { currentTarget: HTMLButtonElement }) => void;
  choosing: boolean;
}) {
  return (
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
      <button type="button" className="button" onClick={onChoose} disabled={choosing}>
        <FolderOpen aria-hidden="true" size={16} />{' '}
        {folderShown ? `Choose another folder for ${triggerId}…` : `Choose a folder for ${triggerId}…`}
      </button>
    </div>
  );
}

/** The box that arms the trigger: locked by a policy, or waiting for a folder, it says why. */
function ArmCheck({
  id,
  triggerId,
  armed,
  needsFolder,
  locked,
  onArm,
}: {
  id: string;
  triggerId: string;
  armed: boolean;
  /** A file_watch trigger with no folder yet. */
  needsFolder: boolean;
  locked: boolean;
  onArm: (arm: boolean) => void;
}) {
  return (
    <div className="check-row">
      <input
        id={id}
        type="checkbox"
        checked={armed}
        disabled={needsFolder || locked}
        aria-describedby={locked ? `${id}-policy` : needsFolder ? `${id}-hint` : undefined}
        onChange={(event) => onArm(event.target.checked)}
      />
      <label htmlFor={id}>Arm {triggerId}</label>
      {needsFolder ? (
        <span id={`${id}-hint`} className="small muted">
          Choose a folder first.
        </span>
      ) : null}
    </div>
  );
}
