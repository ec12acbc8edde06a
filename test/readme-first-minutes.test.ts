/**
 * The README's first five minutes, run as written: the block between its `first-five-minutes` markers, each line on
 * the built CLI (`apollia-desktop` is `node out/cli/cli.cjs`), in a fresh HOME and a folder of its own with the
 * shipped example package, so what a newcomer types is what works.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipWithoutBuild } from './helpers/built-output';
import { tempDir } from './helpers/test-api';

const ROOT = new URL('..', import.meta.url).pathname;
const CLI = join(ROOT, 'out/cli/cli.cjs');

/** The commands of the README's block, each without its comment. */
function firstMinutes(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- first-five-minutes -->\n```sh\n([\s\S]*?)```\n<!-- \/first-five-minutes -->/.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md has no first-five-minutes block');
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
}

describe.skipIf(skipWithoutBuild(CLI))('the README’s first five minutes (run `npm run build` first)', () => {
  it('pack → inspect → install → install --yes → list → uninstall, each as written', () => {
    const cwd = tempDir('apollia-readme-');
    cpSync(join(ROOT, 'examples'), join(cwd, 'examples'), { recursive: true });
    const home = tempDir('apollia-readme-home-');
    const commands = firstMinutes();
    expect(commands.map((c) => c.split(' ')[1])).toEqual([
      'pack',
      'inspect',
      'install',
      'install',
      'list',
      'uninstall',
    ]);
    const outputs: string[] = [];
    for (const command of commands) {
      const [program, ...args] = command.split(/\s+/);
      expect(program).toBe('apollia-desktop');
      const run = spawnSync(process.execPath, [CLI, ...args], {
        cwd,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
      });
      expect([command, run.status, run.stderr]).toEqual([command, 0, '']);
      outputs.push(run.stdout);
    }
    const [, inspected, preview, installed, listed, uninstalled] = outputs as string[];
    expect(existsSync(join(cwd, 'invoices.apo'))).toBe(true);
    expect(inspected).toContain('invoices 1.2.0');
    expect(preview?.trimEnd().split('\n').at(-1)).toBe('Nothing was changed: add --yes to do it');
    expect(installed).toMatch(/^Installed invoices 1\.2\.0/);
    expect(listed).toContain('invoices');
    expect(uninstalled).toMatch(/^Uninstalled invoices 1\.2\.0: 1 agent and 1 trigger removed\.\n$/);
    expect(existsSync(join(home, '.config', 'Apollia Desktop', 'state.json'))).toBe(true);
  });
});
