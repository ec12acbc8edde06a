/**
 * The policy from the Windows registry: `reg query` output parsed (fixtures written by hand from Microsoft's documented
 * format, marked so in `fixtures/registry/README.md`), each value read as its key, `HKLM` deciding and `HKCU` only
 * restricting, an absent key nothing, an unreadable one failing closed; and the ADMX template admins import, parsed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPolicy } from './read-policy';
import { parseRegQuery, readRegistryPolicy, REG_EXE, registryPolicyValue, type RunReg } from './registry-policy';

/** The few DOM calls the ADMX check makes (xmldom's own types load the DOM library into the whole program). */
interface XmlElement {
  getAttribute(name: string): string | null;
  getElementsByTagName(name: string): ArrayLike<XmlElement>;
}
type XmlParser = new (options: object) => { parseFromString(text: string, type: string): XmlElement };
const XMLDOM = '@xmldom/xmldom';
const { DOMParser } = (await import(/* @vite-ignore */ XMLDOM)) as { DOMParser: XmlParser };

const ROOT = new URL('../../../', import.meta.url).pathname;
const fixture = (name: string) => readFileSync(join(ROOT, 'electron/core/policy/fixtures/registry', name), 'utf8');
const HKLM = 'HKLM\\SOFTWARE\\Policies\\Apollia Desktop';
const HKCU = 'HKCU\\SOFTWARE\\Policies\\Apollia Desktop';
const NOT_FOUND = {
  status: 1,
  stdout: '',
  stderr: 'ERROR: The system was unable to find the specified registry key or value.\r\n',
};

/** A `reg.exe` answering from fixtures, recording what it was asked. */
function fakeReg(answers: Record<string, ReturnType<RunReg>>): { run: RunReg; calls: string[][] } {
  const calls: string[][] = [];
  return { calls, run: (args) => (calls.push([...args]), answers[args[1] as string] ?? NOT_FOUND) };
}
const ok = (name: string) => ({ status: 0, stdout: fixture(name), stderr: '' });

describe('reg query output', () => {
  it('parses the key and each value (name, type, data with spaces and JSON) as Microsoft documents it', () => {
    const [key, ...rest] = parseRegQuery(fixture('hklm.txt'));
    expect(rest).toEqual([]);
    expect(key?.path).toBe('HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Apollia Desktop');
    expect(key?.values[0]).toEqual({ name: 'organization', type: 'REG_SZ', data: 'Example Corp' });
    expect(key?.values.find((v) => v.name === 'webhookPort')).toEqual({
      name: 'webhookPort',
      type: 'REG_DWORD',
      data: '0x2328',
    });
    expect(parseRegQuery(fixture('subkey.txt')).map((k) => k.path)).toHaveLength(2);
  });

  it('reads text, yes/no and number values, and JSON strings, as the policy keys; version 2 when left out', () => {
    expect(registryPolicyValue(fixture('hklm.txt'))).toEqual({
      ok: true,
      value: {
        version: 2,
        organization: 'Example Corp',
        requireSignature: 'any',
        unattended: false,
        webhookPort: 9000,
        toolRules: [{ match: 'mcp:github/*', permission: 'ask' }],
        mcpServers: { denied: [{ command: '*curl*' }], allowed: [{ name: 'git*' }] },
        activityExport: { otlp: 'https://otel.example.com/v1/logs' },
        updates: 'hold',
      },
    });
  });

  it('refuses, naming the value: JSON that does not parse, a wrong type, a subkey', () => {
    expect(registryPolicyValue(fixture('bad-json.txt'))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('`toolRules` is not valid JSON'),
    });
    expect(registryPolicyValue(fixture('wrong-type.txt'))).toEqual({
      ok: false,
      problem: 'the registry value `unattended` must be a REG_DWORD, not REG_SZ',
    });
    expect(registryPolicyValue(fixture('subkey.txt'))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('subkey'),
    });
  });
});

