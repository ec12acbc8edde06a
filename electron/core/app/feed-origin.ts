/**
 * What a source opened from a feed remembers, and the signature its archive carries (DESIGN.md
 * "Feeds": an archive listed in a verified feed is as signed as the feed). Imports nothing of the
 * app, so the source registry can read it without a circle.
 */
import type { SignatureSummary } from '../../../shared/manifests/inspection';
import type { FeedVersion } from '../feeds';

/** What a source opened from a feed remembers: where it came from and what the feed's key signed. */
export interface FeedOrigin {
  feedUrl: string;
  serial: number;
  publisher: string;
  name: string;
  version: FeedVersion;
  keyId: string;
  publicKey: string;
  /** The name the person trusts the key under, when it is one of their trusted keys. */
  signer: string | null;
}

/**
 * The signature an archive from a feed carries: `verified` under the feed's key when its bytes are
 * the ones the feed signed (same SHA-256), the trusted comment naming the feed and its serial. Any
 * other archive keeps the summary its own reading gave.
 */
export function feedSignedSummary(origin: FeedOrigin, sha256: string, read: SignatureSummary): SignatureSummary {
  if (sha256 !== origin.version.sha256 || read.state !== 'unsigned') return read;
  return {
    state: 'verified',
    key_id: origin.keyId,
    public_key: origin.publicKey,
    trusted_comment: `feed ${origin.feedUrl} serial ${origin.serial}: ${origin.name} ${origin.version.version} sha256 ${sha256}`,
    signer: origin.signer ?? origin.publisher,
    reason: null,
    message: null,
  };
}
