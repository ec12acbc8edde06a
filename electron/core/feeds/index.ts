/**
 * Feeds (DESIGN.md "Feeds, updates and install links"): a publisher's signed `feed.json`, fetched
 * bounded, verified and checked, and the archives it lists downloaded against their signed SHA-256
 * and size. The app and the CLI import from here; the fetch function is theirs to give.
 */
export { boundedGet, fetchableUrl, isLoopbackHost, type BoundedAnswer, type FeedFetch } from './feed-fetch';
export { downloadToStaging, feedVersionOf, type StagedDownload } from './feed-download';
export { FEED_FORMATS, MAX_FEED_BYTES, type Feed, type FeedPackage, type FeedVersion } from './feed-format';
export { compareVersions } from './feed-versions';
export { readFeed, signatureUrlOf, type FeedReadRequest, type VerifiedFeed } from './read-feed';
export { looksLikeInstallLink, MAX_INSTALL_LINK_CHARS, parseInstallLink, type InstallLink } from './install-link';
