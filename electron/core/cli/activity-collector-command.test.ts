/**
 * `activity collector [URL | --off] [--json]`: the collector in effect and whose it is, naming and removing the
 * person's, "nothing to do" for the same address again or `--off` with none, usage errors exit 2 in a sentence with
 * nothing written, and the organization's `activityExport.otlp` locking the person's (exit 1, the policy's address
 * named; with `--json` the refusal document).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { tempDir, treeHash } from '../../../test/helpers/test-api';

const MINE = 'https://otel.example.com/v1/logs';
const ORG = 'https://collector.corp.example/v1/logs';

function dataDir(): string {
  return join(tempDir('apollia-cli-collector-'), 'data');
}

function policyEnv(policy: object): Record<string, string> {
  const path = join(tempDir('apollia-cli-collector-policy-'), 'policy.json');
  writeFileSync(path, JSON.stringify(policy));
  return { HOME: '/home/someone', APOLLIA_POLICY_FILE: path };
}

describe('activity collector', () => {
  it('says none, names yours, says nothing to do again, shows it, and removes it', async () => {
    const dir = dataDir();
    const cli = (...args: string[]) => runCliCaptured(['--data-dir', dir, 'activity', 'collector', ...args]);
    const none = await cli();
    expect([none.code, none.stderr]).toEqual([0, '']);
    expect(none.stdout).toContain('No collector is named: the activity record is kept on this computer only.');
    const set = await cli(MINE);
    expect([set.code, set.stderr]).toEqual([0, '']);
    expect(set.stdout).toContain(`Your collector is now ${MINE}.`);
    expect(set.stdout).toContain(`The activity record is sent to ${MINE}, set by you.`);
    expect(set.stdout).toContain('Sent to your collector: nothing sent yet');
    const before = treeHash(dir);
    const again = await cli(MINE);
    expect([again.code, again.stdout]).toEqual([0, `Your collector is already ${MINE}: nothing to do.\n`]);
    expect(treeHash(dir)).toBe(before);
    const shown = await cli('--json');
    expect(JSON.parse(shown.stdout)).toMatchObject({
      inEffect: { url: MINE, origin: 'person', sent: 0 },
      yours: MINE,
      managed: false,
    });
    const off = await cli('--off', '--json');
    expect(off.code).toBe(0);
    expect(JSON.parse(off.stdout)).toMatchObject({ inEffect: null, yours: null, changed: true });
    const offAgain = await cli('--off');
    expect([offAgain.code, offAgain.stdout]).toEqual([0, 'No collector of yours is named: nothing to do.\n']);
    const record = await runCliCaptured(['--data-dir', dir, 'activity', '--decisions', '--json']);
    expect(JSON.parse(record.stdout).events.map((e: { kind: string }) => e.kind)).toEqual([
      'collector_removed',
      'collector_set',
    ]);
  });

  it('refuses a usage error in a sentence, exit 2, nothing written', async () => {
    const dir = dataDir();
    for (const [args, words] of [
      [['http://otel.example.com/v1/logs'], 'must use https://'],
      [['https://me:secret@otel.example.com/v1/logs'], 'must not carry a user or password'],
      [[MINE, '--off'], 'not both'],
      [[MINE, MINE], 'takes one URL, got 2'],
      [['--of'], 'unknown option `--of` for activity collector: did you mean --off?'],
    ] as const) {
      const run = await runCliCaptured(['--data-dir', dir, 'activity', 'collector', ...args]);
      expect([run.code, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toContain(words);
      expect(run.stderr).not.toContain('secret@');
      const json = await runCliCaptured(['--data-dir', dir, 'activity', 'collector', ...args, '--json']);
      expect(json.code).toBe(2);
      expect(JSON.parse(json.stdout)).toMatchObject({
        ok: false,
        errors: [{ message: expect.stringContaining(words) }],
      });
    }
    expect(existsSync(dir)).toBe(false);
  });

  it("the organization's collector is in effect and locks yours: exit 1 with its address, nothing written", async () => {
    const dir = dataDir();
    expect((await runCliCaptured(['--data-dir', dir, 'activity', 'collector', MINE])).code).toBe(0);
    const env = policyEnv({ version: 2, organization: 'Example Corp', activityExport: { otlp: ORG } });
    const cli = (...args: string[]) => runCliCaptured(['--data-dir', dir, 'activity', 'collector', ...args], { env });
    const shown = await cli();
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`The activity record is sent to ${ORG}, set by your organization.`);
    expect(shown.stdout).toContain(`Yours, ${MINE}, is not used while your organization names one.`);
    const before = treeHash(dir);
    for (const args of [['https://other.example/v1/logs'], ['--off']]) {
      const text = await cli(...args);
      expect([text.code, text.stdout]).toEqual([1, '']);
      expect(text.stderr).toContain(`The activity record is sent to ${ORG}, the collector your organization names`);
      const json = await cli(...args, '--json');
      expect([json.code, json.stderr]).toEqual([1, '']);
      expect(JSON.parse(json.stdout)).toEqual({
        ok: false,
        errors: [{ code: 'policy.collector_locked', message: expect.stringContaining(ORG), path: null }],
      });
    }
    expect(treeHash(dir)).toBe(before);
  });
});
