import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/test-api';
import { makeCommandSession } from './command-session';

describe('a CLI command’s Chromium session folder', () => {
  it('is a fresh private folder under the temporary root, one per command, removed with what Chromium wrote', () => {
    const root = tempDir('apollia-session-');
    const first = makeCommandSession(root);
    const second = makeCommandSession(root);
    expect(first.path).not.toBe(second.path);
    expect(dirname(first.path)).toBe(root);
    if (process.platform !== 'win32') expect(statSync(first.path).mode & 0o777).toBe(0o700);
    writeFileSync(join(first.path, 'Cookies'), 'x');
    first.remove();
    expect(existsSync(first.path)).toBe(false);
    expect(existsSync(second.path)).toBe(true);
    first.remove(); // again: nothing to remove, no throw
  });

  it('is never the window’s profile (userData)', () => {
    const root = tempDir('apollia-session-');
    expect(makeCommandSession(root).path).not.toContain('Apollia Desktop');
  });
});
