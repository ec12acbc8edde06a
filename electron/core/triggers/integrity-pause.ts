/**
 * A package whose files differ from what install recorded, marked once, whoever sees it first (DESIGN.md "Trust after
 * install", "Triggers at run time"): the app's check (`verify`, at the window's start and on the dashboard) and the
 * trigger host (`fire-gate.ts`, the app's and `serve`'s) go through here, so the same change gives the same state and
 * one record.
 *
 * - The store's mark `changed` is the pause: the package's triggers stay armed, with their folder and secret, and the
 *   trigger host neither makes them live nor fires them while it is set. Only the person disarms.
 * - The mark is set once, under the store's lock; whoever set it records it (`integrity_changed`), naming the armed
 *   triggers now paused. A second finder sees the mark and records nothing.
 * - Reinstalling the installed bytes (or removing the package) clears the mark: its armed triggers resume.
 */
import type { ActivityInput } from '../activity/activity-log';
import type { StoreState } from '../store/state';

/** What differs from what install recorded. */
export interface IntegrityFinding {
  changed: readonly string[];
  missing: readonly string[];
  added: readonly string[];
}

/** `2 changed, 1 missing: tools/extract.py, …` for the activity log and the CLI. */
export function integrityDetail(report: IntegrityFinding): string {
  const parts = [
    report.changed.length > 0 ? `${report.changed.length} changed` : '',
    report.missing.length > 0 ? `${report.missing.length} missing` : '',
    report.added.length > 0 ? `${report.added.length} added` : '',
  ].filter(Boolean);
  const names = [...report.changed, ...report.missing, ...report.added];
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, and ${names.length - 5} more` : '');
  return `${parts.join(', ') || 'the folder cannot be read'}${shown ? `: ${shown}` : ''}`;
}

/** The armed triggers of `name` (sorted ids): the ones its integrity mark pauses. */
export function armedTriggersOf(state: Readonly<StoreState>, name: string): string[] {
  return Object.values(state.triggers)
    .filter((t) => t.packageName === name && t.armed)
    .map((t) => t.id)
    .sort();
}

/** Why a trigger of `name` does not fire while its package is marked changed. */
export function pausedByIntegrityWords(name: string, finding: IntegrityFinding): string {
  return `paused by integrity: the files of ${name} changed on this computer since install (${integrityDetail(finding)}); still armed, its folder and secret kept: reinstall it from its .apo, or remove it`;
}

/**
 * Marks `name` changed in the store's draft, unless it is already marked or `sha256` is given and another package is
 * installed under the name meanwhile. Answers the armed triggers now paused by integrity (left armed), or null when
 * nothing was marked: then whoever marked it recorded it.
 */
export function markChanged(
  state: StoreState,
  name: string,
  finding: IntegrityFinding,
  at: string,
  sha256?: string,
): string[] | null {
  const trust = Object.hasOwn(state.packageTrust, name) ? state.packageTrust[name] : undefined;
  const pkg = Object.hasOwn(state.packages, name) ? state.packages[name] : undefined;
  if (!trust || !pkg || trust.integrity.state === 'changed') return null;
  if (sha256 !== undefined && pkg.sha256 !== sha256) return null;
  trust.integrity = {
    ...trust.integrity,
    state: 'changed',
    checkedAt: at,
    changed: [...finding.changed],
    missing: [...finding.missing],
    added: [...finding.added],
  };
  return armedTriggersOf(state, name);
}

/** The one record of a package marked changed, naming the triggers it paused. */
export function integrityChangedEvent(
  name: string,
  finding: IntegrityFinding,
  paused: readonly string[],
): ActivityInput {
  return {
    kind: 'integrity_changed',
    package: name,
    outcome: 'refused',
    detail: `the files of ${name} changed on this computer since install (${integrityDetail(finding)}); ${
      paused.length === 0
        ? 'no trigger was armed'
        : `triggers paused by integrity, still armed: ${paused.join(', ')} (a reinstall of the installed bytes resumes them)`
    }`,
  };
}
