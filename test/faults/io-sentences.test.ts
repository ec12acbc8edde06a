/**
 * Every fault a sentence (DESIGN.md "Commit points"): I/O failures injected with strace into the
 * built CLI (`out/cli/cli.cjs`) are said as the file and what they mean, exit 1, with no stack trace
 * unless APOLLIA_DEBUG=1.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipWithoutBuild } from '../helpers/built-output';
import { tempDir } from '../helpers/test-api';

const ROOT = new URL('../../', import.meta.url).pathname;
const CLI = join(ROOT, 'out/cli/cli.cjs');
const HAS_STRACE = spawnSync('strace', ['-V']).status === 0;
const STACK = /\n\s+at /;

/** Runs the built CLI, under strace with `inject` when given. */
function cli(args: string[], inject?: string, env: Record<string, string> = {}, path?: string) {
  const node = [process.execPath, CLI, ...args];
  const only = path ? ['-P', path] : [];
  const argv = inject
    ? ['strace', '-f', '-qq', '-o', '/dev/null', ...only, '-e', 'trace=fsync', '-e', inject, ...node]
    : node;
  const run = spawnSync(argv[0] as string, argv.slice(1), {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: '/home/someone', UV_THREADPOOL_SIZE: '1', ...env },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe.skipIf(skipWithoutBuild(CLI) || !HAS_STRACE)('I/O faults in the built CLI are sentences', () => {
  it('a full disk before the commit: the file, "nothing was changed", exit 1, the store as it was', () => {
    const data = join(tempDir(), 'data');
    // A first change makes the record (its key, its first lines); the next commit's first fsync is the record's.
    expect(cli(['--data-dir', data, 'mcp', 'add', 'ledger', '--command', 'uvx']).code).toBe(0);
    const decisions = join(data, 'activity', 'decisions.jsonl');
    const run = cli(
      ['--data-dir', data, 'mcp', 'add', 'slack', '--command', 'slack-mcp'],
      'inject=fsync:error=ENOSPC:when=1',
      {},
      decisions,
    );
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `apollia-desktop: ${decisions}: the disk is full (ENOSPC): nothing was changed\n`,
    });
    expect(cli(['--data-dir', data, 'mcp', 'list']).stdout).not.toContain('slack');
    const again = cli(['--data-dir', data, 'mcp', 'add', 'slack', '--command', 'slack-mcp']);
    expect([again.code, again.stderr]).toEqual([0, '']);
  });

  it('an I/O error after the commit (the folder fsync): said as made, exit 1, the change kept', () => {
    const data = join(tempDir(), 'data');
    expect(cli(['--data-dir', data, 'mcp', 'add', 'ledger', '--command', 'uvx']).code).toBe(0);
    // The data folder's first fsync in this run: the state's rename, made durable (after the commit).
    const run = cli(
      ['--data-dir', data, 'mcp', 'add', 'slack', '--command', 'slack-mcp'],
      'inject=fsync:error=EIO:when=1',
      {},
      data,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `apollia-desktop: ${join(data, 'state.json')}: the disk reported an input/output error (EIO): the change was made, but the disk did not confirm it is kept; run the command again once the disk is fixed\n`,
    );
    expect(cli(['--data-dir', data, 'mcp', 'list']).stdout).toContain('slack: slack-mcp');
  });

  it('a stack trace only with APOLLIA_DEBUG=1', () => {
    const data = join(tempDir(), 'data');
    const args = ['--data-dir', data, 'mcp', 'add', 'slack', '--command', 'slack-mcp'];
    const quiet = cli(args, 'inject=fsync:error=EIO:when=1');
    expect(quiet.stderr).not.toMatch(STACK);
    const debug = cli(args, 'inject=fsync:error=EIO:when=1', { APOLLIA_DEBUG: '1' });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(STACK);
  });
});
