/** One install link's form at a time: which source waits, and when the waiting one opens. */
import { describe, expect, it } from 'vitest';
import type { SourceHandle } from '../../../shared/contract/api';
import { linkWaits, waitingOpens } from './link-rule';

const source = (id: string, link: boolean | null): SourceHandle => ({
  id,
  kind: 'apo',
  displayName: `${id}.apo`,
  folders: [],
  origin: 'command-line',
  ...(link === null
    ? {}
    : {
        feed: {
          url: 'https://e.example/feed.json',
          publisher: 'Example',
          name: id,
          version: '1.0.0',
          sha256: '0'.repeat(64),
          size: 1,
          yanked: null,
          link,
        },
      }),
});

describe('linkWaits', () => {
  it("a link waits while another link's form is open; the first link, and the same one again, do not", () => {
    expect(linkWaits([], source('a', true))).toBe(false);
    expect(linkWaits([source('a', true)], source('b', true))).toBe(true);
    expect(linkWaits([source('a', true)], source('a', true))).toBe(false);
  });

  it('a file, or an update opened from the Updates screen, never waits', () => {
    expect(linkWaits([source('a', true)], source('file', null))).toBe(false);
    expect(linkWaits([source('a', true)], source('update', false))).toBe(false);
    expect(linkWaits([source('file', null), source('update', false)], source('b', true))).toBe(false);
  });
});

describe('waitingOpens', () => {
  it("opens once no other link's form is open, whatever else is", () => {
    expect(waitingOpens([source('a', true)], source('b', true))).toBe(false);
    expect(waitingOpens([source('file', null), source('update', false)], source('b', true))).toBe(true);
    expect(waitingOpens([], source('b', true))).toBe(true);
  });
});
