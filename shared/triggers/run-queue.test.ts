import { describe, expect, it } from 'vitest';
import { FIRE_QUEUES_WORDS, runTaking, runTakingWords } from './run-queue';

const now = new Date('2026-01-01T12:00:00Z');

describe('runTaking: whether a runtime takes runs, from the oldest waiting run', () => {
  it('nothing waiting says nothing about a runtime', () => {
    expect(runTaking({ total: 0, oldest: null }, now)).toBe('nothing_waiting');
  });

  it('runs queued within the last minute may still be taken', () => {
    expect(runTaking({ total: 2, oldest: '2026-01-01T11:59:30Z' }, now)).toBe('waiting');
  });

  it('a run older than a minute, or without a time, was not taken', () => {
    expect(runTaking({ total: 1, oldest: '2026-01-01T11:58:59Z' }, now)).toBe('not_taken');
    expect(runTaking({ total: 1, oldest: null }, now)).toBe('not_taken');
    expect(runTaking({ total: 1, oldest: 'yesterday' }, now)).toBe('not_taken');
  });
});

describe('the words', () => {
  it('a fire queues a run that waits for a runtime', () => {
    expect(FIRE_QUEUES_WORDS).toContain('queues a run');
    expect(FIRE_QUEUES_WORDS).toContain('runs/pending/');
    expect(FIRE_QUEUES_WORDS).toContain('until an agent runtime takes it');
  });

  it('each state in its own sentence, counted', () => {
    expect(runTakingWords('nothing_waiting', 0)).toBe(
      'No run is waiting now. Until an agent runtime runs on this computer, the runs your triggers queue wait there.',
    );
    expect(runTakingWords('waiting', 1)).toBe(
      '1 run is waiting, queued in the last minute: an agent runtime may still take it.',
    );
    expect(runTakingWords('not_taken', 1200)).toBe(
      '1,200 runs are waiting and nothing has taken them: no agent runtime is taking runs on this computer yet.',
    );
  });
});
