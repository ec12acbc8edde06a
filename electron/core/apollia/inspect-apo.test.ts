import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { INVOICES_DIR, packFiles, packFolder } from '../../../test/helpers/pack';
import { inspectApo } from './index';

const FIXTURES = new URL('../../../test/fixtures/apo', import.meta.url).pathname;
let dir: string;
const write = (name: string, bytes: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'inspect-apo-'));
});

describe('inspectApo (archive → schema → rules → module scan → SDK)', () => {
  test.each([true, false])('the complete example is accepted (gzip: %s)', async (gzip) => {
    const result = await inspectApo(write(`invoices-${gzip}.apo`, packFolder(INVOICES_DIR, { gzip })));
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.summary).toMatchObject({
      name: 'invoices',
      version: '1.2.0',
      publisher: 'Example Accounting',
      sensitive_families: ['execute_code', 'read_personal', 'send_external'],
      connections: ['gmail'],
      mcp_servers: ['ledger'],
      triggers: [{ id: 'first-monday', type: 'cron', needs: null }],
    });
    expect(result.summary?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(result.details?.files.map((f) => f.path).sort()).toEqual([
      'apollia.toml',
      'tools/extract.py',
      'workflows/reminders.py',
    ]);
    expect(result.details?.sdkSupported).toBe(true);
    expect(result.details?.sdkVersion).toBe('0.3.2');
  });

  test('an archive problem comes first and leaves no summary', async () => {
    const result = await inspectApo(write('junk.apo', Buffer.from('\x1f\x8bnot really gzip')));
    expect(result.ok).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.code).toMatch(/^archive\./);
    expect(result.summary).toBeNull();
    expect(result.details).toBeNull();
  });

  test('a refused manifest still has its summary and details', async () => {
    const toml = readFileSync(join(INVOICES_DIR, 'apollia.toml'), 'utf8').replace(
      'version = "1.2.0"',
      'version = "1.2"',
    );
    const files = {
      'apollia.toml': toml,
      'tools/extract.py': readFileSync(join(INVOICES_DIR, 'tools/extract.py'), 'utf8'),
      'workflows/reminders.py': readFileSync(join(INVOICES_DIR, 'workflows/reminders.py'), 'utf8'),
    };
    const result = await inspectApo(write('bad-version.apo', packFiles(files)));
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toEqual({
      code: 'manifest.bad_version',
      message: 'package version `1.2` is not semver',
      path: 'package.version',
    });
    expect(result.summary?.name).toBe('invoices');
    expect(result.details?.manifest.package.version).toBe('1.2');
  });

  test('the watcher fixture: every source type, with warnings', async () => {
    const result = await inspectApo(write('watcher.apo', packFolder(join(FIXTURES, 'watcher'))));
    expect(result.errors).toEqual([]);
    expect(result.summary?.triggers).toEqual([
      { id: 'hourly', type: 'interval', needs: null },
      { id: 'on-change', type: 'file_watch', needs: 'folder' },
      { id: 'on-call', type: 'webhook', needs: 'secret' },
    ]);
    expect(result.summary?.sensitive_families).toEqual(['write_or_delete']);
    expect(result.warnings.map((w) => w.code)).toEqual([
      'package.manifest.retired_key',
      'package.manifest.unpinned_requirement',
    ]);
  });

  test('the undescribed-tool fixture is refused by the module scan, and its code never runs', async () => {
    const marker = join(dir, 'ran.txt');
    const result = await inspectApo(write('sneaky.apo', packFolder(join(FIXTURES, 'undescribed-tool'))));
    expect(result.errors).toEqual([
      {
        code: 'manifest.undescribed_function',
        message:
          'module `tools/helpers.py` defines the tool `send_everything` (as `exfiltrate`), which the manifest does not describe',
        path: 'tools/helpers.py',
      },
    ]);
    expect(existsSync(marker)).toBe(false);
  });
});
