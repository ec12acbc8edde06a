import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFiles, packFolder } from '../../../test/helpers/pack';
import { RECORD_FILES, tempDir, treeHash } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { defaultDataDir } from './cli-data';

async function cli(argv: string[]) {
  return runCliCaptured(argv);
}

function apo(bytes: Buffer): string {
  const path = join(tempDir('apollia-cli-apo-'), 'package.apo');
  writeFileSync(path, bytes);
  return path;
}

describe('store commands', () => {
  it('says, when it seals a webhook secret, that it used a key file (no OS keychain) and where that key is', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const watcher = apo(packFolder(new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname));
    const done = await cli(['--data-dir', dataDir, 'install', watcher, '--yes', '--arm', 'on-call']);
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(done.stdout).toMatch(/Webhook secret for watcher\/on-call \(shown once, keep it now\): \S+\n/);
    const key = join(dataDir, 'secret-box.key');
    expect(done.stdout).toContain(
      `  The secret is stored encrypted with a key file, not an OS keychain (the command line cannot use one): the key is ${key}, and anyone who can read that folder can read the secret.\n`,
    );
    expect(done.stdout.toLowerCase()).not.toMatch(/keychain(?! \(the command line cannot use one\))/);
    expect(statSync(key).mode & 0o777).toBe(0o600);
  });

  it('install, list --json, a refused install leaving the folder byte for byte, uninstall leaving nothing', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const invoices = apo(packFolder(INVOICES_DIR));

    const dry = await cli(['--data-dir', dataDir, 'install', invoices]);
    expect(dry.code).toBe(0);
    expect(dry.stdout.trimEnd().split('\n').at(-1)).toBe('Nothing was changed: add --yes to do it');
    expect(existsSync(dataDir)).toBe(false);

    const done = await cli([
      '--data-dir',
      dataDir,
      'install',
      invoices,
      '--yes',
      '--withhold',
      'mcp:ledger/lookup',
      '--withhold',
      'pkg:invoices/extract_totals',
      '--arm',
      'first-monday',
    ]);
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(done.stdout).toContain(
      'Installed invoices 1.2.0 from Example Accounting (Unverified publisher).\n  invoice-clerk:\n    file_read: Asks you first\n    mcp:ledger/lookup: Not allowed\n    pkg:invoices/extract_totals: Not allowed\n  Trigger first-monday: armed\n',
    );
    expect(done.stdout).not.toContain('key file'); // no secret was sealed

    const list = await cli(['--data-dir', dataDir, 'list', '--json']);
    const json = JSON.parse(list.stdout);
    expect(json.packages.map((p: { name: string; version: string }) => [p.name, p.version])).toEqual([
      ['invoices', '1.2.0'],
    ]);
    expect(json.agents[0].access.map((a: { tool: string; granted: boolean }) => [a.tool, a.granted])).toEqual([
      ['file_read', true],
      ['mcp:ledger/lookup', false],
      ['pkg:invoices/extract_totals', false],
    ]);
    expect(json.triggers.map((t: { id: string; armed: boolean }) => [t.id, t.armed])).toEqual([
      ['invoices/first-monday', true],
    ]);

    const before = treeHash(dataDir, RECORD_FILES);
    const bad = apo(
      packFiles({
        'apollia.toml':
          '[package]\nname = "bad"\nversion = "1.2"\npublisher = "x"\nsdk = "0.3"\n[[agents]]\nid = "a"\nname = "A"\nmission = "m"\n',
      }),
    );
    const refusedRun = await cli(['--data-dir', dataDir, 'install', bad, '--yes']);
    expect(refusedRun.code).toBe(1);
    expect(refusedRun.stderr).toContain('package version `1.2` is not semver');
    expect(treeHash(dataDir, RECORD_FILES)).toBe(before);

    const again = await cli(['--data-dir', dataDir, 'install', invoices, '--yes']);
    expect([again.code, again.stdout]).toEqual([
      0,
      'invoices 1.2.0 is already installed (the same bytes): nothing to do.\n',
    ]);
    expect(treeHash(dataDir, RECORD_FILES)).toBe(before);

    const gone = await cli(['--data-dir', dataDir, 'uninstall', 'invoices']);
    expect([gone.code, gone.stdout]).toEqual([0, 'Uninstalled invoices 1.2.0: 1 agent and 1 trigger removed.\n']);
    expect(readdirSync(dataDir).filter((name) => !RECORD_FILES.includes(name))).toEqual(['state.json']);
    const empty = JSON.parse((await cli(['--data-dir', dataDir, 'list', '--json'])).stdout);
    expect(empty).toEqual({ packages: [], agents: [], triggers: [], damage: [] });
    // Uninstalled already (the record says so): done, exit 0; a name never installed is refused.
    const gone2 = await cli(['--data-dir', dataDir, 'uninstall', 'invoices']);
    expect([gone2.code, gone2.stdout]).toEqual([
      0,
      expect.stringMatching(/^invoices is not installed: it was uninstalled at \S+Z; nothing to do\.\n$/),
    ]);
    const never = await cli(['--data-dir', dataDir, 'uninstall', 'ledger']);
    expect([never.code, never.stderr]).toEqual([1, 'apollia-desktop: No package called `ledger` is installed.\n']);
  });

  it('apply makes the agent the preview showed, or nothing when it is blocked', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const template = new URL('../../../resources/templates/market-monitor', import.meta.url).pathname;
    const blocked = await cli(['--data-dir', dataDir, 'apply', template]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain("Can't apply market-monitor yet");
    expect(existsSync(dataDir)).toBe(false);
    const done = await cli(['--data-dir', dataDir, 'apply', template, '--param', 'companies=Acme', '--json', '--yes']);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ ok: true, applied: true, displayName: 'Market monitor: Acme' });
    const list = JSON.parse((await cli(['--data-dir', dataDir, 'list', '--json'])).stdout);
    expect(list.agents.map((a: { displayName: string }) => a.displayName)).toEqual(['Market monitor: Acme']);
  });

  it('defaults to the app data folder Electron uses for "Apollia Desktop"', () => {
    expect(defaultDataDir({ HOME: '/home/a' }, 'linux')).toBe('/home/a/.config/Apollia Desktop');
    expect(defaultDataDir({ HOME: '/Users/a' }, 'darwin')).toBe('/Users/a/Library/Application Support/Apollia Desktop');
    expect(defaultDataDir({ HOME: 'C:\\Users\\a', APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toBe(
      join('C:\\Users\\a\\AppData\\Roaming', 'Apollia Desktop'),
    );
  });
});

describe('install --yes of an update asks again', () => {
  const text = (name: string) => readFileSync(join(INVOICES_DIR, name), 'utf8');
  const update = () =>
    apo(
      packFiles({
        'apollia.toml': text('apollia.toml')
          .replace('version = "1.2.0"', 'version = "1.3.0"')
          .replace('access = ["file_read", ', 'access = ["file_read", "file_write", '),
        'tools/extract.py': text('tools/extract.py'),
        'workflows/reminders.py': text('workflows/reminders.py'),
      }),
    );

  it('keeps the answers given before and leaves new access ungranted, saying so; a flag changes only what it names', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    expect(
      (
        await cli([
          '--data-dir',
          dataDir,
          'install',
          apo(packFolder(INVOICES_DIR)),
          '--yes',
          '--withhold',
          'mcp:ledger/lookup',
          '--withhold',
          'pkg:invoices/extract_totals',
        ])
      ).code,
    ).toBe(0);
    const newer = update();
    const dry = await cli(['--data-dir', dataDir, 'install', newer]);
    expect(dry.stdout).toContain(
      'With --yes it installs, keeping your answers from before (what is new or widened left ungranted)',
    );
    expect(dry.stdout).toContain('    file_write: Not allowed: new in this version, tick it to allow\n');
    const done = await cli(['--data-dir', dataDir, 'install', newer, '--yes']);
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(done.stdout).toContain(
      '    file_read: Asks you first\n    file_write: Not allowed: new in this version, tick it to allow\n    mcp:ledger/lookup: Not allowed\n',
    );
    const state = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
    const granted = (state.agents['invoices/invoice-clerk'].access as { entry: string; granted: boolean }[])
      .filter((a) => a.granted)
      .map((a) => a.entry);
    expect(granted).toEqual(['file_read']);
  });
});
