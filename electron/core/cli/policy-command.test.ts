/**
 * The organization's policy through the CLI, set as an administrator tries one: `APOLLIA_POLICY_FILE`.
 * Each refusal is a `policy.*` refusal saying the organization does not allow it, with nothing
 * written; a policy applies on top of what was installed before it (the store keeps the person's
 * decisions, lifting the block gives them back); a policy that cannot be used fails closed.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { activityText, tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { sharedChecker } from '../bounded/index';

beforeAll(() => sharedChecker().warm(), 120_000);

/** A policy file, and the environment that names it. */
function withPolicy(policy: unknown): { env: Record<string, string>; path: string } {
  const path = join(tempDir('apollia-policy-'), 'policy.json');
  writeFileSync(path, typeof policy === 'string' ? policy : JSON.stringify(policy));
  return { env: { HOME: '/home/someone', APOLLIA_POLICY_FILE: path }, path };
}

function invoicesApo(): string {
  const path = join(tempDir('apollia-policy-apo-'), 'invoices.apo');
  writeFileSync(path, packFolder(INVOICES_DIR));
  return path;
}

function stored(dataDir: string) {
  return JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
}

async function list(dataDir: string, env: Record<string, string>) {
  return JSON.parse((await runCliCaptured(['--data-dir', dataDir, 'list', '--json'], { env })).stdout);
}

const ORG = 'your organization does not allow this; your administrator can change the policy';

