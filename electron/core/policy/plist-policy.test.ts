/**
 * The policy from macOS managed preferences: XML plists made with Python's plistlib and binary ones made from them with
 * Debian's plistutil (`fixtures/plist/make-fixtures.py`), read as policy keys; the machine's plist deciding before the
 * machine file, the user's only restricting; absent, unreadable and invalid ones; and the sample `.mobileconfig`.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { evaluatePolicy } from './evaluate-policy';
import plist from 'plist';
import { managedPreferencesPaths, PREFERENCES_DOMAIN, plistPolicyValue, readPlistSource } from './plist-policy';
import { policyLocations, readPolicy } from './read-policy';

const ROOT = new URL('../../../', import.meta.url).pathname;
const FIXTURES = join(ROOT, 'electron/core/policy/fixtures/plist');
const bytes = (name: string) => readFileSync(join(FIXTURES, name));

const MACHINE = {
  version: 2,
  organization: 'Example Corp',
  requireSignature: 'any',
  unattended: false,
  webhookPort: 9000,
  toolRules: [{ match: 'mcp:github/*', permission: 'ask' }],
  mcpServers: { denied: [{ command: '*curl*' }], allowed: [{ name: 'git*' }] },
  activityExport: { otlp: 'https://otel.example.com/v1/logs' },
  updates: 'hold',
};

describe('managed preferences plists', () => {
  it('XML and binary plists of the same keys read the same policy keys (version 2 when left out)', () => {
    expect(plistPolicyValue(bytes('machine.xml.plist'))).toEqual({ ok: true, value: MACHINE });
    expect(plistPolicyValue(bytes('machine.bin.plist'))).toEqual({ ok: true, value: MACHINE });
    expect(plistPolicyValue(bytes('user.bin.plist'))).toEqual(plistPolicyValue(bytes('user.xml.plist')));
  });

  it('refuses a truncated binary plist, XML that is not a plist, a date, and a top level that is not a dictionary', () => {
    expect(plistPolicyValue(bytes('truncated.bin.plist'))).toMatchObject({ ok: false });
    expect(plistPolicyValue(Buffer.from('<plist><dict><key>a</key></plist'))).toMatchObject({ ok: false });
    const date = Buffer.from(
      '<?xml version="1.0"?><plist version="1.0"><dict><key>organization</key><date>2026-01-01T00:00:00Z</date></dict></plist>',
    );
    expect(plistPolicyValue(date)).toEqual({
      ok: false,
      problem: '`organization` is not a string, number, boolean, array or dictionary',
    });
    const array = Buffer.from('<?xml version="1.0"?><plist version="1.0"><array/></plist>');
    expect(plistPolicyValue(array)).toEqual({ ok: false, problem: 'its top level is not a dictionary' });
  });

  it('the paths: the machine plist, and the user’s by account name under it', () => {
    expect(managedPreferencesPaths('ada')).toEqual({
      machine: '/Library/Managed Preferences/app.apollia.desktop.plist',
      user: '/Library/Managed Preferences/ada/app.apollia.desktop.plist',
    });
    expect(policyLocations({}, 'darwin').managedPreferences?.machine).toBe(
      '/Library/Managed Preferences/app.apollia.desktop.plist',
    );
    expect(policyLocations({}, 'linux').managedPreferences).toBeUndefined();
  });

  it('present on disk: the machine plist decides before the machine file, the user plist only restricts', () => {
    const dir = tempDir('apollia-plist-');
    mkdirSync(join(dir, 'ada'));
    writeFileSync(join(dir, 'm.plist'), bytes('machine.bin.plist'));
    writeFileSync(join(dir, 'ada', 'u.plist'), bytes('user.xml.plist'));
    writeFileSync(
      join(dir, 'policy.json'),
      JSON.stringify({ version: 1, organization: 'File Corp', templates: 'none' }),
    );
    const view = readPolicy({
      machine: join(dir, 'policy.json'),
      env: null,
      managedPreferences: { machine: join(dir, 'm.plist'), user: join(dir, 'ada', 'u.plist') },
    });
    expect(view.problem).toBeNull();
    expect(view.effective).toMatchObject({
      organization: 'Example Corp',
      templates: 'none',
      requireSignature: 'trusted',
      blockedTools: ['shell'],
      installSources: 'feeds',
      updates: 'hold',
    });
    expect(view.origin.organization).toEqual([join(dir, 'm.plist')]);
    expect(view.origin.requireSignature).toEqual([join(dir, 'm.plist'), join(dir, 'ada', 'u.plist')]);
    expect(view.origin.templates).toEqual([join(dir, 'policy.json')]);
  });

  it('absent: nothing; unreadable or invalid: fails closed, naming the plist and the key', () => {
    const dir = tempDir('apollia-plist-');
    expect(readPlistSource('machine', join(dir, 'none.plist'))).toEqual({
      role: 'machine',
      path: join(dir, 'none.plist'),
      value: null,
    });
    writeFileSync(join(dir, 'bad.plist'), bytes('bad-value.xml.plist'));
    const bad = evaluatePolicy([readPlistSource('machine', join(dir, 'bad.plist'))]);
    expect(bad.state).toBe('unreadable');
    expect(bad.problem?.message).toContain('`updates` must be one of');
    writeFileSync(join(dir, 'locked.plist'), bytes('machine.xml.plist'));
    chmodSync(join(dir, 'locked.plist'), 0);
    const locked = readPlistSource('user', join(dir, 'locked.plist'));
    // Root reads any file: the check holds only where permissions are enforced.
    if (process.getuid?.() !== 0) expect(locked.readProblem).toMatch(/cannot be read \(EACCES\)/);
    mkdirSync(join(dir, 'folder.plist'));
    const folder = evaluatePolicy([readPlistSource('machine', join(dir, 'folder.plist'))]);
    expect(folder.state).toBe('unreadable');
    expect(folder.problem?.message).toContain('EISDIR');
  });
});

describe('the sample configuration profile', () => {
  it('parses as a profile, its payload names the app’s domain, and the payload is a version-2 policy in force', () => {
    const raw = readFileSync(join(ROOT, 'resources/macos/apollia-desktop.mobileconfig'), 'utf8');
    const profile = plist.parse(raw) as { PayloadType: string; PayloadContent: Record<string, unknown>[] };
    expect(profile.PayloadType).toBe('Configuration');
    const payload = profile.PayloadContent.find((p) => p.PayloadType === PREFERENCES_DOMAIN);
    expect(payload).toBeDefined();
    // What macOS writes to the managed preferences: the payload's keys; its Payload keys are passed over on reading.
    const read = plistPolicyValue(Buffer.from(plist.build(payload as Record<string, unknown>)));
    expect(read.ok).toBe(true);
    const view = evaluatePolicy([{ role: 'machine', path: 'profile', value: (read as { value: unknown }).value }]);
    expect(view.problem).toBeNull();
    expect(view.effective).toMatchObject({ organization: 'Example Corp', installSources: 'feeds', updates: 'notify' });
    expect(view.effective?.toolRules).toHaveLength(2);
  });
});
