/**
 * The policy's evaluation: each key of version 1 read into the policy in force, strict reading
 * (unknown keys, a wrong version, a duplicate key, a bad key all make it unreadable), the two
 * files combined, and "a second file only adds restrictions".
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_POLICY } from '../../../shared/policy/policy';
import { tempDir } from '../../../test/helpers/test-api';
import type { PolicyFileText } from './evaluate-policy';
import { evaluatePolicy } from './evaluate-policy';
import { identityAllowed, packagePolicyProblems, policyKeys, templateProblem, verificationKeys } from './index';
import { machinePolicyPath, policyLocations, readPolicy } from './read-policy';

const KEY_A = 'RWRBgZL74n41JgKbQmMI+1Gbf3SZpb2EfPkEa8AYcHig+gTecGl5Wa95';
const KEY_B = 'RWSXTxbG7Bmt7AWFpgEXrtUMunqnPdmv2y6T82A1jM7wizakjwNLv0uv';

const machine = (doc: unknown): PolicyFileText => ({
  role: 'machine',
  path: '/etc/apollia-desktop/policy.json',
  text: JSON.stringify(doc),
});
const second = (doc: unknown): PolicyFileText => ({ role: 'env', path: '/tmp/try.json', text: JSON.stringify(doc) });
const effective = (...files: PolicyFileText[]) => {
  const view = evaluatePolicy(files);
  expect(view.problem).toBeNull();
  return view.effective;
};

describe('each key of a policy file', () => {
  it('no file, or a missing machine file: no policy', () => {
    expect(evaluatePolicy([]).state).toBe('none');
    expect(evaluatePolicy([{ role: 'machine', path: '/etc/x', text: null }])).toMatchObject({
      state: 'none',
      effective: null,
    });
  });

  it('only `version`: every key at its permissive default', () => {
    expect(effective(machine({ version: 1 }))).toEqual(NO_POLICY);
  });

  it('every key read as written', () => {
    const doc = {
      version: 1,
      organization: 'Example Corp',
      trustedPublishers: [{ name: 'Example IT', key: KEY_A }],
      requireSignature: 'trusted',
      allowUserTrustedKeys: false,
      allowedPackages: [{ name: 'invoices', key: KEY_A }, { sha256: 'a'.repeat(64) }],
      blockedActionFamilies: ['execute_code'],
      blockedTools: ['mcp:*/delete_*', 'shell'],
      templates: 'builtin',
      triggers: { webhook: false },
      webhookPort: 9000,
      unattended: false,
      mcpServers: [{ name: 'crm', transport: 'streamable-http', url: 'https://crm.example.com/mcp' }],
      activityExport: '/var/log/apollia/decisions.jsonl',
    };
    const { version: _version, ...keys } = doc;
    // A version-1 file reads unchanged: its keys as written, version 2's at their permissive defaults.
    expect(effective(machine(doc))).toEqual({
      ...NO_POLICY,
      ...keys,
      triggers: { schedule: true, file_watch: true, webhook: false },
    } as unknown);
  });

  it.each([
    [{ version: 1, blockedTool: [] }, 'the policy has the unknown key `blockedTool`'],
    [{ version: 1, triggers: { cron: false } }, '`triggers` has the unknown key `cron`'],
    [{ version: 3 }, '`version` must be one of 1, 2'],
    [{ version: 1, toolRules: [] }, 'the policy has the unknown key `toolRules`'],
    [{ organization: 'x' }, "must have required property 'version'"],
    [{ version: 1, requireSignature: 'yes' }, '`requireSignature` must be one of "none", "any", "trusted"'],
    [{ version: 1, blockedActionFamilies: ['delete'] }, '`blockedActionFamilies.0` must be one of'],
    [{ version: 1, trustedPublishers: [{ name: 'x', key: 'RWQ' }] }, '`trustedPublishers.0.key` must match pattern'],
    [{ version: 1, webhookPort: 80 }, '`webhookPort` must be >= 1024'],
  ])('refused, naming the key: %j', (doc, problem) => {
    const view = evaluatePolicy([machine(doc)]);
    expect(view.state).toBe('unreadable');
    expect(view.effective).toBeNull();
    expect(view.problem?.path).toBe('/etc/apollia-desktop/policy.json');
    expect(view.problem?.message).toContain(problem);
  });

  it('strict JSON: a duplicate key (the last would silently win) and a syntax error are refused with their place', () => {
    expect(
      evaluatePolicy([{ role: 'machine', path: '/p', text: '{"version":1,"unattended":false,"unattended":true}' }])
        .problem?.message,
    ).toContain('duplicate');
    expect(evaluatePolicy([{ role: 'machine', path: '/p', text: '{"version":1,' }]).problem?.message).toMatch(
      /not valid JSON: .*line 1/,
    );
  });

  it('the file APOLLIA_POLICY_FILE names must exist: a missing one fails closed', () => {
    expect(evaluatePolicy([{ role: 'env', path: '/nope.json', text: null }])).toMatchObject({
      state: 'unreadable',
      problem: { path: '/nope.json', message: 'the file APOLLIA_POLICY_FILE names does not exist' },
    });
  });

  it('one bad file makes the whole policy unreadable, even beside a good one', () => {
    const view = evaluatePolicy([
      machine({ version: 1, organization: 'Example Corp' }),
      { role: 'env', path: '/tmp/bad.json', text: '[]' },
    ]);
    expect(view).toMatchObject({ state: 'unreadable', effective: null, problem: { path: '/tmp/bad.json' } });
  });
});

