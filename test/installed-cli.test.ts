/**
 * The npm channel of the CLI (DESIGN.md "Security of the app itself", one CLI, two channels): the
 * built project packs (`npm pack`) into a tarball that `npm install -g` turns into a working
 * `apollia-desktop`, which finds its built-in templates, worker and code caches from its own files,
 * never from the working folder. This test does exactly that, into a temporary prefix, and runs
 * every dashboard command through the installed CLI from another folder.
 *
 * SLOW (about 15 s: a pack and an install from npm's cache): it runs in `npm test` (the unit run)
 * and needs `npm run build` first; with `CI` set, a missing build fails it.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packFolder } from './helpers/pack';
import { tempDir } from './helpers/test-api';
import { skipWithoutBuild } from './helpers/built-output';

const ROOT = resolve(import.meta.dirname, '..');
const BUILT_CLI = join(ROOT, 'out/cli/cli.cjs');
const WATCHER = join(ROOT, 'test/fixtures/apo/watcher');
const skip = skipWithoutBuild(BUILT_CLI);

/** npm, with the environment of a person's shell: none of the `npm test` run's own settings. */
function npm(args: string[], cwd: string): SpawnSyncReturns<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
  return spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 90_000 });
}

/** Runs `program` with `args`, its stdout's reader gone before anything is written: EPIPE on its first write. */
function withClosedStdout(
  program: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(program, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => done({ code, stderr }));
  });
}

describe.skipIf(skip)(
  `the built CLI, its reader gone early (\`list | head\`)${skip ? ' (run `npm run build` first)' : ''}`,
  () => {
    it('stops quietly: exit 0, no EPIPE stack trace, on every kind of command', async () => {
      const dataDir = join(tempDir('apollia-epipe-'), 'data');
      for (const args of [
        ['--help'],
        ['--data-dir', dataDir, 'list'],
        ['--data-dir', dataDir, 'activity'],
        ['inspect', join(ROOT, 'resources/templates/kyb')],
      ]) {
        const run = await withClosedStdout(process.execPath, [BUILT_CLI, ...args], tempDir());
        expect([args[args.length - 1], run.code, run.stderr]).toEqual([args[args.length - 1], 0, '']);
      }
    });
  },
);

