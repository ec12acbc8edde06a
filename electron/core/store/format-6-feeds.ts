/**
 * The store's format 6 step (`state.ts` owns the versions and calls it): no feed followed yet, and
 * no package installed from one (DESIGN.md "Feeds, updates and install links").
 */
import { isObject } from './migration-values';

// --- format 6: feeds ----------------------------------------------------------------------------
/** Format 5 → 6: empty `feeds` and `packageUpdates`. Anything not shaped as format 5 is left for `stateProblem`. */
export function migrateFrom5(value: unknown): unknown {
  if (!isObject(value) || value.version !== 5) return value;
  return { ...value, feeds: {}, packageUpdates: {}, version: 6 };
}
// --- end format 6 --------------------------------------------------------------------------------
