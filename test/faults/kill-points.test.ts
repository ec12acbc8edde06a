/**
 * The kill-point sweep's subset inside the unit tests (DESIGN.md "Commit points"; the whole sweep is
 * `npm run faults`): `mcp add` killed or out of space at each of its fsyncs, renames, links, unlinks
 * and mkdirs in the data folder, and `install` killed or out of space at each fsync and rename, against the built CLI. At each point the store loads, the state is
 * old or new whole, the record holds the change exactly when the state does, the rerun completes,
 * and no output holds a stack trace; the policy's pause killed at each fsync and rename (the notice is recorded, then
 * remembered, so the rerun ends with it recorded).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script (scripts/faults.mjs), typed by what this test uses
import { sweep } from '../../scripts/faults.mjs';
import { skipWithoutBuild } from '../helpers/built-output';

const CLI = join(new URL('../../', import.meta.url).pathname, 'out/cli/cli.cjs');
const HAS_STRACE = spawnSync('strace', ['-V']).status === 0;

interface SweepResult {
  survived: number;
  tried: number;
  missed: number;
  failures: string[];
}

describe.skipIf(skipWithoutBuild(CLI) || !HAS_STRACE)('kill points of the built CLI', () => {
  it('mcp add: every kill and full disk at a durable step leaves the store whole and the rerun working', () => {
    const results = sweep({
      only: ['mcp add'],
      faults: ['kill', 'enospc'],
      calls: ['fsync', 'rename', 'link', 'unlink', 'mkdir'],
    }) as Record<string, SweepResult>;
    const result = results['mcp add'] as SweepResult;
    expect(result.tried).toBeGreaterThanOrEqual(10);
    // Every point holds: the record's entries are committed in the state's outbox with the change.
    expect(result.failures).toEqual([]);
    expect(result.survived).toBe(result.tried);
  }, 360_000);

  it('install: a kill or a full disk at each fsync and rename (staged files, the state, the record) leaves old or new whole', () => {
    const results = sweep({ only: ['install'], faults: ['kill', 'enospc'], calls: ['fsync', 'rename'] }) as Record<
      string,
      SweepResult
    >;
    const result = results.install as SweepResult;
    expect(result.tried).toBeGreaterThanOrEqual(10);
    expect(result.failures).toEqual([]);
  }, 360_000);

  it('policy pause: a kill at each fsync and rename of the notice (the record’s commit, then policy-seen.json) never loses it', () => {
    const results = sweep({ only: ['policy pause'], faults: ['kill'], calls: ['fsync', 'rename'] }) as Record<
      string,
      SweepResult
    >;
    const result = results['policy pause'] as SweepResult;
    // The state's rename (the record's commit) and policy-seen.json's: a kill at the second re-records at the next look.
    expect(result.tried).toBeGreaterThanOrEqual(2);
    expect(result.failures).toEqual([]);
  }, 240_000);
});
