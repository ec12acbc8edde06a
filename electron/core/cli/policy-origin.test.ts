/**
 * `policy [--json]` names, for each rule in force, the source it came from: a registry key, a managed-preferences
 * plist or a file (DESIGN.md "Managed policy").
 */
import { describe, expect, it } from 'vitest';
import { evaluatePolicy } from '../policy/evaluate-policy';
import { policyText } from './policy-command';

const HKLM = 'HKLM\\SOFTWARE\\Policies\\Apollia Desktop';
const HKCU = 'HKCU\\SOFTWARE\\Policies\\Apollia Desktop';
const PLIST = '/Library/Managed Preferences/ada/app.apollia.desktop.plist';
const FILE = '/tmp/try.json';

describe('policy names the source of each rule', () => {
  const view = evaluatePolicy([
    {
      role: 'machine',
      path: HKLM,
      value: { version: 2, organization: 'Example Corp', mcpServers: { denied: [{ name: 'x' }] } },
    },
    { role: 'user', path: HKCU, value: { version: 2, toolRules: [{ match: 'shell', permission: 'block' }] } },
    { role: 'user', path: PLIST, value: { version: 2, installSources: 'feeds', organization: 'Ignored' } },
    { role: 'env', path: FILE, text: JSON.stringify({ version: 1, blockedTools: ['mcp:*/delete_*'] }) },
  ]);

  it('--json: origin names each rule by its key, with the registry key, plist or file it came from', () => {
    expect(view.origin).toEqual({
      organization: [HKLM],
      'mcpServers.denied': [HKLM],
      toolRules: [HKCU],
      installSources: [PLIST],
      blockedTools: [FILE],
    });
    expect(view.sources.map((s) => [s.role, s.path, s.state])).toEqual([
      ['machine', HKLM, 'read'],
      ['user', HKCU, 'read'],
      ['user', PLIST, 'read'],
      ['env', FILE, 'read'],
    ]);
  });

  it('text: each source, and each rule with its value and source', () => {
    const text = policyText(view);
    expect(text).toContain(`Machine policy: ${HKLM} (read)`);
    expect(text).toContain(`User policy: ${PLIST} (read)`);
    expect(text).toContain(`APOLLIA_POLICY_FILE: ${FILE} (read)`);
    expect(text).toContain(`  mcpServers.denied: [{"name":"x"}]  (from ${HKLM})`);
    expect(text).toContain(`  toolRules: [{"match":"shell","permission":"block"}]  (from ${HKCU})`);
    expect(text).toContain(`  installSources: "feeds"  (from ${PLIST})`);
    expect(text).toContain(`  blockedTools: ["mcp:*/delete_*"]  (from ${FILE})`);
    expect(text).not.toContain('Ignored');
  });
});
