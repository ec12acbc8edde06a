/**
 * Version 2 of the policy file (DESIGN.md "Managed policy"): each key read, refused when wrong (naming the key, failing
 * closed), and evaluated where version 1's keys are — `mcpServers.allowed` / `.denied` (deny wins, `*`), `toolRules`
 * (the strictest matching rule wins), `installSources`, `feeds.allowed`, `updates`, `activityExport` — and the
 * samples in `resources/policy-samples/`, each read as the README's table says.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApolliaManifest } from '../../../shared/manifests/apollia-manifest';
import {
  effectivePermission,
  type EffectivePolicy,
  feedAllowed,
  globMatches,
  mcpServerRefusedBy,
  NO_POLICY,
  toolAskedBy,
  toolBlockedBy,
  toolRuleFor,
} from '../../../shared/policy/policy';
import { evaluatePolicy, type PolicyFileText } from './evaluate-policy';
import { packagePolicyProblems } from './index';

const ROOT = new URL('../../../', import.meta.url).pathname;
const SAMPLES = join(ROOT, 'resources/policy-samples');

const machine = (doc: unknown): PolicyFileText => ({ role: 'machine', path: '/etc/m.json', text: JSON.stringify(doc) });
const second = (doc: unknown): PolicyFileText => ({ role: 'env', path: '/tmp/try.json', text: JSON.stringify(doc) });
const policyOf = (...files: PolicyFileText[]): EffectivePolicy => {
  const view = evaluatePolicy(files);
  expect(view.problem).toBeNull();
  expect(view.state).toBe('applied');
  return view.effective as EffectivePolicy;
};
const v2 = (keys: object) => ({ version: 2, ...keys });

const manifest = (servers: ApolliaManifest['mcp_servers']): ApolliaManifest =>
  ({ package: { name: 'invoices', version: '1.0.0' }, mcp_servers: servers }) as unknown as ApolliaManifest;
const codes = (policy: EffectivePolicy, m: ApolliaManifest, from: 'file' | 'feed' = 'feed') =>
  packagePolicyProblems(policy, m, null, 'c'.repeat(64), [], from).map((p) => p.code);

describe('version 2: mcpServers.allowed / .denied', () => {
  const policy = () =>
    policyOf(
      machine(
        v2({
          mcpServers: {
            allowed: [
              { name: 'github' },
              { command: 'npx', args: ['-y', '@modelcontextprotocol/server-*'] },
              { url: 'https://mcp.example.com/*' },
            ],
            denied: [{ url: 'https://mcp.example.com/legacy/*' }, { name: 'github', command: '*curl*' }],
          },
        }),
      ),
    );

  it('allows a server on the list: by name, by command and each argument (with `*`), by URL (with `*`)', () => {
    const p = policy();
    expect(mcpServerRefusedBy(p, { name: 'github', command: 'node', args: ['x.js'] })).toBeNull();
    expect(
      mcpServerRefusedBy(p, { name: 'fs', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'] }),
    ).toBeNull();
    expect(mcpServerRefusedBy(p, { name: 'crm', url: 'https://mcp.example.com/crm/sse' })).toBeNull();
    expect(codes(p, manifest([{ name: 'crm', url: 'https://mcp.example.com/crm' }]))).toEqual([]);
  });

  it('refuses a server on no allowed entry: another command, another argument, one argument more, another host', () => {
    const p = policy();
    expect(
      mcpServerRefusedBy(p, { name: 'fs', command: 'uvx', args: ['-y', '@modelcontextprotocol/server-x'] }),
    ).toMatch(/not on your organization's list of allowed MCP servers/);
    expect(mcpServerRefusedBy(p, { name: 'fs', command: 'npx', args: ['-y', 'evil-server'] })).not.toBeNull();
    expect(
      mcpServerRefusedBy(p, { name: 'fs', command: 'npx', args: ['-y', '@modelcontextprotocol/server-a', '--x'] }),
    ).not.toBeNull();
    expect(mcpServerRefusedBy(p, { name: 'crm', url: 'https://mcp.example.org/crm' })).not.toBeNull();
    expect(codes(p, manifest([{ name: 'shell', command: 'bash', args: ['-c', 'x'] }]))).toEqual([
      'policy.mcp_server_denied',
    ]);
  });

  it('deny wins over an allowed entry that matches too', () => {
    const p = policy();
    expect(mcpServerRefusedBy(p, { name: 'legacy', url: 'https://mcp.example.com/legacy/sse' })).toMatch(
      /denies the MCP server `legacy`/,
    );
    expect(mcpServerRefusedBy(p, { name: 'github', command: '/usr/bin/curl' })).toMatch(/denies/);
  });

  it('with no list, any server; a denied list alone refuses only what it names', () => {
    expect(mcpServerRefusedBy(policyOf(machine(v2({}))), { name: 'any', command: 'x' })).toBeNull();
    const p = policyOf(machine(v2({ mcpServers: { denied: [{ command: 'docker' }] } })));
    expect(mcpServerRefusedBy(p, { name: 'a', command: 'node' })).toBeNull();
    expect(mcpServerRefusedBy(p, { name: 'a', command: 'docker' })).not.toBeNull();
  });

  it("a person's file adds a list the server must also be on, and denies more; it cannot allow more", () => {
    const p = policyOf(
      machine(v2({ mcpServers: { allowed: [{ name: 'git*' }] } })),
      second(v2({ mcpServers: { allowed: [{ name: 'gitlab' }, { name: 'other' }], denied: [{ name: 'gitea' }] } })),
    );
    expect(mcpServerRefusedBy(p, { name: 'gitlab' })).toBeNull();
    expect(mcpServerRefusedBy(p, { name: 'github' })).not.toBeNull();
    expect(mcpServerRefusedBy(p, { name: 'other' })).not.toBeNull();
    expect(mcpServerRefusedBy(p, { name: 'gitea' })).toMatch(/denies/);
  });

  it('`*` stands for any run of characters, slashes included; nothing else is special', () => {
    expect(globMatches('https://*.example.com/*', 'https://a.b.example.com/x/y')).toBe(true);
    expect(globMatches('a*b*c', 'aXXbYYc')).toBe(true);
    expect(globMatches('a*b*c', 'aXXcYYb')).toBe(false);
    expect(globMatches('a.c', 'abc')).toBe(false);
    expect(globMatches('*', '')).toBe(true);
    expect(globMatches('', 'x')).toBe(false);
  });
});

describe('version 2: toolRules', () => {
  const rules = [
    { match: 'mcp:github/*', permission: 'ask' },
    { match: 'mcp:github/delete_*', permission: 'block' },
    { match: 'mcp:github/read_*', permission: 'allow' },
  ];

  it('the strictest matching rule wins, whatever the order', () => {
    for (const order of [rules, [...rules].reverse()]) {
      const p = policyOf(machine(v2({ toolRules: order })));
      expect(toolRuleFor(p, 'mcp:github/delete_repo')?.permission).toBe('block');
      expect(toolBlockedBy(p, 'mcp:github/delete_repo', null)).toBe('your organization blocks “mcp:github/delete_*”');
      expect(effectivePermission(p, 'mcp:github/delete_repo', null, 'allow')).toBe('deny');
      // `read_*` allows, but `mcp:github/*` asks: ask is stricter.
      expect(toolRuleFor(p, 'mcp:github/read_file')?.permission).toBe('ask');
      expect(effectivePermission(p, 'mcp:github/read_file', null, 'allow')).toBe('ask');
      expect(toolAskedBy(p, 'mcp:github/read_file')).toMatch(/asks you before each call of “mcp:github\/\*”/);
    }
  });

  it('allowed: an `allow` rule leaves the person’s decision, and no rule leaves any tool as it was', () => {
    const p = policyOf(machine(v2({ toolRules: [{ match: 'mcp:docs/*', permission: 'allow' }] })));
    expect(effectivePermission(p, 'mcp:docs/search', null, 'allow')).toBe('allow');
    expect(effectivePermission(p, 'mcp:docs/search', null, 'deny')).toBe('deny');
    expect(effectivePermission(p, 'mcp:other/x', null, 'allow')).toBe('allow');
    // An allow rule never lifts what blockedTools blocks.
    const q = policyOf(
      machine(v2({ blockedTools: ['mcp:docs/*'], toolRules: [{ match: 'mcp:docs/*', permission: 'allow' }] })),
    );
    expect(effectivePermission(q, 'mcp:docs/search', null, 'allow')).toBe('deny');
  });

  it('wildcards as blocked tools read them: `*` stops at `/`', () => {
    const p = policyOf(machine(v2({ toolRules: [{ match: 'mcp:*/delete_*', permission: 'block' }] })));
    expect(toolBlockedBy(p, 'mcp:crm/delete_contact', null)).not.toBeNull();
    expect(toolBlockedBy(p, 'mcp:crm/sub/delete_contact', null)).toBeNull();
    expect(toolBlockedBy(p, 'mcp:crm/create', null)).toBeNull();
  });

  it("a person's rules add to the machine's: the strictest of both wins", () => {
    const p = policyOf(
      machine(v2({ toolRules: [{ match: 'shell', permission: 'ask' }] })),
      second(
        v2({
          toolRules: [
            { match: 'shell', permission: 'allow' },
            { match: 'mcp:x/*', permission: 'block' },
          ],
        }),
      ),
    );
    expect(effectivePermission(p, 'shell', null, 'allow')).toBe('ask');
    expect(effectivePermission(p, 'mcp:x/y', null, 'allow')).toBe('deny');
  });
});