describe('two files combined: the second only adds restrictions', () => {
  it('granting keys come from the machine file only', () => {
    const p = effective(
      machine({ version: 1, trustedPublishers: [{ name: 'IT', key: KEY_A }], webhookPort: 9000 }),
      second({
        version: 1,
        trustedPublishers: [{ name: 'Me', key: KEY_B }],
        allowedPackages: [{ sha256: 'b'.repeat(64) }],
        mcpServers: [{ name: 'mine', transport: 'stdio', command: 'x' }],
        webhookPort: 9100,
        allowUserTrustedKeys: true,
      }),
    );
    expect(p?.trustedPublishers).toEqual([{ name: 'IT', key: KEY_A }]);
    expect(p?.allowedPackages).toBeNull();
    expect(p?.mcpServers).toEqual([]);
    expect(p?.webhookPort).toBe(9000);
  });

  it('`allowUserTrustedKeys: true` in the second file cannot undo the machine file’s false; its false restricts', () => {
    expect(
      effective(
        machine({ version: 1, allowUserTrustedKeys: false }),
        second({ version: 1, allowUserTrustedKeys: true }),
      )?.allowUserTrustedKeys,
    ).toBe(false);
    expect(
      effective(machine({ version: 1 }), second({ version: 1, allowUserTrustedKeys: false }))?.allowUserTrustedKeys,
    ).toBe(false);
  });

  it('restricting keys combine, the stricter winning, whichever file holds it', () => {
    const a = {
      version: 1,
      requireSignature: 'trusted',
      templates: 'builtin',
      blockedTools: ['shell'],
      blockedActionFamilies: ['execute_code'],
      triggers: { webhook: false },
      unattended: true,
    };
    const b = {
      version: 1,
      requireSignature: 'any',
      templates: 'none',
      blockedTools: ['mcp:*/delete_*'],
      blockedActionFamilies: ['send_external'],
      triggers: { file_watch: false },
      unattended: false,
    };
    for (const [m, e] of [
      [a, b],
      [b, a],
    ]) {
      const p = effective(machine(m), second(e));
      expect(p?.requireSignature).toBe('trusted');
      expect(p?.templates).toBe('none');
      expect(new Set(p?.blockedTools)).toEqual(new Set(['shell', 'mcp:*/delete_*']));
      expect(new Set(p?.blockedActionFamilies)).toEqual(new Set(['execute_code', 'send_external']));
      expect(p?.triggers).toEqual({ schedule: true, file_watch: false, webhook: false });
      expect(p?.unattended).toBe(false);
    }
  });

  it('a second file that tries to loosen changes nothing', () => {
    const strict = {
      version: 1,
      requireSignature: 'trusted',
      templates: 'none',
      triggers: { schedule: false, file_watch: false, webhook: false },
      unattended: false,
      allowUserTrustedKeys: false,
    };
    const loose = {
      version: 1,
      requireSignature: 'none',
      templates: 'any',
      triggers: { schedule: true, file_watch: true, webhook: true },
      unattended: true,
      allowUserTrustedKeys: true,
    };
    expect(effective(machine(strict), second(loose))).toEqual(effective(machine(strict)));
  });

  it('a second file alone is the policy; the origin names where each key in force came from', () => {
    expect(effective(second({ version: 1, webhookPort: 9100 }))?.webhookPort).toBe(9100);
    const view = evaluatePolicy([
      machine({ version: 1, organization: 'Example Corp', requireSignature: 'any', webhookPort: 9000 }),
      second({ version: 1, requireSignature: 'trusted', webhookPort: 9100, organization: 'Me' }),
    ]);
    expect(view.origin).toEqual({
      organization: ['/etc/apollia-desktop/policy.json'],
      requireSignature: ['/etc/apollia-desktop/policy.json', '/tmp/try.json'],
      webhookPort: ['/etc/apollia-desktop/policy.json'],
    });
    expect(view.effective?.organization).toBe('Example Corp');
  });
});

