/**
 * A package is identified by its archive's SHA-256 (DESIGN.md "Trust after install"): the same name and version with
 * other bytes is another package (`inspect` says so, `install` treats it as an update), `reinstall` puts back only the
 * installed bytes (other bytes refused, both SHA-256s named), and a package marked changed is neither armed nor
 * granted until it is reinstalled or removed.
 */
import { appendFileSync, cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/pack';
import { tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';

const WATCHER = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;

/** The watcher installed (nothing armed), its .apo, and an .apo of the same name and version with other bytes. */
async function installed() {
  const dir = tempDir('apollia-identity-');
  const dataDir = join(dir, 'data');
  const apo = join(dir, 'watcher.apo');
  writeFileSync(apo, packFolder(WATCHER));
  const otherDir = join(dir, 'other');
  cpSync(WATCHER, otherDir, { recursive: true });
  appendFileSync(join(otherDir, 'tools', 'tidy.py'), '\n# other bytes, same name and version\n');
  const other = join(dir, 'other.apo');
  writeFileSync(other, packFolder(otherDir));
  const cli = (argv: string[]) => runCliCaptured(['--data-dir', dataDir, ...argv], { cwd: dir });
  const done = await cli(['install', apo, '--yes', '--grant', 'file_list']);
  expect([done.code, done.stderr]).toEqual([0, '']);
  const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
  return { dataDir, apo, other, cli, sha: sha(apo), otherSha: sha(other) };
}

const state = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));

/** Changes an installed file, and lets `verify` find it. */
async function tamper(dataDir: string, cli: (argv: string[]) => ReturnType<typeof runCliCaptured>) {
  const [version] = readdirSync(join(dataDir, 'packages', 'watcher'));
  appendFileSync(join(dataDir, 'packages', 'watcher', version as string, 'tools', 'tidy.py'), '\nimport os\n');
  expect((await cli(['verify'])).code).toBe(1);
}

describe('the same name and version with other bytes is another package', () => {
  it('inspect says so (text and --json), naming both SHA-256s', async () => {
    const { other, cli, sha, otherSha } = await installed();
    const json = JSON.parse((await cli(['inspect', other, '--json'])).stdout);
    expect(json.summary.installed).toEqual({ version: '0.1.0', sha256: sha, relation: 'other_bytes' });
    const text = (await cli(['inspect', other])).stdout;
    expect(text).toContain(
      `installed here: watcher 0.1.0 with other bytes (sha256 ${sha} installed, ${otherSha} here): this is another package`,
    );
    const same = JSON.parse((await cli(['inspect', join(other, '..', 'watcher.apo'), '--json'])).stdout);
    expect(same.summary.installed.relation).toBe('same');
  });

  it('install treats it as an update (not "already installed"); the same bytes again are refused', async () => {
    const { dataDir, apo, other, cli, otherSha } = await installed();
    // Already done: said, exit 0 (a rerun after a kill must not fail, DESIGN.md "Commit points").
    const again = await cli(['install', apo, '--yes']);
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('watcher 0.1.0 is already installed')]);
    const dry = await cli(['install', other]);
    expect(dry.stdout).toContain('this one has the same name and version but other bytes: it is another package');
    const done = await cli(['install', other, '--yes']);
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(done.stdout).toMatch(/^Updated watcher 0\.1\.0 \(was 0\.1\.0\)/);
    expect(state(dataDir).packages.watcher.sha256).toBe(otherSha);
  });

  it('reinstall refuses other bytes, naming both hashes, and changes nothing; the installed bytes go back', async () => {
    const { dataDir, apo, other, cli, sha, otherSha } = await installed();
    await tamper(dataDir, cli);
    const before = readFileSync(join(dataDir, 'state.json'), 'utf8');
    const run = await cli(['reinstall', other, '--yes']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`its sha256 is ${otherSha}, the installed one's ${sha}`);
    expect(readFileSync(join(dataDir, 'state.json'), 'utf8')).toBe(before);
    const back = await cli(['reinstall', apo, '--yes']);
    expect([back.code, back.stderr]).toEqual([0, '']);
    expect((await cli(['verify'])).code).toBe(0);
  });

  it('a package marked changed is neither armed nor granted (the message says how); revoking still works', async () => {
    const { dataDir, apo, cli } = await installed();
    await tamper(dataDir, cli);
    const arm = await cli(['arm', 'watcher/hourly']);
    expect(arm.code).toBe(1);
    expect(arm.stderr).toContain('trigger `hourly` was not armed: the files of watcher changed on this computer');
    expect(arm.stderr).toContain('reinstall it from its .apo (`reinstall PATH`, or open the .apo again) or remove it');
    const grant = await cli(['grant', 'watcher/tidy', 'pkg:watcher/tidy_folder']);
    expect(grant.code).toBe(1);
    expect(grant.stderr).toContain('the files of watcher changed on this computer');
    expect(state(dataDir).triggers['watcher/hourly'].armed).toBe(false);
    expect((await cli(['revoke', 'watcher/tidy', 'file_list'])).code).toBe(0);
    expect((await cli(['reinstall', apo, '--yes'])).code).toBe(0);
    expect((await cli(['arm', 'watcher/hourly'])).code).toBe(0);
  });
});
