/**
 * The store's state file, format 7 (the current one): format 6's records (`format-6.ts`) and the
 * activity record's commit (DESIGN.md "Commit points"): the decisions' head (count and the HMAC the
 * next line carries), sealed under the record key, and the outbox, the chained lines of the last
 * change's decisions, appended to `decisions.jsonl` after the rename and again at open when missing.
 * One rename commits the change and its record together. Loaded only by the schema compiler and
 * tests; the core imports only its types.
 */
import { type Static, Type } from 'typebox';
import { closed, exactly } from '../../../../shared/base/schema-kit';
import { STATE_SCHEMA as FORMAT_6 } from './format-6';

export type {
  AgentRecord,
  DisarmedByCheck,
  FeedSubscription,
  KeptArchive,
  PackageAgentRecord,
  PackageRecord,
  PackageTrustRecord,
  PackageUpdateRecord,
  StoredMcpServer,
  TemplateAgentRecord,
  ToolSettingRecord,
  TriggerRecord,
} from './format-6';

/** Most lines one change's outbox carries (one change records a few dozen decisions at most). */
export const MAX_OUTBOX_LINES = 10_000;

const hex64 = Type.String({ pattern: '^[0-9a-f]{64}$' });

/** The record's committed head and the last change's outbox. */
export const RecordCommitSchema = closed({
  /** The decisions' head after the outbox: lines in the stream, and the HMAC the next line carries. */
  head: closed({ count: Type.Integer({ minimum: 0 }), last: hex64 }),
  /** HMAC under the record key of the head (`store/outbox.ts` `sealOf`): whoever lacks the key cannot forge one. */
  seal: hex64,
  /** The decisions of the last change, each the exact line appended (with its `seq` and `hmac`), oldest first. */
  outbox: Type.Array(Type.String(), { maxItems: MAX_OUTBOX_LINES }),
});
/** The record's commit in the state. */
export type RecordCommit = Static<typeof RecordCommitSchema>;

/** The whole state file, format 7: format 6's and `record` (null until the first change of format 7). */
export const STATE_SCHEMA = closed({
  ...FORMAT_6.properties,
  version: exactly(7),
  record: Type.Union([RecordCommitSchema, Type.Null()]),
});
/** The whole state file. */
export type StoreState = Static<typeof STATE_SCHEMA>;
