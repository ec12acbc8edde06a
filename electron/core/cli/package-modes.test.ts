/**
 * An installed package's files have one set of modes, whichever command wrote them (install, an update, reinstall)
 * and after an existing loose data folder is tightened: its folders 0700 (their owner's alone, as the data folder:
 * DESIGN.md "Consent, install, apply"), its files 0644, or 0755 when the archive marks them executable (DESIGN.md
 * "Reading without running": normal modes, never the archive's). The data folder's own files are 0600.
 */
import { appendFileSync, chmodSync, cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/pack';
import { tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';

const WATCHER = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;

/** Every folder and file below `root` with its mode (`folder/` for a folder). */
function modes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const name = relative(root, path) + (entry.isDirectory() ? '/' : '');
      out[name] = (statSync(path).mode & 0o7777).toString(8);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(root);
  return out;
}

/** The watcher package at `version`, its tool executable, packed. */
function watcherApo(version: string): string {
  const dir = join(tempDir('apollia-modes-src-'), 'watcher');
  cpSync(WATCHER, dir, { recursive: true });
  const toml = join(dir, 'apollia.toml');
  writeFileSync(toml, readFileSync(toml, 'utf8').replace('version = "0.1.0"', `version = "${version}"`));
  chmodSync(join(dir, 'tools', 'tidy.py'), 0o755);
  const apo = join(tempDir('apollia-modes-apo-'), `watcher-${version}.apo`);
  writeFileSync(apo, packFolder(dir));
  return apo;
}

const PACKAGE_MODES = { 'apollia.toml': '644', 'tools/': '700', 'tools/tidy.py': '755' };

describe.skipIf(process.platform === 'win32')('an installed package’s modes', () => {
  it('are the same after install, an update and reinstall, and after a loose data folder is tightened', async () => {
    const dataDir = join(tempDir('apollia-modes-'), 'data');
    const cli = (argv: string[]) => runCliCaptured(['--data-dir', dataDir, ...argv]);
    const first = await cli(['install', watcherApo('0.1.0'), '--yes']);
    expect([first.code, first.stderr]).toEqual([0, '']);
    const installed = join(dataDir, 'packages', 'watcher', '0.1.0');
    expect(modes(installed)).toEqual(PACKAGE_MODES);
    expect((statSync(installed).mode & 0o777).toString(8)).toBe('700');
    expect((statSync(join(dataDir, 'state.json')).mode & 0o777).toString(8)).toBe('600');

    const v2 = watcherApo('0.2.0');
    const update = await cli(['install', v2, '--yes']);
    expect([update.code, update.stderr]).toEqual([0, '']);
    const updated = join(dataDir, 'packages', 'watcher', '0.2.0');
    expect(modes(updated)).toEqual(PACKAGE_MODES);
    expect((statSync(updated).mode & 0o777).toString(8)).toBe('700');

    appendFileSync(join(updated, 'tools', 'tidy.py'), '\n# changed here\n');
    chmodSync(join(updated, 'tools', 'tidy.py'), 0o666);
    const reinstall = await cli(['reinstall', v2, '--yes']);
    expect([reinstall.code, reinstall.stderr]).toEqual([0, '']);
    expect(modes(updated)).toEqual(PACKAGE_MODES);

    // A data folder others could read (as an older version left it): tightened, a package's files as install writes them.
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'state.json'), 0o644);
    chmodSync(join(updated, 'tools'), 0o755);
    chmodSync(join(updated, 'apollia.toml'), 0o664);
    const listed = await cli(['list']);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain('it is now yours alone');
    expect(modes(updated)).toEqual(PACKAGE_MODES);
    expect((statSync(join(dataDir, 'state.json')).mode & 0o777).toString(8)).toBe('600');
    expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
  });
});
