import { Lock, Rss, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { FeedView } from '../../../../shared/contract/api';
import { useFollowedFeeds, useFollowFeed, useUnfollowFeed } from '../../../api/feed-hooks';
import { CodeText } from '../../components/CodeText';
import { formatDateTime } from '../../components/date-format';
import { PackageText } from '../../components/PackageText';
import { ErrorPanel, Loading } from '../../components/Status';
import '../updates/updates.css';

/**
 * Settings → Feeds: the publishers' feeds this app follows, each with the keys it is checked against
 * (key ID and fingerprint, to compare with what the publisher gave), the packages that update from
 * it, and its last check; a feed added by its address, with the publisher's key (trusted as Settings
 * → Trusted publishers would); where the organization's policy limits the feeds, the control says so.
 */
export function FeedsSection() {
  const feeds = useFollowedFeeds();
  return (
    <section aria-labelledby="feeds-heading">
      <h2 id="feeds-heading">
        <Rss aria-hidden="true" size={20} /> Feeds
      </h2>
      <p className="muted">
        A publisher’s signed feed tells this app when a package has an update. A feed is only believed when its
        signature is by the publisher’s key.
      </p>
      {feeds.isPending ? <Loading label="Reading the feeds…" /> : null}
      {feeds.isError ? <ErrorPanel error={feeds.error} title="The feeds could not be read" /> : null}
      {feeds.data ? (
        <>
          {feeds.data.feeds.length === 0 ? (
            <p>No feed is followed.</p>
          ) : (
            <ul className="card-list" aria-label="Feeds followed">
              {feeds.data.feeds.map((feed) => (
                <FeedCard key={feed.url} feed={feed} />
              ))}
            </ul>
          )}
          <AddFeedForm allowedPrefixes={feeds.data.allowedPrefixes} locked={feeds.data.locked} />
        </>
      ) : null}
    </section>
  );
}

function FeedCard({ feed }: { feed: FeedView }) {
  const remove = useUnfollowFeed();
  return (
    <li className="card" aria-label={feed.url}>
      <p>
        <code className="feed-url">
          <PackageText text={feed.url} />
        </code>
      </p>
      <dl className="facts">
        <dt>Publisher</dt>
        <dd>{feed.publisher ? <PackageText text={feed.publisher} /> : 'not read yet'}</dd>
        <dt>Last checked</dt>
        <dd>{feed.lastCheckedAt ? formatDateTime(feed.lastCheckedAt) : 'never'}</dd>
        <dt>Packages from it</dt>
        <dd>{feed.packages.length > 0 ? feed.packages.join(', ') : 'none yet'}</dd>
      </dl>
      {feed.lastProblem ? (
        <p className="panel panel-warning small">
          The last check was refused: <CodeText text={feed.lastProblem} />
        </p>
      ) : null}
      {feed.keys.length === 0 ? (
        <p className="muted small">Checked against the keys you trust (Settings → Trusted publishers).</p>
      ) : (
        feed.keys.map((key) => (
          <dl key={key.keyId} className="facts" aria-label={`Key ${key.keyId}`}>
            <dt>Key ID</dt>
            <dd>
              <code>{key.keyId}</code>
              {key.trustedAs ? (
                <>
                  {' '}
                  (trusted as <PackageText text={key.trustedAs} />)
                </>
              ) : null}
            </dd>
            <dt>Fingerprint</dt>
            <dd>
              <code className="feed-key">{key.fingerprint}</code>
            </dd>
          </dl>
        ))
      )}
      <div className="button-row">
        <button
          type="button"
          className="button button-small button-danger-soft"
          disabled={remove.isPending}
          onClick={() => remove.mutate({ url: feed.url })}
        >
          <Trash2 aria-hidden="true" size={14} /> Stop following
        </button>
      </div>
      {remove.isError ? <ErrorPanel error={remove.error} title="The feed is still followed" /> : null}
    </li>
  );
}

function AddFeedForm({ allowedPrefixes, locked }: { allowedPrefixes: string[]; locked: string | null }) {
  const follow = useFollowFeed();
  const [url, setUrl] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (url.trim() === '' || locked !== null) return;
    follow.mutate(
      {
        url: url.trim(),
        publicKey: publicKey.trim() === '' ? null : publicKey,
        name: name.trim() === '' ? null : name.trim(),
      },
      {
        onSuccess: () => {
          setUrl('');
          setPublicKey('');
          setName('');
        },
      },
    );
  };
  const lockId = allowedPrefixes.length > 0 || locked ? 'feed-policy-lock' : undefined;
  return (
    <form className="form feeds-form" onSubmit={submit} aria-label="Add a feed">
      {locked ? (
        <p className="panel panel-note" id="feed-policy-lock">
          <Lock aria-hidden="true" size={16} /> <CodeText text={locked} />
        </p>
      ) : allowedPrefixes.length > 0 ? (
        <p className="panel panel-note small" id="feed-policy-lock">
          <Lock aria-hidden="true" size={16} /> Your organization allows only feeds whose address starts with{' '}
          {allowedPrefixes.map((prefix, i) => (
            <span key={prefix}>
              {i > 0 ? ' or ' : ''}
              <code>{prefix}</code>
            </span>
          ))}
          .
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="feed-url">Feed address (https)</label>
        <input
          id="feed-url"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          disabled={locked !== null}
          aria-describedby={lockId}
          placeholder="https://example.com/apollia/feed.json"
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <div className="field">
        <label htmlFor="feed-key">Publisher’s public key (optional: the .pub file or its line starting with RW)</label>
        <textarea
          id="feed-key"
          value={publicKey}
          onChange={(e) => setPublicKey(e.target.value)}
          disabled={locked !== null}
          rows={2}
          spellCheck={false}
          autoComplete="off"
        />
      </div>
      <div className="field">
        <label htmlFor="feed-key-name">Trust the key as (optional: the feed’s host when empty)</label>
        <input
          id="feed-key-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          disabled={locked !== null || publicKey.trim() === ''}
          autoComplete="off"
        />
      </div>
      <div className="button-row">
        <button type="submit" className="button button-primary" disabled={locked !== null || follow.isPending}>
          Add feed
        </button>
      </div>
      {follow.isError ? <ErrorPanel error={follow.error} title="The feed was not added" /> : null}
    </form>
  );
}
