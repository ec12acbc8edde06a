/**
 * The store's state file, format 9 (the current one): format 8's records (`format-8.ts`: format 7's and the person's
 * pause) and `settings.activityCollector`: the OpenTelemetry collector the person named for the activity record
 * (DESIGN.md "Activity record": exported "to an OpenTelemetry collector named by the person or the policy"), null
 * when none. The policy's `activityExport.otlp` wins over it and is not kept here: it is read from the policy each
 * time. Loaded only by the schema compiler and tests; the core imports only its types.
 */
import type { Static } from 'typebox';
import { closed, exactly, orNull } from '../../../../shared/base/schema-kit';
import { STATE_SCHEMA as FORMAT_8 } from './format-8';

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
  TriggerRecord,
} from './format-8';
export { MAX_OUTBOX_LINES, RecordCommitSchema, TriggerRecordSchema } from './format-8';

/** Longest collector address kept (an OTLP/HTTP URL; the policy's field has the same bound). */
export const MAX_COLLECTOR_LENGTH = 4096;

/** The settings as format 9 keeps them: format 8's and `activityCollector` (the person's collector, or null). */
export const SettingsSchema = closed({
  ...FORMAT_8.properties.settings.properties,
  activityCollector: orNull('string', { minLength: 1, maxLength: MAX_COLLECTOR_LENGTH }),
});

/** The whole state file, format 9: format 8's, the settings with `activityCollector`. */
export const STATE_SCHEMA = closed({
  ...FORMAT_8.properties,
  version: exactly(9),
  settings: SettingsSchema,
});
/** The whole state file. */
export type StoreState = Static<typeof STATE_SCHEMA>;
