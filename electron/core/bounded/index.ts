/**
 * Bounded checking (DESIGN.md "Reading without running"): the package readers run in a worker
 * thread under a time budget and a memory cap. See README.md.
 *
 * Only the checker: the readers (`jobs.ts`) are loaded by the worker alone, never by a host's main
 * thread through this index (loading them twice doubled the CLI's start-up).
 */
export {
  BoundedChecker,
  type CheckerProcess,
  type CheckerSpawn,
  checkApo,
  checkPath,
  checkPluginManifest,
  checkTemplateFolder,
  DEFAULT_BUDGET_MS,
  DEFAULT_RESOURCE_LIMITS,
  refusedInspection,
  configureSharedChecker,
  sharedChecker,
  type CheckerOptions,
  type CheckOutcome,
} from './checker';
export { relaySpawn, type RelayChannel } from './relay-process';
