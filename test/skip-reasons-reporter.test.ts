/**
 * The skip reasons are printed at the end of a run (test/skip-reasons-reporter.ts): a Vitest run of a fixture whose
 * tests skip with a reason lists that reason, how many and where, and those skipped by a condition as such; with a
 * name filter (`-t`), only the reasons given.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;

function fixtureRun(extra: string[] = []) {
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      'test/fixtures/skip-reasons/vitest.config.mts',
      ...extra,
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '' } },
  );
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trimEnd().split('\n');
}

describe('the skip reasons reporter', () => {
  it('lists each reason with its count and file, after the summary', () => {
    expect(fixtureRun().slice(-3)).toEqual([
      'Skipped, with their reasons (install what is missing to run them):',
      '  frobnicator not installed: 2 tests (test/fixtures/skip-reasons/skips.check.ts)',
      '  skipped by a condition, no reason given: 1 test (test/fixtures/skip-reasons/skips.check.ts)',
    ]);
  });

  it('with a name filter, lists only the reasons given', () => {
    const lines = fixtureRun(['-t', 'tool']);
    expect(lines.slice(-2)).toEqual([
      'Skipped, with their reasons (install what is missing to run them):',
      '  frobnicator not installed: 1 test (test/fixtures/skip-reasons/skips.check.ts)',
    ]);
  });
});
