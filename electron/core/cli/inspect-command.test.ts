import { spawnSync } from 'node:child_process';
import { UNSIGNED } from '../../../shared/trust/trust';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ApoDetails, ApoSummary, Inspection } from '../../../shared/manifests/inspection';
import { INVOICES_DIR, packFiles, packFolder } from '../../../test/helpers/pack';
import { skipWithoutBuild } from '../../../test/helpers/built-output';
import { checkApolliaManifest } from '../apollia/check-manifest';
import { summariseManifest } from '../apollia/summary';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { formatInspection } from './inspection-text';

let dir: string;

/** Runs the CLI in-process, capturing its output. */
async function cli(...argv: string[]) {
  return runCliCaptured(argv, { cwd: dir, env: {} });
}

const invoicesText = (name: string) => readFileSync(join(INVOICES_DIR, name), 'utf8');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-inspect-'));
  writeFileSync(join(dir, 'invoices.apo'), packFolder(INVOICES_DIR));
  writeFileSync(join(dir, 'invoices.tar'), packFolder(INVOICES_DIR, { gzip: false }));
  writeFileSync(
    join(dir, 'bad-version.apo'),
    packFiles({
      'apollia.toml': invoicesText('apollia.toml')
        .replace('version = "1.2.0"', 'version = "1.2"')
        .replace('"pkg:invoices/extract_totals"', '"pkg:invoices/nope"'),
      'tools/extract.py': invoicesText('tools/extract.py'),
      'workflows/reminders.py': invoicesText('workflows/reminders.py'),
    }),
  );
  writeFileSync(
    join(dir, 'future-sdk.apo'),
    packFiles({
      'apollia.toml': invoicesText('apollia.toml').replace('sdk = ">=0.3, <0.4"', 'sdk = ">=9"'),
      'tools/extract.py': invoicesText('tools/extract.py'),
      'workflows/reminders.py': invoicesText('workflows/reminders.py'),
    }),
  );
  writeFileSync(join(dir, 'notes.txt'), 'just some notes\n');
  writeFileSync(join(dir, 'zipped.apo'), Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(60)]));
  writeFileSync(join(dir, 'plugin.json'), '{"name": "x"}\n');
  mkdirSync(join(dir, 'template'));
});

describe('inspect: a refusal a newer app fixes', () => {
  test('says where the newest app is; an author refusal does not', async () => {
    const future = await cli('inspect', 'future-sdk.apo');
    expect(future.code).toBe(1);
    expect(future.stdout).toContain(
      'Update the app: get the newest Apollia Desktop at https://apollia.app/download, then inspect it again.',
    );
    expect((await cli('inspect', 'bad-version.apo')).stdout).not.toContain('Update the app');
  });
});

