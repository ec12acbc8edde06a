/**
 * What the app reads of the feed's format: its types (defined once by the schema, `feed-schema.ts`,
 * imported as types only so TypeBox is never loaded at run time) and its bounds (`feed-limits.ts`).
 */
export type { Feed, FeedPackage, FeedVersion } from './feed-schema';
export * from './feed-limits';
