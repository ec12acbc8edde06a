/**
 * `reinstall` of a package an older version of the app found changed and DISARMED (before the pause by integrity:
 * its store keeps the disarmed triggers with the mark, `integrity.disarmed`): what was disarmed is armed again, each
 * watched folder as it was, a webhook with a new secret printed once (the old one was deleted then).
 */
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/pack';
import { tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { sharedChecker } from '../bounded/index';

beforeAll(() => sharedChecker().warm(), 120_000);

const WATCHER = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;
const state = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));

describe('reinstall after an older version disarmed a changed package', () => {
  it('arms again what was disarmed, the folder as it was, a webhook with a new secret', async () => {
    const dir = tempDir('apollia-cli-');
    const dataDir = join(dir, 'data');
    const apo = join(dir, 'watcher.apo');
    writeFileSync(apo, packFolder(WATCHER));
    const cli = (argv: string[]) => runCliCaptured(['--data-dir', dataDir, ...argv], { cwd: dir });
    expect((await cli(['install', apo, '--yes'])).code).toBe(0);
    const folder = tempDir('apollia-watched-');
    expect((await cli(['arm', 'watcher/on-change', '--folder', folder])).code).toBe(0);
    expect((await cli(['arm', 'watcher/on-call'])).code).toBe(0);
    const [version] = readdirSync(join(dataDir, 'packages', 'watcher'));
    appendFileSync(join(dataDir, 'packages', 'watcher', version as string, 'tools', 'tidy.py'), '\n# changed\n');
    // What the older check left: the mark with the triggers it disarmed, each off, the webhook's secret deleted.
    const old = state(dataDir);
    const armedFolder = old.triggers['watcher/on-change'].folder;
    old.packageTrust.watcher.integrity = {
      state: 'changed',
      checkedAt: '2026-11-01T00:00:00.000Z',
      changed: ['tools/tidy.py'],
      missing: [],
      added: [],
      disarmed: [
        { trigger: 'watcher/on-change', folder: armedFolder },
        { trigger: 'watcher/on-call', folder: null },
      ],
    };
    for (const id of ['watcher/on-change', 'watcher/on-call']) {
      const ref = old.triggers[id].secretRef;
      if (ref) delete old.webhookSecrets[ref];
      Object.assign(old.triggers[id], {
        armed: false,
        armedAt: null,
        folder: null,
        secretRef: null,
        secretOrigin: null,
        secretSetAt: null,
      });
    }
    writeFileSync(join(dataDir, 'state.json'), JSON.stringify(old));

    const dry = await cli(['reinstall', apo]);
    expect([dry.code, dry.stderr]).toEqual([0, '']);
    expect(dry.stdout).toContain(
      `  arms again: watcher/on-change, watching ${armedFolder}\n  arms again: watcher/on-call\n`,
    );
    expect(dry.stdout).not.toContain('resumes:');
    const done = await cli(['reinstall', apo, '--yes']);
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(done.stdout).toContain('  Armed again: watcher/on-change, watcher/on-call\n');
    expect(done.stdout).toMatch(/New webhook secret for watcher\/on-call \(shown once[^)]*\): whsec_\S+\n/);
    const after = state(dataDir);
    expect([after.triggers['watcher/on-change'].armed, after.triggers['watcher/on-change'].folder]).toEqual([
      true,
      armedFolder,
    ]);
    expect(after.triggers['watcher/on-call'].armed).toBe(true);
    expect((await cli(['verify'])).code).toBe(0);
  }, 60_000);
});
