/**
 * The check of a webhook signing secret the user pastes ("Use the secret your sender gave
 * you"). One home for the rule, used by the renderer (inline, as the user types), the Api (before
 * anything is sealed) and the CLI (`--webhook-secret-file`, `--webhook-secret-stdin`).
 *
 * Standard Webhooks ("Signature scheme", and the `standardwebhooks` library's `Webhook`
 * constructor): the secret is `whsec_` followed by the key in standard base64 (`A–Z a–z 0–9 + /`,
 * `=` padding), and the key is 24 to 64 bytes. The library strips the prefix and decodes the rest
 * with `@stablelib/base64`, which refuses any other character; this check is stricter (it also
 * wants the padding that makes the length a multiple of 4), so every secret accepted here is one
 * the library verifies with, and decodes to the same key.
 */
import { MAX_WEBHOOK_SECRET_TEXT } from '../base/limits';

/** The prefix every Standard Webhooks secret starts with. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** The shortest key (in bytes) a Standard Webhooks secret may hold. */
export const MIN_WEBHOOK_KEY_BYTES = 24;
/** The longest key (in bytes) a Standard Webhooks secret may hold. */
export const MAX_WEBHOOK_KEY_BYTES = 64;

/** Why a pasted secret was refused: a stable code for tests and the Api error, a sentence for the user. */
export type WebhookSecretProblemCode =
  | 'webhook_secret.empty'
  | 'webhook_secret.whitespace'
  | 'webhook_secret.no_prefix'
  | 'webhook_secret.stripe'
  | 'webhook_secret.not_base64'
  | 'webhook_secret.too_short'
  | 'webhook_secret.too_long';

/** A pasted secret that passed: the trimmed text to seal, its key length, and a note worth showing. */
export interface WebhookSecretAccepted {
  ok: true;
  /** The secret without its outer whitespace: what is sealed and what the library is given. */
  secret: string;
  /** Length of the decoded key in bytes (24–64). */
  keyBytes: number;
  /**
   * A non-blocking note: set when the secret has the shape of a Stripe dashboard secret (`whsec_`
   * and 32 letters and digits). Such a text is also a valid 24-byte Standard Webhooks secret (a
   * Svix-style sender's secret often looks the same), so it is accepted, and the user is told.
   */
  note: string | null;
}

/** A pasted secret that was refused. */
export interface WebhookSecretRefused {
  ok: false;
  code: WebhookSecretProblemCode;
  message: string;
}

const BASE64_BODY = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64_CHARS = /^[A-Za-z0-9+/=]*$/;
const URL_SAFE_CHARS = /^[A-Za-z0-9_\-=]*$/;
/** The Stripe CLI's `whsec_` + 64 hex digits (`stripe listen`): never a random base64 key in practice. */
const STRIPE_CLI_BODY = /^[0-9a-f]{64}$/;
/** A Stripe dashboard endpoint secret: `whsec_` + 32 letters and digits. */
const STRIPE_DASHBOARD_BODY = /^[A-Za-z0-9]{32}$/;
const STRIPE_NOTE =
  'This has the shape of a Stripe signing secret (`whsec_` followed by 32 letters and digits). Stripe signs its own way (a `Stripe-Signature` header), not Standard Webhooks: if your sender is Stripe, its deliveries will not be accepted here. If your sender uses Standard Webhooks, this secret is fine.';

const refuse = (code: WebhookSecretProblemCode, message: string): WebhookSecretRefused => ({
  ok: false,
  code,
  message,
});

/**
 * Checks a pasted webhook secret as Standard Webhooks defines it. Outer whitespace (a paste's
 * newline or spaces) is removed; whitespace inside is refused, as is anything but `whsec_` and
 * standard, padded base64 of a 24–64 byte key. The messages never repeat the secret.
 */
export function checkWebhookSecret(pasted: string): WebhookSecretAccepted | WebhookSecretRefused {
  const secret = pasted.trim();
  if (secret === '') return refuse('webhook_secret.empty', 'Paste the secret your sender gave you: it is empty.');
  if (secret.length > MAX_WEBHOOK_SECRET_TEXT)
    return refuse(
      'webhook_secret.too_long',
      `This is ${secret.length} characters: a Standard Webhooks secret is at most ${WEBHOOK_SECRET_PREFIX.length + 88} (a 64-byte key).`,
    );
  if (/\s/.test(secret))
    return refuse(
      'webhook_secret.whitespace',
      'The secret has a space or line break inside it: copy it again as one piece, with nothing between its characters.',
    );
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) {
    const stripeKey = /^(sk|pk|rk)_(live|test)_/.test(secret);
    return refuse(
      'webhook_secret.no_prefix',
      stripeKey
        ? 'This looks like a Stripe API key, not a webhook signing secret: a Standard Webhooks secret starts with `whsec_`.'
        : 'A Standard Webhooks secret starts with `whsec_`: this one does not. Copy the whole secret your sender shows, prefix included.',
    );
  }
  const body = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (body === '')
    return refuse('webhook_secret.too_short', 'There is nothing after `whsec_`: the key itself is missing.');
  if (STRIPE_CLI_BODY.test(body)) {
    return refuse(
      'webhook_secret.stripe',
      'This looks like a Stripe secret (`whsec_` followed by 64 hexadecimal digits, as the Stripe CLI makes). Stripe signs its own way (a `Stripe-Signature` header), not Standard Webhooks, so its deliveries could never be accepted here.',
    );
  }
  if (!BASE64_CHARS.test(body)) {
    if (URL_SAFE_CHARS.test(body))
      return refuse(
        'webhook_secret.not_base64',
        'After `whsec_` the key uses `-` or `_`: Standard Webhooks uses standard base64 (with `+` and `/`), so this is not one of its secrets.',
      );
    return refuse(
      'webhook_secret.not_base64',
      'After `whsec_` the key must be base64 (letters, digits, `+`, `/`, and `=` at the end): this one has other characters.',
    );
  }
  if (!BASE64_BODY.test(body))
    return refuse(
      'webhook_secret.not_base64',
      'After `whsec_` the key is not valid base64: `=` may only end it, at most twice.',
    );
  if (body.length % 4 !== 0)
    return refuse(
      'webhook_secret.not_base64',
      `After \`whsec_\` the key is ${body.length} characters: base64 comes in groups of 4 (padded with \`=\`), so part of it is missing.`,
    );
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0;
  const keyBytes = (body.length / 4) * 3 - padding;
  if (keyBytes < MIN_WEBHOOK_KEY_BYTES)
    return refuse(
      'webhook_secret.too_short',
      `The key is ${keyBytes} bytes: Standard Webhooks wants ${MIN_WEBHOOK_KEY_BYTES} to ${MAX_WEBHOOK_KEY_BYTES}.`,
    );
  if (keyBytes > MAX_WEBHOOK_KEY_BYTES)
    return refuse(
      'webhook_secret.too_long',
      `The key is ${keyBytes} bytes: Standard Webhooks wants ${MIN_WEBHOOK_KEY_BYTES} to ${MAX_WEBHOOK_KEY_BYTES}.`,
    );
  return { ok: true, secret, keyBytes, note: STRIPE_DASHBOARD_BODY.test(body) ? STRIPE_NOTE : null };
}

/** How a webhook secret is set: made here (random, shown once) or given by the sender (pasted); its schema is a request's. */
export type { WebhookSecretChoice } from './webhook-secret-schema';

/** Where a trigger's webhook secret came from, as recorded and shown on the dashboard. */
export type WebhookSecretOrigin = 'made' | 'given';
