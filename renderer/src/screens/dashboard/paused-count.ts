/**
 * What is paused, counted once for the dashboard's Triggers note (one banner whose words match what
 * is paused): armed triggers paused by the person, and those the organization's policy or a changed package holds.
 * The note then never says "Armed triggers are live" above triggers that are not.
 */
import type { Dashboard, TriggerView } from '../../../../shared/contract/api';

/** How many triggers are armed, and of them how many are paused by the person or held by the policy or integrity. */
export interface PausedCounts {
  armed: number;
  byYou: number;
  held: number;
}

/** Counts over every trigger the dashboard shows (an agent's and a package's workflow triggers). */
export function pausedCounts(dashboard: Pick<Dashboard, 'agents' | 'packages'>): PausedCounts {
  const triggers: TriggerView[] = [
    ...dashboard.agents.filter((a) => !a.archived).flatMap((a) => a.triggers),
    ...dashboard.packages.flatMap((p) => p.triggers),
  ];
  const armed = triggers.filter((t) => t.armed);
  return {
    armed: armed.length,
    byYou: armed.filter((t) => t.pausedAt !== null).length,
    held: armed.filter((t) => t.pausedAt === null && (t.policy !== undefined || t.integrity !== undefined)).length,
  };
}

const count = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'trigger' : 'triggers'}`;

/** The words of the paused ones, or null when none is: "2 triggers paused: 1 by you, 1 by your organization's policy". */
export function pausedWords(counts: PausedCounts): string | null {
  const parts = [
    counts.byYou > 0 ? `${counts.byYou.toLocaleString('en-US')} by you` : '',
    counts.held > 0 ? `${counts.held.toLocaleString('en-US')} by your organization's policy or a changed package` : '',
  ].filter((p) => p !== '');
  if (parts.length === 0) return null;
  return `${count(counts.byYou + counts.held)} paused (${parts.join(', ')})`;
}

/** Whether every armed trigger is paused: then none is live, whatever the trigger host does. */
export function nonePaused(counts: PausedCounts): boolean {
  return counts.byYou + counts.held === 0;
}
