import { randomBytes } from 'node:crypto';

/**
 * A Standard Webhooks secret as a sender would give one: `whsec_` and the base64 of a random key of
 * `bytes` bytes. Its first three bytes are fixed to encode as `+/+/`, so it never has the shape of a
 * Stripe dashboard secret (`whsec_` + 32 letters and digits) by chance: a random 24-byte key does
 * about a third of the time, and the note that shape earns would make a test flaky.
 */
export function pastedWebhookSecret(bytes = 32): string {
  if (bytes < 3) throw new Error('a webhook key of fewer than 3 bytes cannot carry the fixed prefix');
  const key = Buffer.concat([Buffer.from([0xfb, 0xff, 0xbf]), randomBytes(bytes - 3)]);
  return `whsec_${key.toString('base64')}`;
}
