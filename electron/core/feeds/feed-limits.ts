/**
 * The feed's bounds and version (DESIGN.md "Feeds, updates and install links"), apart from the
 * schema so that the schema (loaded only to compile it) and the app (which never loads it) share
 * them without a circle.
 */
/** The feed formats this app reads (`apolliaFeed`). */
export const FEED_FORMATS = [1] as const;

/** Largest `feed.json` read, in bytes: refused from its length or as it streams past. */
export const MAX_FEED_BYTES = 1024 * 1024;

/** Largest archive a feed may list: the archive reader's own bound (DESIGN.md limits: 256 MiB). */
export const MAX_FEED_ARCHIVE_BYTES = 256 * 1024 * 1024;

/** Most packages one feed lists, and most versions one package lists. */
export const MAX_FEED_PACKAGES = 1000;
/** Most versions one package lists in a feed. */
export const MAX_FEED_VERSIONS = 200;

/** How long one feed request may take, body included, before it is refused as slow. */
export const FEED_TIMEOUT_MS = 30_000;

/** Most same-origin redirects followed for one request. */
export const MAX_FEED_REDIRECTS = 5;
