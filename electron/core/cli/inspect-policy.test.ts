/**
 * `inspect` under the organization's policy (DESIGN.md "Managed policy"): it says what install or apply would refuse
 * (with the same `policy.*` codes install refuses with) or withhold, from the evaluation install makes; nothing when
 * there is no policy; an unreadable policy is said, failing closed. The exit status stays about the spec.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, test } from 'vitest';
import { skipWithoutBuild } from '../../../test/helpers/built-output';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { describeWithMinisign, minisignKeyPair, minisignSign } from '../../../test/helpers/minisign-tool';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { invoicesFile } from '../../../test/helpers/signature-stories';
import { writeTemplate } from '../../../test/helpers/template-folders';
import { tempDir } from '../../../test/helpers/test-api';
import { sharedChecker } from '../bounded/index';
import { cliApi } from './install-command';

beforeAll(() => sharedChecker().warm(), 120_000);

const ORG = 'your organization does not allow this; your administrator can change the policy';

/** A policy file, and the environment that names it. */
function withPolicy(policy: unknown): { env: Record<string, string>; path: string } {
  const path = join(tempDir('apollia-inspect-policy-'), 'policy.json');
  writeFileSync(path, typeof policy === 'string' ? policy : JSON.stringify(policy));
  return { env: { HOME: '/home/someone', APOLLIA_POLICY_FILE: path }, path };
}

function invoicesApo(): string {
  const path = join(tempDir('apollia-inspect-policy-apo-'), 'invoices.apo');
  writeFileSync(path, packFolder(INVOICES_DIR));
  return path;
}

async function inspectJson(path: string, env: Record<string, string>) {
  const done = await runCliCaptured(['inspect', path, '--json'], { env });
  return { code: done.code, json: JSON.parse(done.stdout) };
}

/** The `policy.*` codes the Api's own inspection (the consent form's, and install's) refuses the package with. */
async function apiPolicyCodes(path: string, env: Record<string, string>): Promise<string[]> {
  const io = { cwd: process.cwd(), env, stdout: () => undefined, stderr: () => undefined };
  const api = cliApi({ ...io, dataDir: join(tempDir('apollia-inspect-policy-data-'), 'data') });
  const source = await api.registerSource(path, 'command-line');
  if (!source.ok) throw new Error(source.error.message);
  const inspected = await api.inspect({ sourceId: source.value.id });
  if (!inspected.ok) throw new Error(inspected.error.message);
  return inspected.value.errors.map((e) => e.code).filter((code) => code.startsWith('policy.'));
}

describe('inspect under a policy that refuses the package', () => {
  const policy = {
    version: 1,
    organization: 'Example Corp',
    requireSignature: 'trusted',
    allowedPackages: [{ sha256: '0'.repeat(64) }],
  };

  it('the text says install would be refused and why, after the signature; exit 0 (the spec accepts it)', async () => {
    const { env } = withPolicy(policy);
    const done = await runCliCaptured(['inspect', invoicesApo()], { env });
    expect(done.code).toBe(0);
    const lines = done.stdout.split('\n');
    const at = lines.indexOf(
      "policy: installing it would be refused by your organization's policy (Managed by Example Corp):",
    );
    expect(at).toBeGreaterThan(0);
    expect(lines[at - 1]).toMatch(/^signature: /);
    expect(lines[at + 1]).toBe(
      `  - invoices is not signed, and ${ORG} (a trusted publisher's signature is required) (policy.untrusted_signature)`,
    );
    expect(lines[at + 2]).toMatch(
      /^ {2}- invoices is not on your organization's list of allowed packages .*\(policy\.package_not_allowed\)$/,
    );
    expect(done.stdout.endsWith('\nAccepted.\n')).toBe(true);
  });

  it('--json adds `policy` last with the codes install refuses with; install --yes refuses with the first', async () => {
    const { env } = withPolicy(policy);
    const apo = invoicesApo();
    const { code, json } = await inspectJson(apo, env);
    expect(code).toBe(0);
    expect(Object.keys(json)).toEqual(['kind', 'ok', 'errors', 'warnings', 'summary', 'details', 'policy']);
    expect(json.ok).toBe(true);
    expect(json.policy).toMatchObject({ state: 'applied', problem: null, outcome: 'refused', withheld: [] });
    const codes = json.policy.refusals.map((r: { code: string }) => r.code);
    expect(codes).toEqual(['policy.untrusted_signature', 'policy.package_not_allowed']);
    expect(await apiPolicyCodes(apo, env)).toEqual(codes);
    const dataDir = join(tempDir('apollia-inspect-policy-data-'), 'data');
    const install = await runCliCaptured(['--data-dir', dataDir, 'install', apo, '--yes'], { env });
    expect(install.code).toBe(1);
    expect(install.stderr).toContain(`Refused: ${json.policy.refusals[0].message}`);
    expect(existsSync(join(dataDir, 'state.json'))).toBe(false);
  });
});

