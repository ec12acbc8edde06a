/**
 * Opening a package from a publisher's feed for the CLI's consent (`install --feed`, an install
 * link): the feed's source, and a withdrawn version said with the publisher's reason.
 */
import type { CoreApi } from '../api';
import type { CliIo } from './cli-io';

/** Opens a package from a feed (a link's or `--feed`'s), saying a yanked version with its reason. */
export async function openFeedSource(
  api: CoreApi,
  feed: { feedUrl: string; name: string; version: string | null; sha256: string | null },
  io: CliIo,
) {
  const opened = await api.feeds.open(feed);
  if (!opened.ok) return opened;
  if (opened.value.yanked !== null) io.stdout(`Warning: the publisher withdrew this version: ${opened.value.yanked}\n`);
  return { ok: true as const, value: opened.value.handle };
}