describe('inspect: exit codes', () => {
  test.each(['invoices.apo', 'invoices.tar'])('%s --json: exit 0 and one JSON object', async (file) => {
    const { code, stdout, stderr } = await cli('inspect', file, '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as Inspection<ApoSummary, ApoDetails>;
    expect(Object.keys(json)).toEqual(['kind', 'ok', 'errors', 'warnings', 'summary', 'details', 'policy']);
    expect(json.kind).toBe('apo');
    expect(json.ok).toBe(true);
    expect(json.errors).toEqual([]);
    expect(json.summary?.sensitive_families).toEqual(['execute_code', 'read_personal', 'send_external']);
    expect(json.summary?.connections).toEqual(['gmail']);
    expect(json.summary?.mcp_servers).toEqual(['ledger']);
    expect(json.summary?.triggers).toEqual([{ id: 'first-monday', type: 'cron', needs: null }]);
    expect(json.details?.manifest.package.name).toBe('invoices');
  });

  test("refused: exit 1, the first problem in the spec's words, then the others", async () => {
    const { code, stdout } = await cli('inspect', join(dir, 'bad-version.apo'));
    expect(code).toBe(1);
    expect(stdout).toContain(
      '\nRefused: package version `1.2` is not semver (at package.version)\nFurther problems:\n  - agent `invoice-clerk` grants `pkg:invoices/nope`, which is not a tool of package `invoices` (at agents[0].defaults.access[2])\n',
    );
    const json = JSON.parse((await cli('inspect', 'bad-version.apo', '--json')).stdout) as Inspection;
    expect(json.ok).toBe(false);
    expect(json.errors[0]).toEqual({
      code: 'manifest.bad_version',
      message: 'package version `1.2` is not semver',
      path: 'package.version',
    });
  });

  test('refused: a file that is no package', async () => {
    const { code, stdout } = await cli('inspect', 'notes.txt', '--json');
    expect(code).toBe(1);
    expect((JSON.parse(stdout) as Inspection).errors[0]?.code).toBe('input.not_a_package');
  });

  test('refused: an unreadable archive (a zip) is exit 1, not a usage error', async () => {
    const { code, stdout } = await cli('inspect', 'zipped.apo', '--json');
    expect(code).toBe(1);
    const json = JSON.parse(stdout) as Inspection;
    expect(json.kind).toBe('apo');
    expect(json.errors[0]?.code).toMatch(/^archive\./);
    expect(json.summary).toBeNull();
  });

  test('a folder goes to the template reader, a JSON file to the plugin reader', async () => {
    expect((JSON.parse((await cli('inspect', 'template', '--json')).stdout) as Inspection).kind).toBe('template');
    expect((JSON.parse((await cli('inspect', 'plugin.json', '--json')).stdout) as Inspection).kind).toBe('plugin');
  });

  test.each([
    [['inspect'], 'inspect needs a PATH'],
    [['inspect', 'nowhere.apo'], 'no such file or folder: nowhere.apo'],
    [['inspect', 'invoices.apo', '--yaml'], 'unknown option `--yaml` for inspect'],
    [['inspect', 'invoices.apo', 'invoices.tar'], 'inspect takes one PATH, got 2'],
    [['frobnicate'], 'unknown command `frobnicate`'],
    [[], 'no command given'],
    [['--data-dir'], '--data-dir needs a folder'],
  ])('usage error %j: exit 2 with one line on stderr, pointing at the usage', async (argv, problem) => {
    const { code, stdout, stderr } = await cli(...argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const [line, hint, rest] = stderr.split('\n');
    expect(line).toBe(`apollia-desktop: ${problem}`);
    expect(hint).toMatch(/^\(`apollia-desktop( inspect)? --help` shows the usage\)$/);
    expect(rest).toBe('');
  });

  test('--help prints usage and exits 0; --data-dir is global', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('inspect PATH|NAME [--json]');
    expect((await cli('--data-dir', 'store', 'inspect', 'invoices.apo', '--json')).code).toBe(0);
    expect((await cli('inspect', '--data-dir=store', 'invoices.apo')).code).toBe(0);
  });
});

describe('the human text of a template', () => {
  test('ends with its verdict, the worst first, as the app shows it', async () => {
    const template = new URL('../../../resources/templates/market-monitor', import.meta.url).pathname;
    const { code, stdout } = await cli('inspect', template);
    expect(code).toBe(0);
    expect(stdout).toContain(
      '\nHigh risk: Can send or post in your name, on its own\n  - Sends through your saved MCP servers: slack_send_message (slack), GMAIL_SEND_EMAIL (gmail): each only where its pin says.\n  - The template recommends running unattended: its tools would run, started by its trigger, without asking you.\n  - Reaches the internet: web_search, web_fetch.\n\nAccepted.\n',
    );
  });
});

describe('the human text', () => {
  test('says what it is, who published it, what it can do, servers and triggers', () => {
    const check = checkApolliaManifest(invoicesText('apollia.toml'), {
      files: [{ path: 'apollia.toml' }, { path: 'tools/extract.py' }, { path: 'workflows/reminders.py' }],
      pythonTexts: new Map([
        ['tools/extract.py', invoicesText('tools/extract.py')],
        ['workflows/reminders.py', invoicesText('workflows/reminders.py')],
      ]),
    });
    const inspection: Inspection = {
      kind: 'apo',
      ok: true,
      errors: [],
      warnings: [],
      summary: summariseManifest(check.manifest!, 'f'.repeat(64), UNSIGNED),
      details: { manifest: check.manifest!, files: [], totalBytes: 2048, sdkSupported: true, sdkVersion: '0.3.2' },
    };
    const text = formatInspection(inspection, { now: new Date('2026-11-30T10:00:00Z') });
    const lines = text.split('\n');
    expect(lines[0]).toBe('invoices 1.2.0 — Reads supplier invoices and drafts the reminders.');
    expect(lines[1]).toBe('publisher: Example Accounting (Unverified publisher)');
    expect(lines[2]).toBe('signature: It is not signed: anyone can write any publisher name.');
    const can = lines.indexOf('What it can do (sensitive first):');
    expect(lines.slice(can + 1, can + 5)).toEqual([
      '  Runs a program on this computer: `uvx ledger-mcp` (MCP server ledger)',
      '  Can send things outside this computer: workflow monthly-reminders',
      '  Reads your personal data: tool extract_totals, built-in tool file_read',
      '',
    ]);
    expect(text).toContain("\n  gmail (Gmail): Reminders are sent from the user's mailbox.\n");
    expect(text).toContain('\n  ledger: runs `uvx ledger-mcp`\n');
    expect(text).toContain(
      '\n  first-monday → monthly-reminders: At 08:00, on the first Monday of each month (UTC) [0 8 1-7 * MON]\n' +
        '    next: 2026-12-07 08:00 UTC, 2027-01-04 08:00 UTC, 2027-02-01 08:00 UTC\n',
    );
    expect(text.endsWith('\nAccepted.\n')).toBe(true);
  });
});

const BUILT = new URL('../../../out/cli/cli.cjs', import.meta.url).pathname;

test.skipIf(skipWithoutBuild(BUILT))('the built CLI: exit 0 and JSON for the complete example', () => {
  expect(existsSync(BUILT), 'out/cli/cli.cjs is missing: run `npm run build` first').toBe(true);
  const child = spawnSync(process.execPath, [BUILT, 'inspect', join(dir, 'invoices.apo'), '--json'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(child.status).toBe(0);
  expect((JSON.parse(child.stdout) as Inspection).summary).toMatchObject({ name: 'invoices', mcp_servers: ['ledger'] });
  // A command that reads a package starts the bounded worker before it parses its arguments
  // (electron/cli.ts): the process still ends at once when no job ever runs (a time limit, so a
  // worker that keeps it alive fails here instead of hanging the suite).
  const usage = spawnSync(process.execPath, [BUILT, 'inspect'], { encoding: 'utf8', timeout: 30_000 });
  expect([usage.status, usage.signal]).toEqual([2, null]);
  const missing = spawnSync(process.execPath, [BUILT, 'inspect', join(dir, 'nowhere.apo')], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect([missing.status, missing.signal]).toEqual([2, null]);
});