describe('the policy in the CLI', () => {
  it('an unsigned package is refused under requireSignature "trusted", nothing written', async () => {
    const dataDir = join(tempDir('apollia-policy-data-'), 'data');
    const { env } = withPolicy({ version: 1, organization: 'Example Corp', requireSignature: 'trusted' });
    const done = await runCliCaptured(['--data-dir', dataDir, 'install', invoicesApo(), '--yes'], { env });
    expect(done.code).toBe(1);
    expect(done.stderr).toContain('Refused: invoices is not signed, and your organization does not allow this');
    expect(done.stderr + done.stdout).toContain(ORG);
    expect(existsSync(join(dataDir, 'state.json'))).toBe(false);
  });

  it('a package declaring a blocked family is refused', async () => {
    const dataDir = join(tempDir('apollia-policy-data-'), 'data');
    const { env } = withPolicy({ version: 1, blockedActionFamilies: ['send_external'] });
    const done = await runCliCaptured(['--data-dir', dataDir, 'install', invoicesApo(), '--yes'], { env });
    expect(done.code).toBe(1);
    expect(done.stderr).toContain(
      `Refused: invoices declares the workflow \`monthly-reminders\`, which can send things outside this computer: ${ORG}`,
    );
    expect(existsSync(join(dataDir, 'state.json'))).toBe(false);
  });

  it('a blocked tool is never granted: refused when asked for, withheld by default, and withheld from what was installed before the policy until it is lifted', async () => {
    const blocked = withPolicy({ version: 1, blockedTools: ['mcp:*/lookup'] });
    const asked = await runCliCaptured(
      [
        '--data-dir',
        join(tempDir('apollia-policy-data-'), 'data'),
        'install',
        invoicesApo(),
        '--yes',
        '--grant',
        'mcp:ledger/lookup',
      ],
      { env: blocked.env },
    );
    expect([asked.code, asked.stderr]).toEqual([
      1,
      `apollia-desktop: agent \`invoice-clerk\` of invoices cannot be granted \`mcp:ledger/lookup\`: your organization blocks “mcp:*/lookup”; ${ORG} (policy.blocked_tool) (at decisions.agents.invoice-clerk.access.mcp:ledger/lookup)\n`,
    ]);

    const fresh = join(tempDir('apollia-policy-data-'), 'data');
    const byDefault = await runCliCaptured(['--data-dir', fresh, 'install', invoicesApo(), '--yes'], {
      env: blocked.env,
    });
    expect(byDefault.code).toBe(0);
    expect(byDefault.stdout).toContain('    mcp:ledger/lookup: Not allowed: your organization blocks “mcp:*/lookup”\n');
    expect(
      stored(fresh).agents['invoices/invoice-clerk'].access.find(
        (a: { entry: string }) => a.entry === 'mcp:ledger/lookup',
      ).permission,
    ).toBe('deny');

    // Installed before the policy: the store keeps the person's grant; the policy withholds it on top.
    const before = join(tempDir('apollia-policy-data-'), 'data');
    const none = { HOME: '/home/someone' };
    expect((await runCliCaptured(['--data-dir', before, 'install', invoicesApo(), '--yes'], { env: none })).code).toBe(
      0,
    );
    const underPolicy = await list(before, blocked.env);
    const row = underPolicy.agents[0].access.find((a: { tool: string }) => a.tool === 'mcp:ledger/lookup');
    expect([row.permission, row.policy]).toEqual(['deny', 'your organization blocks “mcp:*/lookup”']);
    expect(
      stored(before).agents['invoices/invoice-clerk'].access.find(
        (a: { entry: string }) => a.entry === 'mcp:ledger/lookup',
      ).permission,
    ).toBe('ask');
    const grant = await runCliCaptured(
      ['--data-dir', before, 'install', invoicesApo(), '--yes', '--grant', 'mcp:ledger/lookup'],
      { env: blocked.env },
    );
    expect(grant.code).toBe(1);
    // Lifted: what the person decided applies again, and both changes are in the activity log.
    const lifted = await list(before, none);
    expect(lifted.agents[0].access.find((a: { tool: string }) => a.tool === 'mcp:ledger/lookup')).toMatchObject({
      permission: 'ask',
    });
    const activity = activityText(before);
    expect(activity).toContain('"kind":"policy_applied"');
    expect(activity).toContain('"kind":"revoke"');
    expect(activity).toContain('mcp:ledger/lookup withheld');
    expect(activity).toContain('mcp:ledger/lookup given back');
  });

  it('a blocked trigger kind cannot be armed; one armed before the policy stays armed in the store but is held', async () => {
    const noSchedules = withPolicy({ version: 1, triggers: { schedule: false } });
    const dataDir = join(tempDir('apollia-policy-data-'), 'data');
    const refused = await runCliCaptured(
      ['--data-dir', dataDir, 'install', invoicesApo(), '--yes', '--arm', 'first-monday'],
      { env: noSchedules.env },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'trigger `first-monday` cannot be armed: your organization does not allow scheduled triggers',
    );
    expect(existsSync(join(dataDir, 'state.json'))).toBe(false);

    const none = { HOME: '/home/someone' };
    expect(
      (
        await runCliCaptured(['--data-dir', dataDir, 'install', invoicesApo(), '--yes', '--arm', 'first-monday'], {
          env: none,
        })
      ).code,
    ).toBe(0);
    const held = await list(dataDir, noSchedules.env);
    expect(held.triggers[0]).toMatchObject({ id: 'invoices/first-monday', armed: true });
    expect(held.triggers[0].policy).toContain("turned off by your organization's policy");
    expect(stored(dataDir).triggers['invoices/first-monday'].armed).toBe(true);
    expect(activityText(dataDir)).toContain("turned off by your organization's policy");
  });

  it.each([
    ['malformed', '{ "version": 1, ', 'it is not valid JSON'],
    ['an unknown key', { version: 1, blockedTool: ['x'] }, 'the policy has the unknown key `blockedTool`'],
    ['a wrong version', { version: 3 }, '`version` must be one of 1, 2'],
  ])(
    'a policy that is %s fails closed: nothing installed, `policy` names the file and what is wrong; inspection still works',
    async (_what, policy, problem) => {
      const { env, path } = withPolicy(policy);
      const dataDir = join(tempDir('apollia-policy-data-'), 'data');
      const apo = invoicesApo();
      const done = await runCliCaptured(['--data-dir', dataDir, 'install', apo, '--yes'], { env });
      expect(done.code).toBe(1);
      expect(done.stderr).toContain(`your organization's policy file ${path} cannot be used: ${problem}`);
      expect(existsSync(join(dataDir, 'state.json'))).toBe(false);
      const shown = await runCliCaptured(['policy'], { env });
      expect(shown.code).toBe(1);
      expect(shown.stdout).toContain(problem);
      const inspected = await runCliCaptured(['inspect', apo], { env });
      expect(inspected.code).toBe(0);
    },
  );

  it('policy --json prints the policy in force and the file each part came from', async () => {
    const { env, path } = withPolicy({
      version: 1,
      organization: 'Example Corp',
      requireSignature: 'any',
      blockedTools: ['pkg:*/*'],
      triggers: { webhook: false },
    });
    const shown = await runCliCaptured(['policy', '--json'], { env });
    expect(shown.code).toBe(0);
    const view = JSON.parse(shown.stdout);
    expect(view.state).toBe('applied');
    expect(view.effective).toMatchObject({
      organization: 'Example Corp',
      requireSignature: 'any',
      blockedTools: ['pkg:*/*'],
      triggers: { schedule: true, file_watch: true, webhook: false },
    });
    expect(view.origin).toEqual({
      organization: [path],
      requireSignature: [path],
      blockedTools: [path],
      triggers: [path],
    });
    expect(view.sources.find((s: { role: string }) => s.role === 'env')).toEqual({
      role: 'env',
      path,
      state: 'read',
      problem: null,
    });
    const text = await runCliCaptured(['policy'], { env });
    expect(text.stdout).toContain(
      'A trial policy (Example Corp), from your own file (APOLLIA_POLICY_FILE), not from your organization.',
    );
    expect(text.stdout).toContain(`requireSignature: "any"  (from ${path})`);
  });
});
