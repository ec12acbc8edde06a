/**
 * The manifest schema's two formats (`manifest-schema.ts`): `cron` and `interval`, the shapes of a
 * `[triggers.source]` schedule. One home for both the live ajv instance and the standalone
 * validator compiled at build time (`scripts/compile-schemas.ts` → `electron/core/generated/`),
 * which imports this module by name.
 */
import { cronProblem, parseInterval } from '../../../shared/triggers/cron';

/** `format: "cron"`: a five-field cron expression croner accepts. */
export function cron(value: string): boolean {
  return cronProblem(value) === null;
}

/** `format: "interval"`: a duration such as `15m` or `1h30m`. */
export function interval(value: string): boolean {
  return parseInterval(value) !== null;
}

/** Every format the manifest schema uses, by name. */
export const MANIFEST_FORMATS: Readonly<Record<'cron' | 'interval', (value: string) => boolean>> = { cron, interval };