describe('reading the files', () => {
  it('the machine location of each system', () => {
    expect(machinePolicyPath('linux', {})).toBe('/etc/apollia-desktop/policy.json');
    expect(machinePolicyPath('darwin', {})).toBe('/Library/Application Support/Apollia Desktop/policy.json');
    expect(machinePolicyPath('win32', { ProgramData: 'Z:\\Elsewhere' }, () => 'D:\\ProgramData')).toBe(
      'D:\\ProgramData\\Apollia Desktop\\policy.json',
    );
    expect(policyLocations({ ProgramData: 'D:\\Mine' }, 'win32')).toEqual({
      machine: 'C:\\ProgramData\\Apollia Desktop\\policy.json',
      env: null,
      registry: true,
    });
  });

  it('both files read from disk; a folder where the file should be cannot be read', () => {
    const dir = tempDir('apollia-policy-read-');
    writeFileSync(join(dir, 'machine.json'), JSON.stringify({ version: 1, blockedTools: ['a'] }));
    writeFileSync(join(dir, 'second.json'), JSON.stringify({ version: 1, blockedTools: ['b'] }));
    expect(
      readPolicy({ machine: join(dir, 'machine.json'), env: join(dir, 'second.json') }).effective?.blockedTools,
    ).toEqual(['a', 'b']);
    mkdirSync(join(dir, 'folder'));
    expect(readPolicy({ machine: join(dir, 'folder'), env: null })).toMatchObject({
      state: 'unreadable',
      problem: { message: 'it cannot be read (EISDIR)' },
    });
  });
});

