/**
 * The store's format 9 step (`state.ts` owns the versions and calls it): no person named an OpenTelemetry collector
 * for the activity record before format 9 (DESIGN.md "Activity record"), so the settings get
 * `activityCollector: null`.
 */
import { isObject } from './migration-values';

// --- format 9: the person's collector ------------------------------------------------------------
/** Format 8 → 9: `settings.activityCollector: null`. Anything not shaped as format 8 is left for `stateProblem`. */
export function migrateFrom8(value: unknown): unknown {
  if (!isObject(value) || value.version !== 8 || !isObject(value.settings)) return value;
  if (Object.hasOwn(value.settings, 'activityCollector')) return { ...value, version: 9 };
  return { ...value, settings: { ...value.settings, activityCollector: null }, version: 9 };
}
// --- end format 9 --------------------------------------------------------------------------------
