/**
 * The store's state file, format 6 (the current one): format 5's records (`format-5.ts`, defined
 * there once) and what following a publisher's feed needs to be kept (DESIGN.md "Feeds, updates and
 * install links"): each feed followed, with the highest `serial` seen from it (a lower one is then
 * refused, so the store must keep it: TUF's rule, and `tough` CVE-2025-2888's lesson), and each
 * feed-installed package's update mode and the archives of its current and previous versions (roll
 * back installs the previous one through the same path as any update). Loaded only by the schema
 * compiler and tests; the core imports only its types.
 */
import { type Static, Type } from 'typebox';
import { closed, exactly, mapOf, oneOf, orNull } from '../../../../shared/base/schema-kit';
import { STATE_SCHEMA as FORMAT_5 } from './format-5';

export type {
  AgentRecord,
  DisarmedByCheck,
  PackageAgentRecord,
  PackageRecord,
  PackageTrustRecord,
  StoredMcpServer,
  TemplateAgentRecord,
  ToolSettingRecord,
  TriggerRecord,
} from './format-5';

const str = Type.String();
const nstr = orNull('string');

/** The update modes (DESIGN.md "Feeds"): notify (the default), auto, hold. */
export const UPDATE_MODES = ['notify', 'auto', 'hold'] as const;

/** A feed followed, by its address: when it was added and checked, and the highest serial seen. */
export const FeedSubscriptionSchema = closed({
  url: str,
  addedAt: str,
  /** The highest `serial` a verified read of this feed gave; null before the first. */
  highestSerial: orNull('integer', { minimum: 0 }),
  lastCheckedAt: nstr,
  /** The last check's refusal in words (`code: message`), or null when it read. */
  lastProblem: nstr,
  publisher: nstr,
  /** The publisher's key the person added the feed with (Settings → Feeds shows its fingerprint); absent when none. */
  publicKey: Type.Optional(str),
  /**
   * The `ETag` of the last full answer, sent as `If-None-Match` by the next run; the copy it names is kept beside the
   * store (`feeds/`), bound by its SHA-256 here. Absent when the server gave none.
   */
  etag: Type.Optional(str),
  keptSha256: Type.Optional(str),
});
/** A feed followed. */
export type FeedSubscription = Static<typeof FeedSubscriptionSchema>;

/**
 * An archive kept for a package installed from a feed: its path in the data folder, and the feed's
 * signed SHA-256 and size and the key that signed them (so installing it again is as signed).
 */
export const KeptArchiveSchema = closed({
  version: str,
  archive: str,
  sha256: str,
  size: Type.Integer({ minimum: 0 }),
  keyId: str,
  publicKey: str,
});
/** An archive kept for a package installed from a feed. */
export type KeptArchive = Static<typeof KeptArchiveSchema>;

/** A package installed from a feed: the feed, its update mode, and the archives kept. */
export const PackageUpdateRecordSchema = closed({
  feed: str,
  mode: oneOf(UPDATE_MODES),
  current: Type.Union([KeptArchiveSchema, Type.Null()]),
  previous: Type.Union([KeptArchiveSchema, Type.Null()]),
});
/** A package installed from a feed. */
export type PackageUpdateRecord = Static<typeof PackageUpdateRecordSchema>;

/** The whole state file, format 6: format 5's and `feeds` (by address) and `packageUpdates` (by package). */
export const STATE_SCHEMA = closed({
  ...FORMAT_5.properties,
  version: exactly(6),
  feeds: mapOf(FeedSubscriptionSchema),
  packageUpdates: mapOf(PackageUpdateRecordSchema),
});
/** The whole state file. */
export type StoreState = Static<typeof STATE_SCHEMA>;
