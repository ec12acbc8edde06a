import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/test-api';
import { CLOSE_NOTICE_FILE, closeNoticeMarker } from './close-notice';

describe('the one-time close notice, kept across starts', () => {
  it('is not shown in a fresh folder, and is shown once marked, for a new reader too', () => {
    const dir = tempDir('apollia-notice-');
    expect(closeNoticeMarker(dir).shown()).toBe(false);
    closeNoticeMarker(dir).markShown();
    expect(existsSync(join(dir, CLOSE_NOTICE_FILE))).toBe(true);
    expect(closeNoticeMarker(dir).shown()).toBe(true);
  });

  it('does not throw where it cannot be kept', () => {
    const marker = closeNoticeMarker(join(tempDir('apollia-notice-'), 'missing', 'folder'));
    marker.markShown();
    expect(marker.shown()).toBe(false);
  });
});
