/**
 * DESIGN.md "The command line": a usage error (an unknown option, command or a missing argument) is exit 2, one line
 * and a hint in text, and with `--json` the one refusal document `{ ok: false, errors: [{ code, message, path }] }` on
 * standard output, for every command the program has.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { COMMANDS } from './commands';

/** One run with `--json`: exit 2, nothing on standard error, and the document's one error. */
async function usageDoc(argv: string[]): Promise<{ code: string; message: string; path: string | null }> {
  const dataDir = join(tempDir('apollia-usage-json-'), 'data');
  const run = await runCliCaptured(['--data-dir', dataDir, ...argv]);
  expect([argv.join(' '), run.code, run.stderr]).toEqual([argv.join(' '), 2, '']);
  const doc = JSON.parse(run.stdout);
  expect(Object.keys(doc).sort()).toEqual(['errors', 'ok']);
  expect(doc.ok).toBe(false);
  expect(doc.errors).toHaveLength(1);
  const [error] = doc.errors;
  expect(Object.keys(error).sort()).toEqual(['code', 'message', 'path']);
  expect(error.code).toMatch(/^usage\.[a-z_]+$/);
  expect(existsSync(dataDir)).toBe(false);
  return error;
}

describe('usage errors with --json', () => {
  it.each(COMMANDS.map((c) => [c.name]))('%s: an unknown option is one document on stdout, exit 2', async (name) => {
    const error = await usageDoc([name, '--no-such-option', '--json']);
    if (name === 'mcp' || name === 'trust') expect(error.code).toBe('usage.invalid');
    else expect([error.code, error.path]).toEqual(['usage.unknown_option', '--no-such-option']);
    expect(error.message).toContain('--no-such-option');
    expect(error.message).toContain('--help` shows the usage');
  });

  // Each command that needs an argument, given none (or a flag's value missing).
  const missing: string[][] = [
    ['inspect'],
    ['install'],
    ['reinstall'],
    ['apply'],
    ['apply', 'kyb', '--param'],
    ['pack'],
    ['pack', '.', '-o'],
    ['arm'],
    ['disarm'],
    ['grant', 'a/b'],
    ['revoke'],
    ['remove'],
    ['mcp'],
    ['mcp', 'add', 'x'],
    ['rotate'],
    ['uninstall'],
    ['update'],
    ['rollback'],
    ['update-mode', 'x'],
    ['serve', '--port', 'many'],
    ['trust'],
    ['trust', 'add', 'k.pub'],
    ['runs', 'discard'],
    ['activity', '--limit', '0'],
    ['activity', 'collector', 'a', 'b'],
    ['activity', 'collector', 'http://otel.example.com/v1/logs'],
    ['list', 'extra'],
    ['verify', 'extra'],
    ['policy', 'extra'],
  ];
  it.each(missing.map((argv) => [argv.join(' '), argv]))('%s: one document on stdout, exit 2', async (_, argv) => {
    const error = await usageDoc([...argv, '--json']);
    expect(error.message).not.toBe('');
  });

  it('names the option whose value is missing, and the nearest option or command', async () => {
    expect(await usageDoc(['apply', 'kyb', '--json', '--param'])).toEqual({
      code: 'usage.missing_value',
      message: '--param needs a value (`apollia-desktop apply --help` shows the usage)',
      path: '--param',
    });
    expect(await usageDoc(['apply', 'kyb', '--jsno', '--json'])).toMatchObject({
      code: 'usage.unknown_option',
      message: expect.stringContaining('unknown option `--jsno` for apply: did you mean --json?'),
      path: '--jsno',
    });
    expect(await usageDoc(['instal', 'x.apo', '--json'])).toEqual({
      code: 'usage.unknown_command',
      message: 'unknown command `instal`: did you mean install? (`apollia-desktop --help` shows the usage)',
      path: null,
    });
    // --json before the command is the command's; --json after `--` is no option.
    expect((await usageDoc(['--json', 'list', '--bogus'])).path).toBe('--bogus');
    const after = await runCliCaptured(['instal', '--', '--json']);
    expect([after.code, after.stdout]).toEqual([2, '']);
    expect(after.stderr.split('\n')[0]).toBe('apollia-desktop: unknown command `instal`: did you mean install?');
  });

  it('stay one line and a hint in text', async () => {
    for (const argv of [['pack', '--frce'], ['serve', 'now'], ['arm']]) {
      const run = await runCliCaptured(argv);
      expect([run.code, run.stdout]).toEqual([2, '']);
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/^\(`apollia-desktop [a-z]+ --help` shows the usage\)$/);
    }
  });

  it('help COMMAND prints that command’s usage', async () => {
    const run = await runCliCaptured(['help', 'pack']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe((await runCliCaptured(['pack', '--help'])).stdout);
    expect(run.stdout).toMatch(/^Usage: apollia-desktop pack /);
    const unknown = await runCliCaptured(['help', 'instal']);
    expect([unknown.code, unknown.stderr.split('\n')[0]]).toEqual([
      2,
      'apollia-desktop: unknown command `instal`: did you mean install?',
    ]);
  });
});
