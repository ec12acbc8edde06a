/**
 * The trigger host's public surface (DESIGN.md "Triggers at run time"): what the app's main
 * process, the Api and the CLI import. See this folder's README for the files behind it.
 */
export { HostError, hostLockHolder } from './host-lock';
export { waitingLimit } from './host-config';
export {
  PENDING_DIR,
  parseRunFileName,
  pendingRuns,
  type RunFileName,
  type RunCause,
  type RunInput,
  type RunPayload,
  type RunRequest,
} from './run-requests';
export { type HostClock, nextFireAfter, systemClock } from './schedule';
export {
  DEFAULT_WEBHOOK_PORT,
  type DeliveryStatus,
  type FireStatus,
  type HostStatus,
  readHostStatusFile,
  STATUS_FILE,
  TriggerHost,
  type TriggerHostOptions,
  type TriggerLiveStatus,
} from './trigger-host';
export { webhookPath } from './webhook-listener';