describe.skipIf(skip)(
  `npm pack, then npm install -g into a temporary prefix (slow)${skip ? ' (run `npm run build` first)' : ''}`,
  () => {
    const work = skip ? '' : tempDir('apollia-npm-');
    const prefix = join(work, 'prefix');
    const elsewhere = join(work, 'elsewhere');
    const dataDir = join(work, 'data');
    const bin = join(prefix, 'bin', 'apollia-desktop');
    const cli = (...args: string[]) =>
      spawnSync(bin, args, { cwd: elsewhere, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: work } });
    const data = (...args: string[]) => cli('--data-dir', dataDir, ...args);

    beforeAll(() => {
      mkdirSync(elsewhere, { recursive: true });
      const packed = npm(['pack', '--pack-destination', work, '--json'], ROOT);
      expect(packed.status, packed.stderr).toBe(0);
      const tarball = join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0]?.filename as string);
      const installed = npm(
        ['install', '-g', '--prefix', prefix, tarball, '--prefer-offline', '--no-audit', '--no-fund'],
        elsewhere,
      );
      expect(installed.status, installed.stderr).toBe(0);
    }, 120_000);

    it('installs the bin and only what the CLI needs', () => {
      expect(existsSync(bin)).toBe(true);
      const installedRoot = join(prefix, 'lib', 'node_modules', 'apollia-desktop');
      expect(readdirSync(installedRoot).sort()).toEqual([
        'README.md',
        'node_modules',
        'out',
        'package.json',
        'resources',
      ]);
      // out/main/index.js only because package.json's `main` names it: npm always packs that file.
      expect(readdirSync(join(installedRoot, 'out')).sort()).toEqual(['cli', 'main']);
      expect(readdirSync(join(installedRoot, 'out', 'main'))).toEqual(['index.js']);
      expect(readdirSync(join(installedRoot, 'out', 'cli'))).toEqual(
        expect.arrayContaining([
          'check-worker.cjs',
          'check-worker.cjs.cache',
          'template-reader.cjs',
          'template-reader.cjs.cache',
        ]),
      );
    });

    it('from another folder: help, a built-in template reported `builtin`, pack -o into a new folder', () => {
      const help = cli('--help');
      expect([help.status, help.stderr]).toEqual([0, '']);
      expect(help.stdout).toContain('Usage: apollia-desktop');
      const kyb = join(prefix, 'lib', 'node_modules', 'apollia-desktop', 'resources', 'templates', 'kyb');
      const inspected = cli('inspect', kyb, '--json');
      expect(inspected.status, inspected.stderr).toBe(0);
      expect(JSON.parse(inspected.stdout).summary.signature.state).toBe('builtin');
      const packed = cli('pack', WATCHER, '-o', 'dist/w.apo');
      expect(packed.status, packed.stderr).toBe(0);
      expect(existsSync(join(elsewhere, 'dist', 'w.apo'))).toBe(true);
    });

    it('from another folder: every dashboard action, then the way back after a change was found', () => {
      const apo = join(elsewhere, 'watcher.apo');
      writeFileSync(apo, packFolder(WATCHER));
      const ok = (run: SpawnSyncReturns<string>) => {
        expect(run.stderr).toBe('');
        expect(run.status).toBe(0);
        return run.stdout;
      };
      expect(ok(data('install', 'watcher.apo', '--yes', '--grant', 'file_list'))).toContain('Installed watcher 0.1.0');
      mkdirSync(join(elsewhere, 'inbox'));
      expect(ok(data('arm', 'watcher/on-change', '--folder', 'inbox'))).toContain(
        `Armed watcher/on-change: When ${join(elsewhere, 'inbox')} changes`,
      );
      expect(ok(data('arm', 'watcher/hourly'))).toContain('Armed watcher/hourly');
      expect(ok(data('disarm', 'watcher/hourly'))).toBe('Disarmed watcher/hourly.\n');
      expect(ok(data('grant', 'watcher/tidy', 'pkg:watcher/tidy_folder'))).toContain('Granted pkg:watcher/tidy_folder');
      expect(ok(data('revoke', 'watcher/tidy', 'pkg:watcher/tidy_folder'))).toContain(
        'Revoked pkg:watcher/tidy_folder',
      );
      expect(ok(data('mcp', 'add', 'slack', '--command', 'npx', '--arg', 'slack-mcp'))).toBe(
        'Saved MCP server slack: npx slack-mcp\n',
      );
      expect(JSON.parse(ok(data('mcp', 'list', '--json'))).servers.map((s: { name: string }) => s.name)).toEqual([
        'slack',
      ]);
      const applied = ok(data('apply', 'market-monitor', '--param', 'companies=Acme', '--json', '--yes'));
      const agentId = JSON.parse(applied).agentId as string;
      expect(ok(data('remove', agentId))).toContain('Removed Market monitor: Acme');
      expect(ok(data('mcp', 'remove', 'slack'))).toBe('Removed MCP server slack.\n');

      const [version] = readdirSync(join(dataDir, 'packages', 'watcher'));
      appendFileSync(join(dataDir, 'packages', 'watcher', version as string, 'tools', 'tidy.py'), '\n# changed\n');
      const found = data('verify');
      expect(found.status).toBe(1);
      expect(found.stdout).toContain('triggers paused by integrity (still armed): watcher/on-change');
      expect(found.stdout).toContain(
        'put it back with `reinstall PKG.apo` (its paused triggers resume), or uninstall it.',
      );
      expect(ok(data('reinstall', 'watcher.apo'))).toContain(
        '  resumes:    watcher/on-change (paused by integrity, still armed)',
      );
      expect(ok(data('reinstall', 'watcher.apo', '--yes'))).toContain('Resumed: watcher/on-change\n');
      expect(ok(data('verify'))).toContain('ok       watcher 0.1.0');
      // About twenty CLI processes in a row: on a loaded machine that is more than the default 30 s.
    }, 180_000);
  },
);