describe('inspect under a policy that only blocks a tool and a trigger kind', () => {
  const policy = { version: 1, blockedTools: ['mcp:*/lookup'], triggers: { schedule: false } };

  it('says install is allowed and what it withholds rather than refuses, as install --yes decides', async () => {
    const { env } = withPolicy(policy);
    const apo = invoicesApo();
    const done = await runCliCaptured(['inspect', apo], { env });
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(
      [
        "policy: your organization's policy allows installing it.",
        '  It withholds, rather than refuses (installing goes ahead without them):',
        '  - agent invoice-clerk: mcp:ledger/lookup is not granted: your organization blocks “mcp:*/lookup”',
        '  - trigger first-monday cannot be armed: your organization does not allow scheduled triggers',
        '',
      ].join('\n'),
    );
    const { json } = await inspectJson(apo, env);
    expect(json.policy).toEqual({
      state: 'applied',
      problem: null,
      outcome: 'allowed',
      refusals: [],
      withheld: [
        {
          kind: 'tool',
          name: 'mcp:ledger/lookup',
          agent: 'invoice-clerk',
          effect: 'withheld',
          why: 'your organization blocks “mcp:*/lookup”',
        },
        {
          kind: 'trigger',
          name: 'first-monday',
          agent: null,
          effect: 'cannot_arm',
          why: 'your organization does not allow scheduled triggers',
        },
      ],
    });
    // Install goes ahead, withholding exactly those.
    const install = await runCliCaptured(
      ['--data-dir', join(tempDir('apollia-inspect-policy-data-'), 'data'), 'install', apo, '--yes'],
      { env },
    );
    expect(install.code).toBe(0);
    expect(install.stdout).toContain('    mcp:ledger/lookup: Not allowed: your organization blocks “mcp:*/lookup”\n');
  });

  it('where "runs without asking" is not allowed, a tool that would run without asking asks first', async () => {
    const { env } = withPolicy({ version: 1, unattended: false });
    const apo = invoicesFile(tempDir('apollia-inspect-policy-apo-'), 'invoices.apo', '1.2.0', (toml) =>
      toml.replace('access = ["file_read",', 'access = ["notify", "file_read",'),
    );
    const done = await runCliCaptured(['inspect', apo], { env });
    expect(done.stdout).toContain(
      '  - agent invoice-clerk: notify asks you first: your organization does not allow tools to run without asking\n',
    );
    const { json } = await inspectJson(apo, env);
    expect(json.policy).toMatchObject({
      outcome: 'allowed',
      withheld: [{ kind: 'tool', name: 'notify', agent: 'invoice-clerk', effect: 'asks_first' }],
    });
    expect(json.policy.withheld).toHaveLength(1);
    const install = await runCliCaptured(
      ['--data-dir', join(tempDir('apollia-inspect-policy-data-'), 'data'), 'install', apo, '--yes'],
      { env },
    );
    expect(install.code).toBe(0);
    expect(install.stdout).toContain(
      '    notify: Asks you first: your organization does not allow tools to run without asking\n',
    );
  });

  it('a template: the tools it denies and the trigger kinds it does not allow; its `approvals: never` only a recommendation', async () => {
    const { env } = withPolicy({
      version: 1,
      blockedTools: ['web_fetch', 'mcp:slack/send'],
      triggers: { webhook: false },
      unattended: false,
    });
    const { code, json } = await inspectJson(writeTemplate(), env);
    expect(code).toBe(0);
    // Applied as it comes, the agent asks first (unattended is only the person's choice), so the policy that forbids
    // running without asking refuses nothing; only choosing `never` would be refused.
    expect(json.policy.outcome).toBe('allowed');
    expect(json.policy.refusals).toEqual([]);
    expect(json.policy.withheld.map((w: { name: string; effect: string }) => [w.name, w.effect])).toEqual([
      ['web_fetch', 'withheld'],
      ['mcp:slack/send', 'withheld'],
      ['hook', 'cannot_arm'],
    ]);
  });

  it('a template where templates are refused: policy.templates, as apply refuses it', async () => {
    const { env } = withPolicy({ version: 1, templates: 'none' });
    const template = writeTemplate();
    const text = await runCliCaptured(['inspect', template], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `policy: applying it would be refused by your organization's policy:\n  - Templates cannot be applied on this computer: ${ORG} (policy.templates)\n`,
    );
    expect(await apiPolicyCodes(template, env)).toEqual(['policy.templates']);
  });
});

