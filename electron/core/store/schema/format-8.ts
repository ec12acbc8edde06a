/**
 * The store's state file, format 8 (the current one): format 7's records (`format-7.ts`: format 6's and the
 * activity record's commit) and, on each trigger, `pausedAt`: when the person paused it (DESIGN.md "Triggers at run
 * time": paused is armed, its folder and secret kept, not firing, with who paused it), null when the person did not.
 * The policy's and integrity's pauses are not kept: they are worked out from the policy and the package's files each
 * time, and lifting their cause resumes the trigger; only the person's pause is a decision to keep. Loaded only by
 * the schema compiler and tests; the core imports only its types.
 */
import type { Static } from 'typebox';
import { closed, exactly, mapOf, orNull } from '../../../../shared/base/schema-kit';
import { TriggerRecordSchema as FORMAT_5_TRIGGER } from './format-5';
import { STATE_SCHEMA as FORMAT_7 } from './format-7';

export type {
  AgentRecord,
  DisarmedByCheck,
  FeedSubscription,
  KeptArchive,
  PackageAgentRecord,
  PackageRecord,
  PackageTrustRecord,
  PackageUpdateRecord,
  RecordCommit,
  StoredMcpServer,
  TemplateAgentRecord,
  ToolSettingRecord,
} from './format-7';
export { MAX_OUTBOX_LINES, RecordCommitSchema } from './format-7';

/** A trigger as format 8 keeps it: format 5's and `pausedAt` (the person's pause, or null). */
export const TriggerRecordSchema = closed({
  ...FORMAT_5_TRIGGER.properties,
  pausedAt: orNull('string'),
});
/** A trigger as the store keeps it. */
export type TriggerRecord = Static<typeof TriggerRecordSchema>;

/** The whole state file, format 8: format 7's, each trigger with `pausedAt`. */
export const STATE_SCHEMA = closed({
  ...FORMAT_7.properties,
  version: exactly(8),
  triggers: mapOf(TriggerRecordSchema),
});
/** The whole state file. */
export type StoreState = Static<typeof STATE_SCHEMA>;
