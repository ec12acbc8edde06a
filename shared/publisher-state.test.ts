import { describe, expect, it } from 'vitest';
import { publisherLine } from './publisher-state';

describe('publisherLine', () => {
  it('says a built-in template comes with the app, never "unverified"', () => {
    const line = publisherLine({ builtin: true });
    expect(line).toMatchObject({ state: 'builtin', badge: 'Comes with Apollia Desktop', tone: 'allow' });
    expect(line.badge).not.toMatch(/unverified/i);
  });

  it('says an opened template with no signature is unverified', () => {
    expect(publisherLine({ builtin: false })).toMatchObject({
      state: 'unsigned',
      badge: 'Unverified: not signed',
      tone: 'warning-soft',
    });
  });

  it('leaves room for signature states', () => {
    expect(publisherLine({ builtin: false, signature: 'verified' }).badge).toBe('Verified publisher');
    expect(publisherLine({ builtin: false, signature: 'unknown_key' }).state).toBe('unknown_key');
  });
});
