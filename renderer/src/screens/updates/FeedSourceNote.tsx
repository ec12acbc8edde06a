import { AlertTriangle, Link2 } from 'lucide-react';
import type { SourceHandle } from '../../../../shared/contract/api';
import { PackageText } from '../../components/PackageText';
import { useLinkQueue } from '../../stores/link-queue';
import './updates.css';

/** A size in words: bytes below 1 KiB, else KiB or MiB with one decimal. */
function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Above the consent form of a package fetched from a publisher's feed: where it came from, exactly
 * (the feed's full address, as the link or the installed package named it), what it would install
 * (name, version, the signed SHA-256 and size the download matched), a version the publisher withdrew
 * with their reason, and for an install link that the link alone does nothing (peers' links hid what
 * they carried: here every part is shown).
 */
export function FeedSourceNote({ feed }: { feed: NonNullable<SourceHandle['feed']> }) {
  const waiting = useLinkQueue((s) => s.waiting);
  return (
    <section
      className="panel feed-source"
      aria-label={feed.link ? 'What this install link asks for' : 'Where this update comes from'}
    >
      <p>
        <Link2 aria-hidden="true" size={16} />{' '}
        {feed.link ? (
          <strong>An install link asked to install this package.</strong>
        ) : (
          <strong>This version comes from the package’s feed.</strong>
        )}{' '}
        Nothing is installed, allowed or started until you choose below.
      </p>
      <dl className="facts">
        <dt>Feed address</dt>
        <dd>
          <code className="feed-url">
            <PackageText text={feed.url} />
          </code>
        </dd>
        <dt>Publisher (as its signed feed says)</dt>
        <dd>
          <PackageText text={feed.publisher} />
        </dd>
        <dt>Would install</dt>
        <dd>
          <PackageText text={feed.name} /> {feed.version} ({sizeWords(feed.size)})
        </dd>
        <dt>SHA-256</dt>
        <dd>
          <code className="feed-url">{feed.sha256}</code>
        </dd>
      </dl>
      {feed.yanked !== null ? (
        <p className="panel panel-warning" role="note">
          <AlertTriangle aria-hidden="true" size={16} /> <strong>The publisher withdrew this version</strong>:{' '}
          <PackageText text={feed.yanked} />
        </p>
      ) : null}
      {feed.link && waiting !== null ? (
        <p className="muted small" role="status">
          Another install link is waiting ({waiting.feed?.name ?? waiting.displayName}): it opens when you close this
          one.
        </p>
      ) : null}
    </section>
  );
}
