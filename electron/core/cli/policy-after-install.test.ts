/**
 * The CLI's doors under a policy written AFTER the install (DESIGN.md "Managed policy": one evaluation for every door,
 * for what is installed as much as for what is new): `grant` and `arm` on a package the policy now refuses are refused
 * with the policy's reason, nothing written; `disarm` and `revoke` (the person's) still work; an update is
 * refused; lifting the policy lets `grant` and `arm` through again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { editedPackage, tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { sharedChecker } from '../bounded/index';

beforeAll(() => sharedChecker().warm(), 120_000);

const ORG = 'your organization does not allow this; your administrator can change the policy';

describe('the CLI’s doors under a policy written after the install', () => {
  it('grant and arm are refused with the policy’s reason, nothing written; revoke and disarm work; lifting it lets them through', async () => {
    const dir = tempDir('apollia-cli-after-');
    const dataDir = join(dir, 'data');
    const policy = join(dir, 'policy.json');
    writeFileSync(policy, JSON.stringify({ version: 1 }));
    const env = { HOME: '/home/someone', APOLLIA_POLICY_FILE: policy };
    const cli = (argv: string[]) => runCliCaptured(['--data-dir', dataDir, ...argv], { cwd: dir, env });
    const apo = join(dir, 'invoices.apo');
    writeFileSync(apo, packFolder(INVOICES_DIR));
    const installed = await cli(['install', apo, '--yes', '--arm', 'first-monday']);
    expect([installed.code, installed.stderr]).toEqual([0, '']);

    writeFileSync(policy, JSON.stringify({ version: 1, requireSignature: 'trusted' }));
    const stored = () => readFileSync(join(dataDir, 'state.json'), 'utf8');
    const before = stored();
    const grant = await cli(['grant', 'invoices/invoice-clerk', 'file_read']);
    expect(grant.code).toBe(1);
    expect(grant.stderr).toBe(
      `apollia-desktop: \`file_read\` was not allowed: invoices is not signed, and ${ORG} (a trusted publisher's signature is required)\n`,
    );
    expect(stored()).toBe(before);

    // Disarm is the person's: it works; arming again is refused.
    expect((await cli(['disarm', 'invoices/first-monday'])).code).toBe(0);
    const disarmed = stored();
    const arm = await cli(['arm', 'invoices/first-monday']);
    expect([arm.code, arm.stderr]).toEqual([1, expect.stringContaining(`invoices is not signed, and ${ORG}`)]);
    expect(stored()).toBe(disarmed);
    expect((await cli(['revoke', 'invoices/invoice-clerk', 'file_read'])).code).toBe(0);

    // An update of the same package is another door the policy closes.
    const newer = join(dir, 'invoices-1.3.0.apo');
    writeFileSync(
      newer,
      packFolder(editedPackage(INVOICES_DIR, (toml) => toml.replace(/version = "1\.2\.0"/, 'version = "1.3.0"'))),
    );
    const update = await cli(['install', newer, '--yes']);
    expect([update.code, update.stderr]).toEqual([1, expect.stringContaining(`invoices is not signed, and ${ORG}`)]);

    writeFileSync(policy, JSON.stringify({ version: 1 }));
    expect((await cli(['arm', 'invoices/first-monday'])).code).toBe(0);
    expect((await cli(['grant', 'invoices/invoice-clerk', 'file_read'])).code).toBe(0);
  }, 60_000);
});
