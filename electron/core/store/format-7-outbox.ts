/**
 * The store's format 7 step (`state.ts` owns the versions and calls it): the record's commit
 * (DESIGN.md "Commit points"). A format 6 state carries no head: `record` is null, and the first
 * change of format 7 reads the sealed head beside the store (`activity-head.json`) once, to check
 * the record's end against it, then commits the head in the state (`activity/activity-log.ts`
 * `commit`); the sealed file no longer holds the decisions' head.
 */
import { isObject } from './migration-values';

// --- format 7: the record's commit --------------------------------------------------------------
/** Format 6 → 7: `record: null`. Anything not shaped as format 6 is left for `stateProblem`. */
export function migrateFrom6(value: unknown): unknown {
  if (!isObject(value) || value.version !== 6) return value;
  return { ...value, record: null, version: 7 };
}
// --- end format 7 --------------------------------------------------------------------------------
