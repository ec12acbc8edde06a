import { describe, expect, it } from 'vitest';
import { tabLabels } from './tab-labels';

describe('tabLabels', () => {
  it('a name alone needs no folder', () => {
    expect(tabLabels([{ id: 'a', displayName: 'quiet.apo', folders: ['home', 'me', 'Downloads'] }]).get('a')).toEqual({
      name: 'quiet.apo',
      where: null,
    });
  });

  it('two files of the same name are told apart by the nearest folder that differs', () => {
    const labels = tabLabels([
      { id: 'a', displayName: 'quiet.apo', folders: ['home', 'me', 'Downloads'] },
      { id: 'b', displayName: 'quiet.apo', folders: ['home', 'me', 'Desktop'] },
      { id: 'c', displayName: 'other.apo', folders: ['home', 'me', 'Desktop'] },
    ]);
    expect(labels.get('a')).toEqual({ name: 'quiet.apo', where: 'Downloads' });
    expect(labels.get('b')).toEqual({ name: 'quiet.apo', where: 'Desktop' });
    expect(labels.get('c')?.where).toBeNull();
  });

  it('folders of the same name are told apart by the ones above them', () => {
    const labels = tabLabels([
      { id: 'a', displayName: 'quiet.apo', folders: ['home', 'me', 'old', 'Downloads'] },
      { id: 'b', displayName: 'quiet.apo', folders: ['home', 'me', 'new', 'Downloads'] },
    ]);
    expect(labels.get('a')?.where).toBe('old/Downloads');
    expect(labels.get('b')?.where).toBe('new/Downloads');
  });

  it('a built-in template beside an opened folder of the same name', () => {
    const labels = tabLabels([
      { id: 'a', displayName: 'market-monitor', folders: [] },
      { id: 'b', displayName: 'market-monitor', folders: ['home', 'me'] },
    ]);
    expect(labels.get('a')?.where).toBe('built in');
    expect(labels.get('b')?.where).toBe('me');
  });
});
