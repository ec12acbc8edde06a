/**
 * The intake's own Standard Webhooks check against the reference library (`standardwebhooks`):
 * deliveries the library signs, then altered every way a sender or an attacker could, must get the
 * same verdict from both.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { MAX_SIGNATURE_ENTRIES, signatureMatches, webhookKey } from './standard-webhooks';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const other = `whsec_${randomBytes(24).toString('base64')}`;
const at = new Date();
const ts = String(Math.floor(at.getTime() / 1000));

/** The library's verdict on a delivery (timestamp in tolerance, so only the signature decides). */
function library(key: string, id: string, body: string, header: string): boolean {
  try {
    new Webhook(key).verify(body, { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': header });
    return true;
  } catch {
    return false;
  }
}

function ours(key: string, id: string, body: string, header: string): boolean {
  return signatureMatches(webhookKey(key), { webhookId: id, timestamp: ts, body: Buffer.from(body, 'utf8') }, header);
}

describe('Standard Webhooks signature check, against the reference library', () => {
  const id = 'msg_2ZxQ';
  const body = JSON.stringify({ type: 'lead.submitted', name: 'Zoë', note: 'ünïcode ✓' });
  const good = new Webhook(secret).sign(id, at, body);
  const wrong = new Webhook(other).sign(id, at, body);
  const sig = good.slice(3);

  const cases: [string, string, string, string][] = [
    ['the library’s own signature', id, body, good],
    ['signed with another secret', id, body, wrong],
    ['a rotated key: the old signature first, the right one second', id, body, `${wrong} ${good}`],
    ['the right one first, then junk', id, body, `${good} v1,AAAA`],
    ['another version before the right one', id, body, `v1a,${sig} ${good}`],
    ['the right signature under another version only', id, body, `v2,${sig}`],
    ['no version', id, body, sig],
    ['the body changed', id, `${body} `, good],
    ['the id changed', `${id}x`, body, good],
    ['one character of the signature changed', id, body, `v1,${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`],
    ['the signature cut short', id, body, good.slice(0, -2)],
    ['the signature with trailing padding added', id, body, `${good}=`],
    ['an empty header', id, body, ''],
    ['comma only', id, body, 'v1,'],
    ['an empty body', id, '', new Webhook(secret).sign(id, at, '')],
  ];

  it.each(cases)('%s: the same verdict as the library', (_what, caseId, caseBody, header) => {
    expect(ours(secret, caseId, caseBody, header)).toBe(library(secret, caseId, caseBody, header));
  });

  it('accepts what the library signs and refuses what it refuses (not vacuous)', () => {
    expect(ours(secret, id, body, good)).toBe(true);
    expect(ours(secret, id, body, wrong)).toBe(false);
  });

  it('a secret without its whsec_ prefix decodes to the same key, as in the library', () => {
    expect(webhookKey(secret.slice('whsec_'.length)).equals(webhookKey(secret))).toBe(true);
    expect(webhookKey(secret).length).toBe(32);
  });

  it('looks at no more than the first entries of a header made of thousands', () => {
    const flood = `${Array.from({ length: 5_000 }, () => wrong).join(' ')} ${good}`;
    expect(ours(secret, id, body, flood)).toBe(false);
    const inReach = `${Array.from({ length: MAX_SIGNATURE_ENTRIES - 1 }, () => wrong).join(' ')} ${good}`;
    expect(ours(secret, id, body, inReach)).toBe(true);
  });

  it('signs the body’s bytes: 200 random bodies verify as the library signs them', () => {
    for (let i = 0; i < 200; i++) {
      const text = randomBytes(1 + (i % 97)).toString('base64');
      const header = new Webhook(secret).sign(`msg_${i}`, at, text);
      expect(ours(secret, `msg_${i}`, text, header)).toBe(true);
      expect(ours(other, `msg_${i}`, text, header)).toBe(false);
    }
  });
});
