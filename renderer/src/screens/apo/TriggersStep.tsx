import { useId, useMemo, useState } from 'react';
import type { AgentEntry } from '../../../../shared/manifests/apollia-manifest';
import { firstByName } from '../../../../shared/decisions/consent';
import type { ApoInspection } from '../../../../shared/manifests/inspection';
import type { UpdateDiff } from '../../../../shared/decisions/update-diff';
import type { InstalledDecisions } from '../../../../shared/decisions/decisions';
import type { PolicyView } from '../../../../shared/policy/policy';
import { useFormDecisions } from './consent-decisions';
import { usePickWatchFolder } from '../../../api/hooks';
import { ErrorPanel } from '../../components/Status';
import { RunsWaitNote } from '../../components/RunsWaitNote';
import { useConsentDraft, useConsentStore } from '../../stores/consent-store';
import { firstRows, FIRST_ROWS, ShowAll } from './long-list';
import { TriggerCard } from './TriggerCard';
import { countOf } from './UpdateMark';

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
          return (
            <TriggerCard
              key={trigger.id}
              trigger={trigger}
              packageName={manifest.package.name}
              target={targetName(agents, trigger.target)}
              mark={added.has(trigger.id) ? 'new' : changed.has(trigger.id) ? 'changed' : null}
              decided={decided}
              answer={draft.triggers[trigger.id]}
              had={
                installed && decided?.status !== 'new' && Object.hasOwn(installed.triggers, trigger.id)
                  ? installed.triggers[trigger.id]
                  : undefined
              }
              pick={pick}
              onSet={(answer) => setTrigger(sourceId, trigger.id, answer)}
            />
          );
        })}
      </ul>
      <ShowAll total={triggers.length} expanded={all} onToggle={() => setAll(!all)} controls={listId} what="triggers" />
    </div>
  );
}