describe('version 2: installSources, feeds.allowed, updates, activityExport', () => {
  const m = manifest([]);

  it('installSources: `feeds` refuses a local file and allows a feed; `any` (the default) allows both', () => {
    const feeds = policyOf(machine(v2({ installSources: 'feeds' })));
    expect(codes(feeds, m, 'file')).toEqual(['policy.install_source']);
    expect(codes(feeds, m, 'feed')).toEqual([]);
    expect(packagePolicyProblems(feeds, m, null, 'c'.repeat(64), [])[0]?.code).toBe('policy.install_source');
    expect(codes(policyOf(machine(v2({ installSources: 'any' }))), m, 'file')).toEqual([]);
    expect(codes(policyOf(machine(v2({}))), m, 'file')).toEqual([]);
    // The stricter wins: a person's file may forbid local files, never allow them back.
    expect(
      policyOf(machine(v2({ installSources: 'feeds' })), second(v2({ installSources: 'any' }))).installSources,
    ).toBe('feeds');
    expect(policyOf(machine(v2({})), second(v2({ installSources: 'feeds' }))).installSources).toBe('feeds');
  });

  it('feeds.allowed: an address with an allowed prefix, on every list a source sets', () => {
    const p = policyOf(machine(v2({ feeds: { allowed: ['https://packages.example.com/'] } })));
    expect(feedAllowed(p, 'https://packages.example.com/apollia/feed.json')).toBe(true);
    expect(feedAllowed(p, 'https://packages.example.com.evil.net/feed.json')).toBe(false);
    expect(feedAllowed(policyOf(machine(v2({}))), 'https://anything/')).toBe(true);
    const both = policyOf(
      machine(v2({ feeds: { allowed: ['https://packages.example.com/'] } })),
      second(v2({ feeds: { allowed: ['https://packages.example.com/team/', 'https://other.example/'] } })),
    );
    expect(feedAllowed(both, 'https://packages.example.com/team/f.json')).toBe(true);
    expect(feedAllowed(both, 'https://packages.example.com/else/f.json')).toBe(false);
    expect(feedAllowed(both, 'https://other.example/f.json')).toBe(false);
  });

  it("updates: the machine's mode holds; a person's file fixes one only where the machine leaves it to the person", () => {
    expect(policyOf(machine(v2({}))).updates).toBe('person');
    expect(policyOf(machine(v2({ updates: 'hold' }))).updates).toBe('hold');
    expect(policyOf(machine(v2({ updates: 'hold' })), second(v2({ updates: 'auto' }))).updates).toBe('hold');
    expect(policyOf(machine(v2({ updates: 'person' })), second(v2({ updates: 'notify' }))).updates).toBe('notify');
  });

  it('activityExport: a file or an https OTLP address; the machine’s, never the person’s beside it', () => {
    expect(policyOf(machine(v2({ activityExport: { file: '/var/log/a.jsonl' } })))).toMatchObject({
      activityExport: '/var/log/a.jsonl',
      activityExportOtlp: null,
    });
    expect(policyOf(machine(v2({ activityExport: { otlp: 'https://otel.example.com/v1/logs' } })))).toMatchObject({
      activityExport: null,
      activityExportOtlp: 'https://otel.example.com/v1/logs',
    });
    const both = policyOf(machine(v2({})), second(v2({ activityExport: { otlp: 'https://mine.example/' } })));
    expect(both.activityExportOtlp).toBeNull();
    // Plain http only to this computer's loopback: a collector on the machine (the OpenTelemetry Collector's 4318).
    for (const local of ['http://127.0.0.1:4318/v1/logs', 'http://localhost:4318/v1/logs', 'http://[::1]:4318/'])
      expect(policyOf(machine(v2({ activityExport: { otlp: local } }))).activityExportOtlp).toBe(local);
  });
});

