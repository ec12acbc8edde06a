/**
 * The store's format 8 step (`state.ts` owns the versions and calls it): no trigger was paused by the person before
 * format 8 (DESIGN.md "Triggers at run time"), so each gets `pausedAt: null`.
 */
import { isObject } from './migration-values';

// --- format 8: the person's pause ----------------------------------------------------------------
/** Format 7 → 8: every trigger `pausedAt: null`. Anything not shaped as format 7 is left for `stateProblem`. */
export function migrateFrom7(value: unknown): unknown {
  if (!isObject(value) || value.version !== 7 || !isObject(value.triggers)) return value;
  // Object.fromEntries defines own properties: a `__proto__` id stays a key, never a prototype.
  const triggers = Object.fromEntries(
    Object.entries(value.triggers).map(([id, trigger]) => [
      id,
      isObject(trigger) && !Object.hasOwn(trigger, 'pausedAt') ? { ...trigger, pausedAt: null } : trigger,
    ]),
  );
  return { ...value, triggers, version: 8 };
}
// --- end format 8 --------------------------------------------------------------------------------
