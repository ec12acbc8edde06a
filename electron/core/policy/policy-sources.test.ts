/**
 * The sources' order and who wins (DESIGN.md "Managed policy"), with every source present at once: the machine's
 * registry key (or managed preferences) and file decide, the first that sets a key deciding it; the per-user key and
 * the person's `APOLLIA_POLICY_FILE` only add restrictions; `origin` names where each key in force came from.
 */
import { describe, expect, it } from 'vitest';
import { evaluatePolicy, type PolicyFileText, type PolicyValueSource } from './evaluate-policy';

const KEY_A = 'RWRBgZL74n41JgKbQmMI+1Gbf3SZpb2EfPkEa8AYcHig+gTecGl5Wa95';
const KEY_B = 'RWSXTxbG7Bmt7AWFpgEXrtUMunqnPdmv2y6T82A1jM7wizakjwNLv0uv';
const HKLM = 'HKLM\\SOFTWARE\\Policies\\Apollia Desktop';
const HKCU = 'HKCU\\SOFTWARE\\Policies\\Apollia Desktop';
const FILE = 'C:\\ProgramData\\Apollia Desktop\\policy.json';
const ENV = 'C:\\Users\\me\\try.json';

const value = (role: PolicyValueSource['role'], path: string, v: unknown): PolicyValueSource => ({
  role,
  path,
  value: v,
});
const file = (role: PolicyFileText['role'], path: string, v: unknown): PolicyFileText => ({
  role,
  path,
  text: JSON.stringify(v),
});

/** Every source at once, in the order the reader passes them (deciding first). */
const all = () => [
  value('machine', HKLM, {
    version: 2,
    organization: 'Example Corp',
    requireSignature: 'any',
    trustedPublishers: [{ name: 'IT', key: KEY_A }],
    updates: 'person',
    mcpServers: { allowed: [{ name: 'git*' }] },
  }),
  file('machine', FILE, {
    version: 1,
    organization: 'Shadowed Corp',
    requireSignature: 'none',
    templates: 'builtin',
    webhookPort: 9000,
    blockedTools: ['shell'],
  }),
  value('user', HKCU, {
    version: 2,
    organization: 'Me',
    trustedPublishers: [{ name: 'Mine', key: KEY_B }],
    requireSignature: 'trusted',
    webhookPort: 9100,
    toolRules: [{ match: 'mcp:github/*', permission: 'ask' }],
    mcpServers: {
      allowed: [{ name: 'github' }, { name: 'gitea' }],
      provided: [{ name: 'mine', transport: 'stdio', command: 'x' }],
    },
  }),
  file('env', ENV, {
    version: 2,
    templates: 'any',
    blockedTools: ['mcp:*/delete_*'],
    updates: 'hold',
    installSources: 'feeds',
    mcpServers: { allowed: [{ name: 'github' }], denied: [{ name: 'gitea' }] },
    activityExport: { otlp: 'https://mine.example/' },
  }),
];

describe('every source at once', () => {
  it('the machine sources decide, the first that sets a key winning; user and person sources only restrict', () => {
    const view = evaluatePolicy(all());
    expect(view.problem).toBeNull();
    const p = view.effective;
    // Deciding: HKLM before the machine file.
    expect(p?.organization).toBe('Example Corp');
    expect(p?.trustedPublishers).toEqual([{ name: 'IT', key: KEY_A }]);
    // The machine file decides what HKLM leaves unset.
    expect(p?.webhookPort).toBe(9000);
    // Restricting: HKCU's `trusted` is stricter than HKLM's `any`; the person's `any` loosens nothing.
    expect(p?.requireSignature).toBe('trusted');
    expect(p?.templates).toBe('builtin');
    expect(new Set(p?.blockedTools)).toEqual(new Set(['shell', 'mcp:*/delete_*']));
    expect(p?.toolRules).toEqual([{ match: 'mcp:github/*', permission: 'ask' }]);
    expect(p?.installSources).toBe('feeds');
    // Allowlists add up (a server on each), denials add up; granting keys of the user and the person count for nothing.
    expect(p?.mcpServersAllowed).toEqual([
      [{ name: 'git*' }],
      [{ name: 'github' }, { name: 'gitea' }],
      [{ name: 'github' }],
    ]);
    expect(p?.mcpServersDenied).toEqual([{ name: 'gitea' }]);
    expect(p?.mcpServers).toEqual([]);
    expect(p?.activityExportOtlp).toBeNull();
    // `updates: person` leaves the choice to the person: a restricting source may fix it.
    expect(p?.updates).toBe('hold');
  });

  it('origin names, for each key in force, the sources it came from', () => {
    expect(evaluatePolicy(all()).origin).toEqual({
      organization: [HKLM],
      requireSignature: [HKLM, HKCU],
      trustedPublishers: [HKLM],
      updates: [HKLM, ENV],
      'mcpServers.allowed': [HKLM, HKCU, ENV],
      templates: [FILE, ENV],
      webhookPort: [FILE],
      blockedTools: [FILE, ENV],
      toolRules: [HKCU],
      installSources: [ENV],
      'mcpServers.denied': [ENV],
    });
  });

  it('the order is what decides: the same sources with the machine file first let it win', () => {
    const [hklm, machineFile, ...rest] = all();
    const swapped = evaluatePolicy([machineFile as PolicyFileText, hklm as PolicyValueSource, ...rest]);
    expect(swapped.effective?.organization).toBe('Shadowed Corp');
    // Still restricted by HKCU: `trusted` over the file's `none`.
    expect(swapped.effective?.requireSignature).toBe('trusted');
  });

  it('with no machine source, the first user source is the policy and the person’s file restricts it', () => {
    const [, , hkcu, env] = all();
    const p = evaluatePolicy([hkcu as PolicyValueSource, env as PolicyFileText]).effective;
    expect(p?.organization).toBe('Me');
    expect(p?.webhookPort).toBe(9100);
    expect(p?.trustedPublishers).toEqual([{ name: 'Mine', key: KEY_B }]);
    expect(p?.activityExportOtlp).toBeNull();
    expect(p?.installSources).toBe('feeds');
  });

  it('absent sources count for nothing; one unreadable source fails the whole policy closed, naming it', () => {
    const absent = [value('machine', HKLM, null), { role: 'machine', path: FILE, text: null } as PolicyFileText];
    expect(evaluatePolicy(absent).state).toBe('none');
    const unreadable = evaluatePolicy([
      ...all(),
      { role: 'user', path: HKCU, value: null, readProblem: 'reg.exe failed (exit 5)' } as PolicyValueSource,
    ]);
    expect(unreadable.state).toBe('unreadable');
    expect(unreadable.effective).toBeNull();
    expect(unreadable.problem).toEqual({ path: HKCU, message: 'reg.exe failed (exit 5)' });
    const invalid = evaluatePolicy([value('machine', HKLM, { version: 2, toolRules: 'block everything' }), ...all()]);
    expect(invalid.problem).toEqual({ path: HKLM, message: '`toolRules` must be array' });
  });
});
