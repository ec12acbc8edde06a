/**
 * Whether a test of a build output (`out/…`) may be skipped: only when the output is missing and
 * the run is not CI. With `CI` set, a missing build output fails the test, so a CI run cannot pass
 * without building first and running these tests.
 */
import { existsSync } from 'node:fs';

/** True when `path` is missing and `CI` is not set: skip, with the test's name saying to build first. */
export function skipWithoutBuild(path: string): boolean {
  return !existsSync(path) && !process.env.CI;
}