describe('the registry as policy sources', () => {
  it('asks the system reg.exe by absolute path for HKLM then HKCU, each with /s', () => {
    const reg = fakeReg({});
    expect(readRegistryPolicy(reg.run)).toEqual([
      { role: 'machine', path: HKLM, value: null },
      { role: 'user', path: HKCU, value: null },
    ]);
    expect(reg.calls).toEqual([
      ['query', HKLM, '/s'],
      ['query', HKCU, '/s'],
    ]);
    expect(REG_EXE).toBe('C:\\Windows\\System32\\reg.exe');
  });

  it('present: HKLM decides, HKCU only restricts, the machine file after HKLM; origin names the keys', () => {
    const reg = fakeReg({ [HKLM]: ok('hklm.txt'), [HKCU]: ok('hkcu.txt') });
    const view = readPolicy(
      { machine: null, env: null, registry: true },
      { registry: () => readRegistryPolicy(reg.run) },
    );
    expect(view.problem).toBeNull();
    expect(view.effective).toMatchObject({
      organization: 'Example Corp',
      requireSignature: 'trusted',
      blockedTools: ['shell'],
      installSources: 'feeds',
      webhookPort: 9000,
      unattended: false,
    });
    expect(view.origin.organization).toEqual([HKLM]);
    expect(view.origin.requireSignature).toEqual([HKLM, HKCU]);
    expect(view.sources.map((s) => [s.role, s.path, s.state])).toEqual([
      ['machine', HKLM, 'read'],
      ['user', HKCU, 'read'],
    ]);
  });

  it('absent: no policy; unreadable (reg.exe fails, or a bad value): fails closed, naming the key', () => {
    const none = readPolicy(
      { machine: null, env: null, registry: true },
      { registry: () => readRegistryPolicy(fakeReg({}).run) },
    );
    expect(none.state).toBe('none');
    const denied = fakeReg({ [HKLM]: { status: 1, stdout: '', stderr: 'ERROR: Access is denied.' } });
    const view = readPolicy(
      { machine: null, env: null, registry: true },
      { registry: () => readRegistryPolicy(denied.run) },
    );
    expect(view.state).toBe('unreadable');
    expect(view.problem).toEqual({ path: HKLM, message: 'reg.exe could not read it (ERROR: Access is denied.)' });
    const bad = fakeReg({ [HKCU]: ok('wrong-type.txt') });
    const badView = readPolicy(
      { machine: null, env: null, registry: true },
      { registry: () => readRegistryPolicy(bad.run) },
    );
    expect(badView.state).toBe('unreadable');
    expect(badView.problem?.path).toBe(HKCU);
    const invalid = fakeReg({
      [HKLM]: {
        status: 0,
        stdout: '\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Apollia Desktop\r\n    updates    REG_SZ    weekly\r\n',
        stderr: '',
      },
    });
    expect(
      readPolicy({ machine: null, env: null, registry: true }, { registry: () => readRegistryPolicy(invalid.run) })
        .problem?.message,
    ).toContain('`updates` must be one of');
  });
});

describe('the ADMX template', () => {
  const parse = (path: string) => {
    const errors: string[] = [];
    const doc = new DOMParser({
      errorHandler: { error: (m: string) => void errors.push(m), fatalError: (m: string) => void errors.push(m) },
    }).parseFromString(readFileSync(join(ROOT, path), 'utf8'), 'text/xml');
    expect(errors).toEqual([]);
    return doc;
  };

  it('is well-formed, names a registry value for every key the registry reader takes, and its ADML has every string', () => {
    const admx = parse('resources/windows/apollia-desktop.admx');
    const adml = parse('resources/windows/en-US/apollia-desktop.adml');
    const policies = [...Array.from(admx.getElementsByTagName('policy'))];
    const names = policies.map((p) => p.getAttribute('name'));
    for (const key of [
      'organization',
      'requireSignature',
      'unattended',
      'webhookPort',
      'mcpServers',
      'toolRules',
      'installSources',
      'feeds',
      'updates',
      'activityExport',
      'blockedTools',
      'allowedPackages',
      'trustedPublishers',
      'triggers',
      'templates',
      'allowUserTrustedKeys',
      'blockedActionFamilies',
    ])
      expect(names).toContain(key);
    for (const p of policies) {
      expect(p.getAttribute('key')).toBe('Software\\Policies\\Apollia Desktop');
      expect(p.getAttribute('class')).toBe('Both');
      const valueNames = [
        p.getAttribute('valueName'),
        ...Array.from(p.getElementsByTagName('*')).map((e) => e.getAttribute('valueName')),
      ].filter(Boolean);
      expect(valueNames).toEqual([p.getAttribute('name')]);
    }
    const strings = new Set(Array.from(adml.getElementsByTagName('string')).map((s) => s.getAttribute('id')));
    const presentations = new Set(
      Array.from(adml.getElementsByTagName('presentation')).map((s) => s.getAttribute('id')),
    );
    const admxText = readFileSync(join(ROOT, 'resources/windows/apollia-desktop.admx'), 'utf8');
    for (const [, id] of admxText.matchAll(/\$\(string\.([^)]+)\)/g)) expect(strings).toContain(id);
    for (const [, id] of admxText.matchAll(/\$\(presentation\.([^)]+)\)/g)) expect(presentations).toContain(id);
  });
});