describe('what a policy refuses of a package', () => {
  const manifest = {
    package: { name: 'invoices' },
    tools: [{ name: 'run', action: 'execute_code' }],
    workflows: [],
  } as never;
  const keys = policyKeys({ ...NO_POLICY, trustedPublishers: [{ name: 'IT', key: KEY_A }] });

  it('the identity is the name with the key that signed it (verified), or the archive SHA-256: one computation', () => {
    const signed = {
      state: 'verified',
      key_id: keys[0]?.keyId ?? '',
      signer: 'IT',
      trusted_comment: null,
      public_key: KEY_A,
      reason: null,
      message: null,
    } as const;
    const policy = {
      ...NO_POLICY,
      trustedPublishers: [{ name: 'IT', key: KEY_A }],
      allowedPackages: [{ name: 'invoices', key: KEY_A }],
    };
    expect(packagePolicyProblems(policy, manifest, signed, 'c'.repeat(64), keys).map((p) => p.code)).toEqual([]);
    expect(
      packagePolicyProblems(
        policy,
        manifest,
        { ...signed, state: 'unknown_key', public_key: null },
        'c'.repeat(64),
        keys,
      ).map((p) => p.code),
    ).toEqual(['policy.package_not_allowed']);
    expect(identityAllowed({ name: 'other', key: KEY_A, sha256: 'c'.repeat(64) }, policy.allowedPackages)).toBe(false);
    expect(
      identityAllowed({ name: 'invoices', key: null, sha256: 'C'.repeat(64).toLowerCase() }, [
        { sha256: 'C'.repeat(64) },
      ]),
    ).toBe(true);
  });

  it('requireSignature, a blocked family, and templates', () => {
    const unsigned = {
      state: 'unsigned',
      key_id: null,
      signer: null,
      trusted_comment: null,
      public_key: null,
      reason: null,
      message: null,
    } as const;
    expect(
      packagePolicyProblems({ ...NO_POLICY, requireSignature: 'any' }, manifest, unsigned, 'c'.repeat(64), []).map(
        (p) => p.code,
      ),
    ).toEqual(['policy.unsigned']);
    expect(
      packagePolicyProblems(
        { ...NO_POLICY, requireSignature: 'trusted' },
        manifest,
        { ...unsigned, state: 'unknown_key', key_id: 'AB' },
        'c'.repeat(64),
        [],
      ).map((p) => p.code),
    ).toEqual(['policy.untrusted_signature']);
    expect(
      packagePolicyProblems(
        { ...NO_POLICY, blockedActionFamilies: ['execute_code'] },
        manifest,
        unsigned,
        'c'.repeat(64),
        [],
      )[0]?.message,
    ).toBe(
      'invoices declares the tool `run`, which can run programs on this computer: your organization does not allow this; your administrator can change the policy',
    );
    expect(templateProblem({ ...NO_POLICY, templates: 'builtin' }, true)).toBeNull();
    expect(templateProblem({ ...NO_POLICY, templates: 'builtin' }, false)?.code).toBe('policy.templates');
    expect(templateProblem({ ...NO_POLICY, templates: 'none' }, true)?.code).toBe('policy.templates');
  });

  it("the person's own keys count unless the policy says no", () => {
    const own = [{ keyId: 'AAAA', publicKey: KEY_B, name: 'Mine', addedAt: '' }];
    expect(
      verificationKeys({ ...NO_POLICY, trustedPublishers: [{ name: 'IT', key: KEY_A }] }, own).map((k) => k.name),
    ).toEqual(['IT', 'Mine']);
    expect(verificationKeys({ ...NO_POLICY, allowUserTrustedKeys: false }, own)).toEqual([]);
  });
});

describe("the README's example policy", () => {
  it('validates as written', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf("## For administrators: the organization's policy"));
    const example = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const view = evaluatePolicy([{ role: 'machine', path: 'README.md', text: example }]);
    expect(view.problem).toBeNull();
    expect(view.effective?.organization).toBe('Example Corp');
  });
});

describe("the person's file never supplies the organization's name, port, export or a granting key", () => {
  it('while a machine file exists, even one that does not set them', () => {
    const view = evaluatePolicy([
      { role: 'machine', path: '/etc/apollia-desktop/policy.json', text: JSON.stringify({ version: 1 }) },
      {
        role: 'env',
        path: '/home/me/policy.json',
        text: JSON.stringify({
          version: 1,
          organization: 'Me',
          webhookPort: 9100,
          activityExport: '/tmp/mine.jsonl',
          allowedPackages: [{ sha256: 'a'.repeat(64) }],
          requireSignature: 'any',
        }),
      },
    ]);
    expect(view.effective).toMatchObject({
      organization: null,
      webhookPort: null,
      activityExport: null,
      allowedPackages: null,
      requireSignature: 'any',
    });
    expect(Object.keys(view.origin)).toEqual(['requireSignature']);
  });
});
