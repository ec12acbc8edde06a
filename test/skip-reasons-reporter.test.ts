/**
 * The skip reasons are printed at the end of a run (test/skip-reasons-reporter.ts): a Vitest run of a fixture whose
 * tests skip with a reason lists that reason, how many and where; a test skipped without one is not listed.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;

describe('the skip reasons reporter', () => {
  it('lists each reason with its count and file, after the summary', () => {
    const run = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/fixtures/skip-reasons/vitest.config.mts'],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '' } },
    );
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.slice(-2)).toEqual([
      'Skipped, with their reasons (install what is missing to run them):',
      '  frobnicator not installed: 2 tests (test/fixtures/skip-reasons/skips.check.ts)',
    ]);
    expect(run.stdout).not.toContain('skipped by a condition:');
  });
});
