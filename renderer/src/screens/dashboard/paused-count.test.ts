import { describe, expect, it } from 'vitest';
import type { TriggerView } from '../../../../shared/contract/api';
import { pausedCounts, pausedWords } from './paused-count';

const trigger = (id: string, fields: Partial<TriggerView> = {}): TriggerView => ({
  id,
  name: id,
  type: 'cron',
  agentId: null,
  target: 'w',
  words: '',
  next: [],
  timezone: null,
  armed: true,
  folder: null,
  webhookSecretSet: false,
  webhookSecretOrigin: null,
  webhookSecretSetAt: null,
  waitLimit: 10,
  pausedAt: null,
  ...fields,
});

describe('what is paused, for the Triggers note', () => {
  it('counts the person’s pauses and the policy’s holds among the armed triggers only', () => {
    const counts = pausedCounts({
      agents: [],
      packages: [
        {
          triggers: [
            trigger('a'),
            trigger('b', { pausedAt: '2026-01-01T00:00:00Z' }),
            trigger('c', { policy: 'paused: your organization’s policy file cannot be used' }),
            trigger('d', { armed: false, policy: 'it cannot be armed' }),
            trigger('e', { integrity: 'paused by integrity: its files changed' }),
          ],
        },
      ] as never,
    });
    expect(counts).toEqual({ armed: 4, byYou: 1, held: 2 });
    expect(pausedWords(counts)).toBe(
      "3 triggers paused (1 by you, 2 by your organization's policy or a changed package)",
    );
    expect(pausedWords({ armed: 2, byYou: 0, held: 0 })).toBeNull();
  });
});
