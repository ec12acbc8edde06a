/**
 * Standard Webhooks v1 signature check ("Verifying webhooks" in the Standard Webhooks spec), with
 * Node's own HMAC-SHA256 (OpenSSL) rather than the `standardwebhooks` library's pure-JavaScript
 * SHA-256: the signature is HMAC-SHA256 under the key `whsec_<base64>` decodes to, over
 * `<webhook-id>.<webhook-timestamp>.<body bytes>`, sent in `webhook-signature` as space-separated
 * `v1,<base64>` entries; any one matching, compared in constant time, verifies.
 *
 * Why not the library here: on the intake's hot path its JavaScript hash was a measurable share of
 * each delivery (bench/webhook-intake.ts). It stays the reference: every test signs with it, and
 * `standard-webhooks.test.ts` checks this function's verdict against the library's on the same
 * deliveries, good and bad. The timestamp's tolerance is checked by the listener before the body is
 * read (`precheckHeaders`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../../../shared/triggers/webhook-secret';

/** The most `webhook-signature` entries looked at (a sender rotating keys sends two or three). */
export const MAX_SIGNATURE_ENTRIES = 16;

/** The key a `whsec_` secret holds (the prefix is optional, as in the library). */
export function webhookKey(secret: string): Buffer {
  const body = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  return Buffer.from(body, 'base64');
}

/** The `v1` signature of a delivery, in base64: what a sender puts after `v1,`. */
export function signatureOf(key: Buffer, webhookId: string, timestamp: string, body: Buffer): string {
  return createHmac('sha256', key).update(`${webhookId}.${timestamp}.`).update(body).digest('base64');
}

/**
 * Whether one of the `v1` entries of `signatureHeader` is the delivery's signature under `key`.
 * Entries of other versions are skipped, as the spec says; only the first
 * {@link MAX_SIGNATURE_ENTRIES} are looked at, so a header of thousands costs no more than a few.
 */
export function signatureMatches(
  key: Buffer,
  delivery: { webhookId: string; timestamp: string; body: Buffer },
  signatureHeader: string,
): boolean {
  if (key.length === 0) return false;
  const expected = Buffer.from(signatureOf(key, delivery.webhookId, delivery.timestamp, delivery.body), 'utf8');
  let matched = false;
  for (const entry of signatureHeader.split(' ', MAX_SIGNATURE_ENTRIES)) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1), 'utf8');
    // Every entry is compared (no early return), each in constant time for its length.
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched;
}
