/**
 * The strict JSON Schema of `feed.json`, format 1 (DESIGN.md "Feeds, updates and install links"):
 * every object closed (an unknown key is refused, as the manifest's are), every list and text
 * bounded. Loaded only by tests and `scripts/compile-schemas.ts`; the app runs the compiled
 * validator (`generated/feed-validator.js`) and imports the types from `feed-format.ts`.
 */
import { closed, exactly, exactlyOne, mapOf, oneOf, type Static } from '../../../shared/base/schema-kit';
import { Type } from 'typebox';
import { FEED_FORMATS, MAX_FEED_ARCHIVE_BYTES, MAX_FEED_PACKAGES, MAX_FEED_VERSIONS } from './feed-limits';

const text = (maxLength: number) => Type.String({ minLength: 1, maxLength });

/** One version of a package in a feed: where its archive is, and the SHA-256 and size it must have. */
export const FeedVersionSchema = exactlyOne(
  closed({
    version: text(64),
    url: text(2048),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    size: Type.Integer({ minimum: 1, maximum: MAX_FEED_ARCHIVE_BYTES }),
    status: oneOf(['active', 'deprecated']),
  }),
  closed({
    version: text(64),
    url: text(2048),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    size: Type.Integer({ minimum: 1, maximum: MAX_FEED_ARCHIVE_BYTES }),
    status: exactly('yanked'),
    reason: text(500),
  }),
);
/** One version of a package in a feed. */
export type FeedVersion = Static<typeof FeedVersionSchema>;

/** A package in a feed: its versions, newest first or in any order (the reader sorts by semver). */
export const FeedPackageSchema = closed({
  versions: Type.Array(FeedVersionSchema, { minItems: 1, maxItems: MAX_FEED_VERSIONS }),
});
/** A package in a feed. */
export type FeedPackage = Static<typeof FeedPackageSchema>;

/** The whole feed. */
export const FEED_SCHEMA = closed({
  apolliaFeed: oneOf(FEED_FORMATS),
  url: text(2048),
  publisher: text(200),
  serial: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  // RFC 3339 with a zone; the reader also checks that it is a real date (`Date.parse`).
  expires: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$' }),
  packages: mapOf(
    FeedPackageSchema,
    { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,63}$' },
    { maxProperties: MAX_FEED_PACKAGES },
  ),
});
/** A feed as the schema admits it (format 1). */
export type Feed = Static<typeof FEED_SCHEMA>;
