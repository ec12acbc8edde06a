/**
 * The copy of a followed feed kept across runs for `ETag` / `If-None-Match` (DESIGN.md "Feeds,
 * updates and install links"): the exact bytes and signature of the last full answer, in
 * `feeds/<SHA-256 of the address>.json` of the data folder, bound by their SHA-256 in the feed's
 * store record (`keptSha256`, beside its `etag`). The copy is as hostile as the network: a 304 makes
 * it go through the same signature and checks as a fresh answer (`readFeed`), and a copy that is
 * missing or not the one the store names is not offered at all (the next read is a full one).
 * Written before the store write that names it, so a crash leaves at most an unnamed file.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { own } from '../../../shared/base/own';
import type { VerifiedFeed } from '../feeds';
import type { FeedSubscription } from '../store/state';
import type { ApiContext } from './context';

/** A kept copy is never larger than this (a feed is at most 1 MiB, and base64 grows it by a third). */
const MAX_KEPT_BYTES = 2 * 1024 * 1024;

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** Where the copy of the feed at `feedUrl` is kept, in the data folder. */
export function keptCopyPath(dataDir: string, feedUrl: string): string {
  return join(dataDir, 'feeds', `${sha256(feedUrl)}.json`);
}

/** The kept copy to offer with `If-None-Match`, or null (none kept, or not the one the store names). */
export async function keptCopyOf(
  dataDir: string,
  feed: FeedSubscription | undefined,
): Promise<{ etag: string; bytes: Uint8Array; signature: string } | null> {
  if (!feed?.etag || !feed.keptSha256) return null;
  let text: Buffer;
  try {
    text = await readFile(keptCopyPath(dataDir, feed.url));
  } catch {
    return null;
  }
  if (text.byteLength > MAX_KEPT_BYTES || sha256(text) !== feed.keptSha256) return null;
  try {
    const kept = JSON.parse(text.toString('utf8')) as { bytes?: unknown; signature?: unknown };
    if (typeof kept.bytes !== 'string' || typeof kept.signature !== 'string') return null;
    return { etag: feed.etag, bytes: Buffer.from(kept.bytes, 'base64'), signature: kept.signature };
  } catch {
    return null;
  }
}

/** What the store's record of a feed is to hold of its kept copy: its ETag and SHA-256, or nothing (forget it). */
export type KeptCopy = { etag: string; keptSha256: string } | null;

/**
 * Writes the copy of a full, verified read that came with an `ETag` (to a temporary name, then renamed), before the
 * store write that names it; what that write is to record (`undefined` after a 304: nothing changes).
 */
export async function writeFeedCopy(
  dataDir: string,
  feedUrl: string,
  read: VerifiedFeed,
): Promise<KeptCopy | undefined> {
  if (read.notModified) return undefined;
  if (read.etag === null) return null;
  const text = JSON.stringify({ bytes: Buffer.from(read.bytes).toString('base64'), signature: read.signature });
  const path = keptCopyPath(dataDir, feedUrl);
  await mkdir(join(dataDir, 'feeds'), { recursive: true, mode: 0o700 });
  await writeFile(`${path}.tmp`, text, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
  return { etag: read.etag, keptSha256: sha256(text) };
}

/** Records `kept` in a feed's store record (inside a store write). */
export function recordFeedCopy(feed: FeedSubscription, kept: KeptCopy | undefined): void {
  if (kept === undefined) return;
  if (kept === null) {
    delete feed.etag;
    delete feed.keptSha256;
  } else {
    feed.etag = kept.etag;
    feed.keptSha256 = kept.keptSha256;
  }
}

/** Keeps a followed feed's copy: written, then named in one store write of its own. */
export async function keepFeedCopy(ctx: ApiContext, feedUrl: string, read: VerifiedFeed): Promise<void> {
  const kept = await writeFeedCopy(ctx.deps.dataDir, feedUrl, read);
  if (kept === undefined) return;
  await ctx.store.update((draft) => {
    const feed = own(draft.feeds, feedUrl);
    if (feed) recordFeedCopy(feed, kept);
    return { result: null };
  });
}
