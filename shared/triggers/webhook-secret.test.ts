import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { checkWebhookSecret } from './webhook-secret';

const secretOf = (bytes: number) => `whsec_${randomBytes(bytes).toString('base64')}`;

describe('checkWebhookSecret (Standard Webhooks: whsec_ + base64 of a 24–64 byte key)', () => {
  it.each([24, 32, 64])('accepts a %i-byte key, and the standardwebhooks library verifies with it', (bytes) => {
    const secret = secretOf(bytes);
    const checked = checkWebhookSecret(secret);
    expect(checked).toMatchObject({ ok: true, secret, keyBytes: bytes });
    // Same key as the library decodes: what one side signs, the other verifies.
    const at = new Date();
    const signature = new Webhook(secret).sign('msg_1', at, '{}');
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
    expect(new Webhook(checked.ok ? checked.secret : '').verify('{}', headers)).toEqual({});
  });

  it('removes outer whitespace from a paste (spaces, a newline), keeping the key', () => {
    const secret = secretOf(32);
    expect(checkWebhookSecret(`  ${secret}\n`)).toMatchObject({ ok: true, secret });
    expect(checkWebhookSecret(`\t${secret}\r\n`)).toMatchObject({ ok: true, secret });
  });

  it.each([
    [
      'too short (23 bytes)',
      secretOf(23),
      'webhook_secret.too_short',
      'The key is 23 bytes: Standard Webhooks wants 24 to 64.',
    ],
    [
      'too short (16 bytes)',
      secretOf(16),
      'webhook_secret.too_short',
      'The key is 16 bytes: Standard Webhooks wants 24 to 64.',
    ],
    [
      'too long (65 bytes)',
      secretOf(65),
      'webhook_secret.too_long',
      'The key is 65 bytes: Standard Webhooks wants 24 to 64.',
    ],
    [
      'nothing after the prefix',
      'whsec_',
      'webhook_secret.too_short',
      'There is nothing after `whsec_`: the key itself is missing.',
    ],
    ['empty', '   \n', 'webhook_secret.empty', 'Paste the secret your sender gave you: it is empty.'],
    [
      'missing prefix',
      randomBytes(32).toString('base64'),
      'webhook_secret.no_prefix',
      'A Standard Webhooks secret starts with `whsec_`: this one does not. Copy the whole secret your sender shows, prefix included.',
    ],
    [
      'a Stripe API key',
      'sk_test_51HxxxxxxxxxxxxxxxxxxxxxxxX',
      'webhook_secret.no_prefix',
      'This looks like a Stripe API key, not a webhook signing secret: a Standard Webhooks secret starts with `whsec_`.',
    ],
  ])('refuses a secret %s', (_what, pasted, code, message) => {
    expect(checkWebhookSecret(pasted)).toEqual({ ok: false, code, message });
  });

  it('refuses bad base64: other characters, URL-safe characters, misplaced padding, a missing group', () => {
    expect(checkWebhookSecret('whsec_abcd!efghijklmnopqrstuvwxyzABCDEFGHIJKLM=')).toEqual({
      ok: false,
      code: 'webhook_secret.not_base64',
      message:
        'After `whsec_` the key must be base64 (letters, digits, `+`, `/`, and `=` at the end): this one has other characters.',
    });
    const urlSafe = `whsec_${randomBytes(32).toString('base64url')}-_`;
    expect(checkWebhookSecret(urlSafe)).toMatchObject({
      ok: false,
      code: 'webhook_secret.not_base64',
      message: expect.stringContaining('uses `-` or `_`'),
    });
    expect(checkWebhookSecret('whsec_abcd=efghijklmnopqrstuvwxyzABCDEFGHIJKLMNO')).toEqual({
      ok: false,
      code: 'webhook_secret.not_base64',
      message: 'After `whsec_` the key is not valid base64: `=` may only end it, at most twice.',
    });
    const unpadded = secretOf(32).replace(/=+$/, '');
    expect(checkWebhookSecret(unpadded)).toEqual({
      ok: false,
      code: 'webhook_secret.not_base64',
      message:
        'After `whsec_` the key is 43 characters: base64 comes in groups of 4 (padded with `=`), so part of it is missing.',
    });
  });

  it('refuses whitespace inside the secret (a space, a tab, a line break), never echoing it', () => {
    const secret = secretOf(32);
    for (const inner of [
      `${secret.slice(0, 20)} ${secret.slice(20)}`,
      `${secret.slice(0, 20)}\n${secret.slice(20)}`,
      `${secret.slice(0, 20)}\t${secret.slice(20)}`,
    ]) {
      const checked = checkWebhookSecret(inner);
      expect(checked).toEqual({
        ok: false,
        code: 'webhook_secret.whitespace',
        message:
          'The secret has a space or line break inside it: copy it again as one piece, with nothing between its characters.',
      });
      expect(JSON.stringify(checked)).not.toContain(secret.slice(6, 20));
    }
  });

  it('refuses a Stripe CLI secret (whsec_ + 64 hex digits) and says it is Stripe’s', () => {
    const stripe = `whsec_${randomBytes(32).toString('hex')}`;
    expect(checkWebhookSecret(stripe)).toMatchObject({
      ok: false,
      code: 'webhook_secret.stripe',
      message: expect.stringMatching(/^This looks like a Stripe secret \(`whsec_` followed by 64 hexadecimal digits/),
    });
  });

  it('accepts a Stripe dashboard-shaped secret (whsec_ + 32 letters and digits: also a valid 24-byte key) with a note naming Stripe', () => {
    const checked = checkWebhookSecret('whsec_5WbX5kEWLlfzsGNjH64I8lOOqUB6e8FH');
    expect(checked).toMatchObject({ ok: true, keyBytes: 24, note: expect.stringContaining('Stripe signing secret') });
    const plain = checkWebhookSecret(`whsec_${Buffer.alloc(24, 0xfb).toString('base64')}`);
    expect(plain).toMatchObject({ ok: true, keyBytes: 24, note: null });
  });

  it('refuses a text longer than any secret without reading it further', () => {
    expect(checkWebhookSecret(`whsec_${'A'.repeat(2000)}`)).toEqual({
      ok: false,
      code: 'webhook_secret.too_long',
      message: 'This is 2006 characters: a Standard Webhooks secret is at most 94 (a 64-byte key).',
    });
  });
});
