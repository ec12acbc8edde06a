/**
 * `npm start` looks for the Electron binary before anything else (scripts/electron-check.mjs):
 * missing, it says so in one plain paragraph (what, the command that fetches it, that the CLI and
 * the tests work without it) and exits 1, with no stack trace; present, it lets the start go on.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/test-api';

const ROOT = resolve(import.meta.dirname, '..');
const SCRIPT = join(ROOT, 'scripts/electron-check.mjs');

function check(electronDir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, APOLLIA_ELECTRON_DIR: electronDir };
  delete env.ELECTRON_OVERRIDE_DIST_PATH;
  return spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8', env });
}

describe('npm start without the Electron binary', () => {
  it('runs the check first', () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
    expect(scripts.start).toMatch(/^node scripts\/electron-check\.mjs && /);
    expect(scripts.dev).toMatch(/^node scripts\/electron-check\.mjs && /);
  });

  it('no path.txt: one paragraph naming what is missing and the command that fetches it; exit 1, no stack', () => {
    const dir = tempDir('apollia-electron-');
    const run = check(dir);
    expect([run.status, run.stdout]).toEqual([1, '']);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`the Electron binary is not installed (${join(dir, 'path.txt')} is missing`);
    // Electron 45 ships no install.js step run by npm: its own command fetches the binary.
    expect(run.stderr).toContain('Fetch it with `npx install-electron`');
    expect(run.stderr).not.toContain('install.js');
    expect(run.stderr).toContain('set ELECTRON_MIRROR to a mirror');
    expect(run.stderr).toContain('The command line and the tests work without it');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('path.txt naming a file that is not there: said; the file there: the start goes on', () => {
    const dir = tempDir('apollia-electron-');
    writeFileSync(join(dir, 'path.txt'), 'electron');
    const missing = check(dir);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(`the Electron binary ${join(dir, 'dist', 'electron')} is missing`);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'electron', version: '45.5.0' }));
    expect(check(dir).stderr).toContain('it downloads Electron 45.5.0 from github.com');
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'electron'), '');
    expect(check(dir)).toMatchObject({ status: 0, stdout: '', stderr: '' });
  });
});
