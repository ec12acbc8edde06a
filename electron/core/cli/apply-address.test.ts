/**
 * `apply` says where each webhook trigger it made will be called, as `install` and `arm` do: the address its sender
 * posts to once it is armed (the port of Settings, else the default), the same one `arm` then prints.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';

describe('apply prints a webhook trigger’s address', () => {
  it('once applied, the address arm then gives it', async () => {
    const dataDir = join(tempDir('apollia-apply-address-'), 'data');
    const cli = (argv: string[]) => runCliCaptured(['--data-dir', dataDir, ...argv]);
    const args = ['apply', 'inbound-lead', '--param', 'icp=B2B SaaS', '--param', 'slack_channel=C0123ABCD'];
    const applied = await cli([...args, '--yes']);
    expect([applied.code, applied.stderr]).toEqual([0, '']);
    const id = (applied.stdout.match(/^Applied: .* \[(.+)\]$/m) ?? [])[1] as string;
    const address = `http://127.0.0.1:47611/hooks/${id}/new-lead`;
    expect(applied.stdout).toContain(
      `  trigger new-lead (webhook): off: \`arm ${id}/new-lead\` makes its secret (or takes your sender's)\n  Its address, once armed: ${address} (Only this computer`,
    );
    expect(applied.stdout.match(/Its address/g)).toHaveLength(1);
    const armed = await cli(['arm', `${id}/new-lead`]);
    expect(armed.code).toBe(0);
    expect(armed.stdout).toContain(`  Its address: ${address} (`);
  });
});