describe('inspect without a policy, or with one that cannot be used', () => {
  it('no policy: nothing is said in the text; --json says state none', async () => {
    const env = { HOME: '/home/someone' };
    const apo = invoicesApo();
    const done = await runCliCaptured(['inspect', apo], { env });
    expect(done.code).toBe(0);
    expect(done.stdout).not.toMatch(/policy/i);
    const { json } = await inspectJson(apo, env);
    expect(json.policy).toEqual({ state: 'none', problem: null, outcome: null, refusals: [], withheld: [] });
  });

  it('a plugin manifest: the policy says nothing of it', async () => {
    const { env } = withPolicy({ version: 1, requireSignature: 'trusted', templates: 'none' });
    const plugin = join(tempDir('apollia-inspect-policy-plugin-'), 'plugin.json');
    writeFileSync(plugin, '{"name": "x"}\n');
    const done = await runCliCaptured(['inspect', plugin], { env });
    expect(done.stdout).not.toMatch(/policy/i);
    const { json } = await inspectJson(plugin, env);
    expect(json.policy).toMatchObject({ state: 'applied', outcome: null, refusals: [], withheld: [] });
  });

  it('an unreadable policy: named with its problem, install refused until it is fixed; exit 0', async () => {
    const { env, path } = withPolicy({ version: 1, blockedTool: ['x'] });
    const apo = invoicesApo();
    const done = await runCliCaptured(['inspect', apo], { env });
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(
      `policy: your organization's policy file ${path} cannot be used: the policy has the unknown key \`blockedTool\`. Until it is fixed, installing, applying, granting and arming are refused (inspection still works); your administrator can act.\n`,
    );
    const { code, json } = await inspectJson(apo, env);
    expect(code).toBe(0);
    expect(json.policy).toMatchObject({
      state: 'unreadable',
      problem: { path, message: 'the policy has the unknown key `blockedTool`' },
      outcome: 'refused',
      refusals: [{ code: 'policy.unreadable' }],
    });
    expect(json.policy.refusals[0].message).toContain(`your organization's policy file ${path} cannot be used`);
    const install = await runCliCaptured(
      ['--data-dir', join(tempDir('apollia-inspect-policy-data-'), 'data'), 'install', apo, '--yes'],
      { env },
    );
    expect(install.code).toBe(1);
    expect(install.stderr).toContain(`your organization's policy file ${path} cannot be used`);
  });
});

describeWithMinisign('inspect checks a signature against the keys install does', () => {
  it("a package signed by the organization's publisher key is verified and allowed under requireSignature trusted", async () => {
    const dir = tempDir('apollia-inspect-policy-keys-');
    const keys = minisignKeyPair(dir, 'org');
    const apo = invoicesApo();
    minisignSign(keys, apo, { trustedComment: 'invoices 1.2.0' });
    const key = keys.publicKeyText.trim().split('\n').at(-1) as string;
    const { env } = withPolicy({
      version: 1,
      requireSignature: 'trusted',
      trustedPublishers: [{ name: 'Example Corp', key }],
      allowedPackages: [{ name: 'invoices', key }],
    });
    const { json } = await inspectJson(apo, env);
    expect(json.summary.signature.state).toBe('verified');
    expect(json.policy).toMatchObject({ state: 'applied', outcome: 'allowed', refusals: [] });
    expect(await apiPolicyCodes(apo, env)).toEqual([]);
  });
});

const BUILT = new URL('../../../out/cli/cli.cjs', import.meta.url).pathname;

test.skipIf(skipWithoutBuild(BUILT))('the built CLI: inspect --json says what the policy refuses', () => {
  const { env } = withPolicy({ version: 1, requireSignature: 'any' });
  const child = spawnSync(process.execPath, [BUILT, 'inspect', invoicesApo(), '--json'], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, ...env },
  });
  expect(child.status).toBe(0);
  expect(JSON.parse(child.stdout).policy).toMatchObject({
    state: 'applied',
    outcome: 'refused',
    refusals: [{ code: 'policy.unsigned' }],
  });
});
