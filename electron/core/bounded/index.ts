/**
 * Bounded checking (DESIGN.md "Reading without running"): the package readers run in a worker
 * thread under a time budget and a memory cap. See README.md.
 */
export { BoundedChecker, checkApo, checkPath, checkPluginManifest, checkTemplateFolder, DEFAULT_BUDGET_MS, DEFAULT_RESOURCE_LIMITS, refusedInspection, sharedChecker, type CheckerOptions, type CheckOutcome } from './checker';
export { inspectByContent } from './jobs';
