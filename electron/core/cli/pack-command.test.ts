/**
 * `apollia-desktop pack`: the same folder gives the same bytes and SHA-256 every time,
 * the result is accepted by inspect, and a folder inspect would refuse writes nothing.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { INVOICES_DIR } from '../../../test/helpers/pack';
import { inspectApo } from '../apollia/index';
import type { CliIo } from './cli-io';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { runCli } from './dispatcher';

let dir: string;

async function cli(...argv: string[]) {
  return runCliCaptured(argv, { cwd: dir, env: {} });
}

/** A copy of the spec example to pack, with its own times and modes. */
function invoicesCopy(name = 'invoices'): string {
  const copy = join(dir, name);
  cpSync(INVOICES_DIR, copy, { recursive: true });
  return copy;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-pack-'));
});

describe('pack', () => {
  it('-o into a folder that does not exist yet makes the folder', async () => {
    invoicesCopy();
    const { code, stdout, stderr } = await cli('pack', 'invoices', '-o', 'dist/nested/m.apo');
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout).toContain(`${join(dir, 'dist/nested/m.apo')}\n`);
    expect(readdirSync(join(dir, 'dist/nested'))).toEqual(['m.apo']);
  });

  it('an unpacked package folder is said to be one by inspect and install, with the pack command', async () => {
    invoicesCopy();
    const inspected = await cli('inspect', 'invoices');
    expect(inspected.code).toBe(1);
    expect(inspected.stdout).toMatch(/^package folder, not yet packed \(apollia.toml at its root\)\n/);
    expect(inspected.stdout).not.toContain('template folder');
    expect(inspected.stdout).toContain(
      'Pack it with `apollia-desktop pack invoices`, then open the .apo file it writes.\n',
    );
    const installed = await cli('--data-dir', join(dir, 'data'), 'install', 'invoices', '--yes');
    expect([installed.code, installed.stderr]).toEqual([
      1,
      'apollia-desktop: invoices is a package folder, not yet packed: pack it with `pack invoices`, then install the .apo it writes\n',
    ]);
  });

  it('writes NAME-VERSION.apo, prints its SHA-256, and inspect accepts it', async () => {
    invoicesCopy();
    const { code, stdout, stderr } = await cli('pack', 'invoices');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const out = join(dir, 'invoices-1.2.0.apo');
    const bytes = readFileSync(out);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(stdout).toBe(`Packed invoices 1.2.0: 3 files, ${bytes.length} bytes, written\n${out}\nsha256 ${sha256}\n`);
    const inspection = await inspectApo(out);
    expect(inspection.ok).toBe(true);
    expect(inspection.details?.files.map((file) => file.path)).toEqual([
      'apollia.toml',
      'tools/extract.py',
      'workflows/reminders.py',
    ]);
  });

  it('gives the same bytes for the same folder: two runs, other mtimes, modes and folder names', async () => {
    const first = invoicesCopy('one');
    const second = invoicesCopy('two');
    utimesSync(join(second, 'apollia.toml'), new Date('2030-01-01'), new Date('2030-01-01'));
    chmodSync(join(second, 'tools/extract.py'), 0o664);
    expect((await cli('pack', first, '-o', 'a.apo')).code).toBe(0);
    expect((await cli('pack', second, '-o', 'b.apo')).code).toBe(0);
    expect((await cli('pack', first, '--output=c.apo')).code).toBe(0);
    const a = readFileSync(join(dir, 'a.apo'));
    expect(readFileSync(join(dir, 'b.apo')).equals(a)).toBe(true);
    expect(readFileSync(join(dir, 'c.apo')).equals(a)).toBe(true);
  });

  it('keeps an execute bit (0755) and nothing else of the mode', async () => {
    const copy = invoicesCopy();
    chmodSync(join(copy, 'tools/extract.py'), 0o744);
    expect((await cli('pack', 'invoices', '-o', 'x.apo')).code).toBe(0);
    const inspection = await inspectApo(join(dir, 'x.apo'));
    expect(inspection.details?.files.find((file) => file.path === 'tools/extract.py')?.executable).toBe(true);
  });

  it('refuses a folder inspect refuses, writing nothing', async () => {
    const copy = invoicesCopy();
    const manifest = join(copy, 'apollia.toml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('version = "1.2.0"', 'version = "1.2"'));
    const before = readdirSync(dir).sort();
    const { code, stdout, stderr } = await cli('pack', 'invoices');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      'apollia-desktop pack: the folder invoices is refused by the checks of inspect; nothing was written.',
    );
    expect(stderr).toContain('Refused: ');
    expect(stderr).toContain('1.2');
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('refuses a folder holding a symbolic link (the archive rule), writing nothing', async () => {
    const copy = invoicesCopy();
    symlinkSync('/etc/passwd', join(copy, 'tools/passwd'));
    const { code, stderr } = await cli('pack', 'invoices', '-o', 'x.apo');
    expect(code).toBe(1);
    expect(stderr).toContain(
      'Refused: archive entry `tools/passwd` is a symbolic link (to `/etc/passwd`): links are not accepted',
    );
    expect(existsSync(join(dir, 'x.apo'))).toBe(false);
  });

  it('refuses a folder with no apollia.toml', async () => {
    invoicesCopy();
    const { code, stderr } = await cli('pack', 'invoices/tools', '-o', 'x.apo');
    expect(code).toBe(1);
    expect(stderr).toContain(
      'Refused: the archive has no apollia.toml, neither at its root nor in a single top-level folder holding the package',
    );
    expect(existsSync(join(dir, 'x.apo'))).toBe(false);
  });

  it('leaves an identical output alone, refuses a different one, and replaces it with --force', async () => {
    invoicesCopy();
    expect((await cli('pack', 'invoices', '-o', 'x.apo')).code).toBe(0);
    const again = await cli('pack', 'invoices', '-o', 'x.apo');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(', unchanged (the file already holds these bytes)\n');
    writeFileSync(join(dir, 'x.apo'), "someone else's build");
    const refused = await cli('pack', 'invoices', '-o', 'x.apo');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `apollia-desktop: ${join(dir, 'x.apo')} already exists with other bytes; pass --force to replace it. Nothing was written\n`,
    );
    expect(readFileSync(join(dir, 'x.apo'), 'utf8')).toBe("someone else's build");
    const forced = await cli('pack', 'invoices', '-o', 'x.apo', '--force');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(', replaced\n');
    expect((await inspectApo(join(dir, 'x.apo'))).ok).toBe(true);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('run from inside the folder, writes beside it; an output inside the folder is a usage error', async () => {
    const copy = invoicesCopy();
    let stdout = '';
    const io: CliIo = {
      stdout: (s) => {
        stdout += s;
      },
      stderr: () => undefined,
      cwd: join(copy, 'tools'),
      env: {},
    };
    expect(await runCli(['pack', '..'], io)).toBe(0);
    expect(stdout).toContain(`\n${join(dir, 'invoices-1.2.0.apo')}\n`);
    const inside = await cli('pack', 'invoices', '-o', 'invoices/x.apo');
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain(
      `the output ${join(copy, 'x.apo')} would be inside the folder being packed: write it elsewhere (-o ../x.apo)`,
    );
    expect(existsSync(join(copy, 'x.apo'))).toBe(false);
  });

  it('usage errors exit 2', async () => {
    expect((await cli('pack')).code).toBe(2);
    expect((await cli('pack', 'nowhere')).stderr).toContain('no such folder: nowhere');
    expect((await cli('pack', 'a', 'b')).code).toBe(2);
    expect((await cli('pack', '.', '--bogus')).stderr).toContain('unknown option `--bogus` for pack');
    expect((await cli('pack', '.', '-o')).stderr).toContain('-o needs a FILE');
    const help = await cli('--help');
    expect(help.stdout).toContain('pack DIR [-o|--output FILE] [--force]');
  });
});
