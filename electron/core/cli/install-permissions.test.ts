/**
 * A package's own code is its author's word: after `install --yes`, the stored record (and so
 * `list --json`) has a `pkg:` tool declaring `read` asking first unless a key the person trusts
 * signed the package or the person chose `--allow`; what was decided at install stays when the key
 * is removed later. Keys and signatures are made by the real `minisign`; the stored state is read.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import {
  describeWithMinisign,
  type MinisignKeyPair,
  minisignKeyPair,
  minisignSign,
} from '../../../test/helpers/minisign-tool';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { editedPackage, tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { sharedChecker } from '../bounded/index';

beforeAll(() => sharedChecker().warm(), 120_000);

/** invoices whose own tool declares that it only reads. */
function readingInvoices(dir: string): string {
  const folder = editedPackage(INVOICES_DIR, (toml) => toml.replace('action = "read_personal"', 'action = "read"'));
  const path = join(dir, 'invoices.apo');
  writeFileSync(path, packFolder(folder));
  return path;
}

function storedAccess(dataDir: string): Record<string, string> {
  const state = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
  return Object.fromEntries(
    (state.agents['invoices/invoice-clerk'].access as { entry: string; permission: string }[]).map((a) => [
      a.entry,
      a.permission,
    ]),
  );
}

async function cli(argv: string[]) {
  return runCliCaptured(argv);
}

describeWithMinisign('how a package tool runs, decided at install and kept', () => {
  let publisher: MinisignKeyPair;
  beforeAll(() => {
    publisher = minisignKeyPair(tempDir('apollia-perm-keys-'), 'publisher');
  });

  it('unsigned: every pkg: entry asks first, whatever its author declares', async () => {
    const dataDir = join(tempDir('apollia-perm-'), 'data');
    const done = await cli(['--data-dir', dataDir, 'install', readingInvoices(tempDir()), '--yes']);
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(storedAccess(dataDir)['pkg:invoices/extract_totals']).toBe('ask');
    const list = JSON.parse((await cli(['--data-dir', dataDir, 'list', '--json'])).stdout);
    expect(
      list.agents[0].access.find((a: { tool: string }) => a.tool === 'pkg:invoices/extract_totals').permission,
    ).toBe('ask');
    expect(done.stdout).toContain(
      "    pkg:invoices/extract_totals: Asks you first: the package's own code, and only its author says it only reads\n",
    );
  });

  it("unsigned with the person's --allow: allow; --allow of a sensitive entry is refused with nothing written", async () => {
    const dataDir = join(tempDir('apollia-perm-'), 'data');
    const apo = readingInvoices(tempDir());
    const refused = await cli(['--data-dir', dataDir, 'install', apo, '--yes', '--allow', 'file_read']);
    expect([refused.code, refused.stderr]).toEqual([
      1,
      'apollia-desktop: agent `invoice-clerk` of invoices: `file_read` can read your personal data, so it asks you before each call: it cannot run without asking (at decisions.agents.invoice-clerk.access.file_read)\n',
    ]);
    const done = await cli(['--data-dir', dataDir, 'install', apo, '--yes', '--allow', 'pkg:invoices/extract_totals']);
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(storedAccess(dataDir)['pkg:invoices/extract_totals']).toBe('allow');
  });

  it('signed by a key the person trusts (and --allow): allow; removing the key later changes nothing stored', async () => {
    const dataDir = join(tempDir('apollia-perm-'), 'data');
    const apo = readingInvoices(tempDir());
    minisignSign(publisher, apo, { trustedComment: 'invoices 1.2.0' });
    expect(
      (await cli(['--data-dir', dataDir, 'trust', 'add', publisher.publicKeyPath, '--name', 'Example Accounting']))
        .code,
    ).toBe(0);
    const done = await cli(['--data-dir', dataDir, 'install', apo, '--yes', '--allow', 'pkg:invoices/extract_totals']);
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(storedAccess(dataDir)).toEqual({
      file_read: 'ask',
      'mcp:ledger/lookup': 'ask',
      'pkg:invoices/extract_totals': 'allow',
    });

    const other = join(tempDir('apollia-perm-'), 'data');
    expect(
      (await cli(['--data-dir', other, 'trust', 'add', publisher.publicKeyPath, '--name', 'Example Accounting'])).code,
    ).toBe(0);
    const byDefault = await cli(['--data-dir', other, 'install', apo, '--yes']);
    expect(byDefault.stdout).toContain(
      '    pkg:invoices/extract_totals: Runs without asking: its verified publisher says it only reads\n',
    );
    expect(storedAccess(other)['pkg:invoices/extract_totals']).toBe('allow');
    expect((await cli(['--data-dir', other, 'trust', 'remove', publisher.printedKeyId, '--yes'])).code).toBe(0);
    expect(storedAccess(other)['pkg:invoices/extract_totals']).toBe('allow');
  });
});
