/**
 * Downloading an archive a verified feed lists (DESIGN.md "Feeds, updates and install links"): the
 * feed's key signs the archive's SHA-256 and size, so the bytes fetched must match both, exactly,
 * before they are written to staging. What is written is then inspected as any file is; nothing in
 * it runs.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreError } from '../errors';
import { boundedGet, fetchableUrl, type FeedFetch } from './feed-fetch';
import type { Feed, FeedVersion } from './feed-format';
import { compareVersions } from './feed-versions';

/** An archive staged from a feed: where it is, and the version and feed it came from. */
export interface StagedDownload {
  /** The archive in `<dataDir>/staging/<uuid>/`; the caller removes the folder when done. */
  path: string;
  folder: string;
  version: FeedVersion;
  /** The archive's absolute address (the feed's `url` resolved against the feed's address). */
  url: string;
}

/**
 * The version of `name` a feed offers: `version` when given (`feed.unknown_version` when the feed
 * does not list it), else the newest that is not yanked (`feed.no_version` when every one is).
 * `feed.unknown_package` when the feed does not serve `name`.
 */
export function feedVersionOf(feedUrl: string, feed: Feed, name: string, version?: string | null): FeedVersion {
  const entry = Object.hasOwn(feed.packages, name) ? feed.packages[name] : undefined;
  if (!entry)
    throw new CoreError('feed.unknown_package', `the feed at ${feedUrl} does not serve a package named \`${name}\``, {
      path: feedUrl,
    });
  if (version) {
    const found = entry.versions.find((v) => v.version === version);
    if (!found)
      throw new CoreError(
        'feed.unknown_version',
        `the feed at ${feedUrl} lists no version ${version} of \`${name}\` (it lists ${entry.versions.map((v) => v.version).join(', ')})`,
        { path: feedUrl },
      );
    return found;
  }
  const offered = entry.versions
    .filter((v) => v.status !== 'yanked')
    .sort((a, b) => compareVersions(b.version, a.version));
  const newest = offered[0];
  if (!newest)
    throw new CoreError('feed.no_version', `every version of \`${name}\` in the feed at ${feedUrl} is withdrawn`, {
      path: feedUrl,
    });
  return newest;
}

/**
 * Fetches `version`'s archive (its `url` relative to the feed's address), checks it is exactly
 * `size` bytes (`feed.size_mismatch`; more is refused as it streams) and hashes to `sha256`
 * (`feed.hash_mismatch`), then writes it to a fresh staging folder. Every refusal's `path` is the
 * archive's address; nothing is written when one is refused.
 */
export async function downloadToStaging(
  fetch: FeedFetch,
  feedUrl: string,
  version: FeedVersion,
  dataDir: string,
  options: { timeoutMs?: number; sha256?: string | null } = {},
): Promise<StagedDownload> {
  const url = fetchableUrl(new URL(version.url, fetchableUrl(feedUrl)).href).href;
  if (options.sha256 && options.sha256.toLowerCase() !== version.sha256)
    throw new CoreError(
      'feed.hash_mismatch',
      `the link asks for an archive with SHA-256 ${options.sha256}, but the feed lists ${version.version} with ${version.sha256}`,
      { path: url },
    );
  const answer = await boundedGet(fetch, { url, maxBytes: version.size, timeoutMs: options.timeoutMs }).catch(
    (error: unknown) => {
      if (error instanceof CoreError && error.code === 'feed.too_large')
        throw new CoreError(
          'feed.size_mismatch',
          `\`${url}\` is larger than the ${version.size} bytes the feed signed: refused`,
          { path: url },
        );
      throw error;
    },
  );
  if (answer.notModified) throw new Error('an archive request without If-None-Match answered not modified');
  if (answer.bytes.byteLength !== version.size)
    throw new CoreError(
      'feed.size_mismatch',
      `\`${url}\` is ${answer.bytes.byteLength} bytes, not the ${version.size} the feed signed: refused`,
      { path: url },
    );
  const digest = createHash('sha256').update(answer.bytes).digest('hex');
  if (digest !== version.sha256)
    throw new CoreError(
      'feed.hash_mismatch',
      `\`${url}\` has SHA-256 ${digest}, not the ${version.sha256} the feed signed: it changed after the feed was signed`,
      { path: url },
    );
  const folder = join(dataDir, 'staging', randomUUID());
  await mkdir(folder, { recursive: true });
  const path = join(folder, 'package.apo');
  await writeFile(path, answer.bytes, { flag: 'wx' });
  return { path, folder, version, url };
}
