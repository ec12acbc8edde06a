/** One install link's form at a time in the window: a link's source waits while another link's form is open. */
import { beforeEach, describe, expect, it } from 'vitest';
import type { SourceHandle } from '../../../shared/contract/api';
import { useFlowStore } from './flow-store';
import { openFromHost, useLinkQueue } from './link-queue';

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

const ids = () => useFlowStore.getState().sources.map((s) => s.id);

beforeEach(() => {
  useFlowStore.setState({ sources: [], activeSourceId: null, view: 'open', finished: {} });
  useLinkQueue.setState({ waiting: null });
});

describe('openFromHost', () => {
  it('opens the first link, keeps only the latest of the next ones waiting, and opens it when the first closes', () => {
    openFromHost(source('a', true));
    openFromHost(source('b', true));
    openFromHost(source('c', true));
    expect(ids()).toEqual(['a']);
    expect(useLinkQueue.getState().waiting?.id).toBe('c');
    useFlowStore.getState().closeSource('a');
    expect(ids()).toEqual(['c']);
    expect(useFlowStore.getState().activeSourceId).toBe('c');
    expect(useLinkQueue.getState().waiting).toBeNull();
  });

  it('a file opened another way, or an update from the Updates screen, opens at once beside a link form', () => {
    openFromHost(source('a', true));
    openFromHost(source('file', null));
    openFromHost(source('update', false));
    expect(ids()).toEqual(['a', 'file', 'update']);
    // Closing another tab than the link's keeps a waiting link waiting.
    openFromHost(source('b', true));
    useFlowStore.getState().closeSource('file');
    expect(ids()).toEqual(['a', 'update']);
    expect(useLinkQueue.getState().waiting?.id).toBe('b');
  });
});
