import { describe, expect, it } from 'vitest';
import type { TriggerStatusView } from '../../../../shared/contract/api';
import { otherHost } from './other-host';

const status = (host: TriggerStatusView['host'], running = true): TriggerStatusView => ({
  running,
  origin: running ? 'http://127.0.0.1:8787' : null,
  host,
  updatedAt: '2026-12-01T10:00:00.000Z',
  pending: { total: 0, oldest: null, byTrigger: {} },
  triggers: {},
});

describe('triggers held by another process (serve)', () => {
  it('says webhooks kept in the keychain go unserved while serve holds the triggers', () => {
    expect(otherHost(status({ here: false, pid: 4242 }), 'keychain')).toEqual({
      pid: 4242,
      keychainWebhooksDark: true,
    });
    expect(otherHost(status({ here: false, pid: 4242 }), 'pending')).toEqual({ pid: 4242, keychainWebhooksDark: true });
    expect(otherHost(status({ here: false, pid: 4242 }), 'basic_text')).toEqual({
      pid: 4242,
      keychainWebhooksDark: true,
    });
  });

  it('says only where serve runs when secrets are sealed with the key file it opens', () => {
    for (const backend of ['file_key', 'unavailable'] as const)
      expect(otherHost(status({ here: false, pid: 7 }), backend)).toEqual({ pid: 7, keychainWebhooksDark: false });
  });

  it('says nothing when the triggers run in this app, or nowhere, or the status is not known yet', () => {
    expect(otherHost(status({ here: true }), 'keychain')).toBeNull();
    expect(otherHost(status(null, false), 'keychain')).toBeNull();
    // A status left by a host that is gone says not running, whatever pid it names.
    expect(otherHost(status({ here: false, pid: 9 }, false), 'keychain')).toBeNull();
    expect(otherHost(undefined, 'keychain')).toBeNull();
  });
});