describe('version 2: a bad value fails closed, naming the key', () => {
  it.each([
    [{ mcpServers: [{ name: 'x', transport: 'stdio' }] }, '`mcpServers` must be object'],
    [{ mcpServers: { allowed: [{}] } }, '`mcpServers.allowed.0` must NOT have fewer than 1 properties'],
    [{ mcpServers: { denied: [{ host: 'x' }] } }, '`mcpServers.denied.0` has the unknown key `host`'],
    [{ mcpServers: { allow: [] } }, '`mcpServers` has the unknown key `allow`'],
    [
      { toolRules: [{ match: 'x', permission: 'deny' }] },
      '`toolRules.0.permission` must be one of "allow", "ask", "block"',
    ],
    [{ toolRules: [{ permission: 'ask' }] }, "`toolRules.0` must have required property 'match'"],
    [{ installSources: 'local' }, '`installSources` must be one of "any", "feeds"'],
    [{ feeds: { allowed: [''] } }, '`feeds.allowed.0` must NOT have fewer than 1 characters'],
    [{ feeds: ['https://x/'] }, '`feeds` must be object'],
    [{ updates: 'never' }, '`updates` must be one of "notify", "auto", "hold", "person"'],
    [{ activityExport: '/var/log/a.jsonl' }, '`activityExport` must be object'],
    [{ activityExport: { otlp: 'http://otel.example.com' } }, '`activityExport.otlp` must match pattern'],
    [{ activityExport: { otlp: 'http://localhost.example.com/' } }, '`activityExport.otlp` must match pattern'],
    [{ activityExport: { otlp: 'http://127.0.0.1.example.com/' } }, '`activityExport.otlp` must match pattern'],
    [{ activityExport: { file: '/a', otlp: 'https://b' } }, '`activityExport` must NOT have more than 1 properties'],
    [{ activityExport: { url: 'https://b' } }, '`activityExport` has the unknown key `url`'],
  ])('%j', (keys, problem) => {
    const view = evaluatePolicy([machine(v2(keys))]);
    expect(view.state).toBe('unreadable');
    expect(view.effective).toBeNull();
    expect(view.problem?.message).toContain(problem);
  });
});

describe('the samples in resources/policy-samples/', () => {
  const samples = readdirSync(SAMPLES).filter((name) => name.endsWith('.json'));
  const readme = readFileSync(join(ROOT, 'electron/core/policy/README.md'), 'utf8');

  it.each(samples)('%s is a version-2 policy in force, and the README names it', (name) => {
    const view = evaluatePolicy([{ role: 'machine', path: name, text: readFileSync(join(SAMPLES, name), 'utf8') }]);
    expect(view.problem).toBeNull();
    expect(view.state).toBe('applied');
    expect(view.effective).not.toEqual(NO_POLICY);
    expect(readme).toContain(`resources/policy-samples/${name}`);
  });

  it('a sample for every version-2 key', () => {
    const keys = new Set(
      samples.flatMap((name) =>
        Object.keys(evaluatePolicy([machine(JSON.parse(readFileSync(join(SAMPLES, name), 'utf8')))]).origin),
      ),
    );
    for (const key of [
      'mcpServers.provided',
      'mcpServers.allowed',
      'mcpServers.denied',
      'toolRules',
      'installSources',
      'feeds.allowed',
      'updates',
      'activityExport.file',
      'activityExport.otlp',
    ])
      expect(keys).toContain(key);
  });
});
