import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import type { ApolliaManifest } from '../manifests/apollia-manifest';
import { APOLLIA_NATIVE_TOOLS } from '../manifests/catalogues';
import { BUILTIN, UNSIGNED } from '../trust/trust';
import {
  enforcedRules,
  grantedManifest,
  isPinnedSpec,
  packageVerdict,
  publisherStatus,
  unpinnedLaunch,
} from './verdict';

const fixture = (path: string) =>
  parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as unknown as ApolliaManifest;
const invoices = fixture('../../test/fixtures/apo/invoices/apollia.toml');
const watcher = fixture('../../test/fixtures/apo/watcher/apollia.toml');
const mailroom = fixture('../../e2e/fixtures/apo/mailroom/apollia.toml');
const pkg = { name: 'p', version: '1.0.0', publisher: 'P', sdk: '>=0.3' };

describe('packageVerdict', () => {
  it('the spec example: programs, personal data and a way out, worst first', () => {
    expect(packageVerdict(invoices, APOLLIA_NATIVE_TOOLS)).toEqual({
      level: 'high',
      headline: 'Can run programs on this computer and send your data out',
      facts: [
        'Starts 1 program on this computer: uvx ledger-mcp.',
        "Its Python code (extract_totals, monthly-reminders) runs with your permissions; what it says each part does is its author's word.",
        'Not pinned to one version (ledger-mcp): that code can change after you consent.',
      ],
    });
  });

  it('a network server and an unpinned requirement: code, a way out, code that can change', () => {
    const verdict = packageVerdict(watcher, APOLLIA_NATIVE_TOOLS);
    expect(verdict.level).toBe('high');
    expect(verdict.headline).toBe('Can run programs on this computer and send your data out');
    expect(verdict.facts).toContain('Not pinned to one version (send2trash): that code can change after you consent.');
  });

  it('Python code that reads files says so, without claiming a way out it does not declare', () => {
    expect(packageVerdict(mailroom, APOLLIA_NATIVE_TOOLS).headline).toBe(
      'Can run programs on this computer that read your personal data',
    );
  });

  it('no code of its own: reading personal data plus web access is a leak', () => {
    const manifest: ApolliaManifest = {
      package: pkg,
      agents: [{ id: 'a', name: 'A', mission: 'm', defaults: { access: ['mail_read', 'web_fetch'] } }],
    };
    expect(packageVerdict(manifest, APOLLIA_NATIVE_TOOLS)).toEqual({
      level: 'high',
      headline: 'Can read your personal data and send it out',
      facts: ['Reads your personal data (mail_read) and can reach outside (web_fetch): together they could leak it.'],
    });
  });

  it('levels: only reads → low; reads personal data alone → needs care', () => {
    const reads: ApolliaManifest = {
      package: pkg,
      agents: [{ id: 'a', name: 'A', mission: 'm', defaults: { access: ['notify'] } }],
    };
    expect(packageVerdict(reads, APOLLIA_NATIVE_TOOLS)).toMatchObject({
      level: 'low',
      headline: 'Only reads things that are not personal',
    });
    const personal: ApolliaManifest = {
      package: pkg,
      agents: [{ id: 'a', name: 'A', mission: 'm', defaults: { access: ['calendar_read'], sources: ['profile'] } }],
    };
    expect(packageVerdict(personal, APOLLIA_NATIVE_TOOLS)).toEqual({
      level: 'care',
      headline: 'Can read your personal data',
      facts: ['Reads your personal data: calendar_read, your profile.'],
    });
  });

  it('the built-in shell counts as running programs', () => {
    const manifest: ApolliaManifest = {
      package: pkg,
      agents: [{ id: 'a', name: 'A', mission: 'm', defaults: { access: ['shell'] } }],
    };
    expect(packageVerdict(manifest, APOLLIA_NATIVE_TOOLS)).toMatchObject({
      level: 'high',
      headline: 'Can run programs on this computer',
      facts: ['Its agents may use shell, which run any command you could.'],
    });
  });

  it('never gives more than three facts', () => {
    const manifest: ApolliaManifest = {
      ...invoices,
      agents: [
        { id: 'a', name: 'A', mission: 'm', defaults: { access: ['shell', 'file_write', 'mail_read', 'web_search'] } },
      ],
      pip: { packages: ['requests'] },
    };
    expect(packageVerdict(manifest, APOLLIA_NATIVE_TOOLS).facts).toHaveLength(3);
  });
});

describe('unpinnedLaunch', () => {
  it('flags npx and uvx programs without a pinned version, or pinned to latest', () => {
    expect(unpinnedLaunch({ command: 'npx', args: ['-y', '@acme/mcp'] })).toBe('@acme/mcp');
    expect(unpinnedLaunch({ command: 'npx', args: ['-y', '@acme/mcp@latest'] })).toBe('@acme/mcp@latest');
    expect(unpinnedLaunch({ command: 'npx', args: ['@acme/mcp@^1.2'] })).toBe('@acme/mcp@^1.2');
    expect(unpinnedLaunch({ command: '/usr/local/bin/uvx', args: ['--from', 'ledger-mcp', 'ledger'] })).toBe(
      'ledger-mcp',
    );
    expect(unpinnedLaunch({ command: 'pipx', args: ['run', 'ledger-mcp>=1'] })).toBe('ledger-mcp>=1');
    expect(unpinnedLaunch({ command: 'npx', args: [] })).toBe('npx (no program named)');
  });
  it('accepts a pinned version and ignores programs that are not launchers', () => {
    expect(unpinnedLaunch({ command: 'npx', args: ['-y', '@acme/mcp@1.4.2'] })).toBeNull();
    expect(unpinnedLaunch({ command: 'uvx', args: ['ledger-mcp==0.3.1'] })).toBeNull();
    expect(unpinnedLaunch({ command: 'uvx', args: ['--from=ledger-mcp@0.3.1', 'ledger'] })).toBeNull();
    expect(unpinnedLaunch({ command: 'node', args: ['server.js'] })).toBeNull();
  });
  it('isPinnedSpec reads npm and pip forms', () => {
    expect(isPinnedSpec('pkg@1.2.3')).toBe(true);
    expect(isPinnedSpec('@scope/pkg@2.0.0-beta.1')).toBe(true);
    expect(isPinnedSpec('@scope/pkg')).toBe(false);
    expect(isPinnedSpec('pkg@next')).toBe(false);
  });
});

describe('enforcedRules and publisherStatus', () => {
  it('says what Apollia enforces, and that running code is not limited', () => {
    expect(enforcedRules(invoices)).toEqual([
      'Its agents are offered only the tools you tick; nothing else it lists is given to them.',
      'A call to a tool that is not read-only asks you first (a tool whose kind is not known here always asks).',
      'No trigger starts anything until you arm it.',
      'Once a tool or program runs, Apollia does not limit what its code does.',
    ]);
    expect(enforcedRules({ package: pkg, agents: [] })).toHaveLength(2);
  });
  it('an unsigned package has an unverified publisher', () => {
    expect(publisherStatus(UNSIGNED)).toMatchObject({ state: 'unsigned', label: 'Unverified publisher' });
    expect(
      publisherStatus({
        state: 'verified',
        key_id: 'C16EDB3CEA28C218',
        trusted_comment: 'release 1.2',
        signer: 'Example Accounting',
        public_key: null,
        reason: null,
        message: null,
      }),
    ).toMatchObject({
      state: 'verified',
      label: 'Verified publisher: Example Accounting',
      explanation: expect.stringContaining('key ID C16EDB3CEA28C218'),
    });
    expect(
      publisherStatus({
        state: 'unknown_key',
        key_id: 'C16EDB3CEA28C218',
        trusted_comment: null,
        signer: null,
        public_key: null,
        reason: null,
        message: null,
      }),
    ).toMatchObject({
      state: 'unknown_key',
      label: 'Signed by a key you don’t know',
      explanation: expect.stringContaining('key ID C16EDB3CEA28C218'),
    });
    expect(publisherStatus(BUILTIN)).toMatchObject({ state: 'builtin' });
  });
});

describe('grantedManifest: the verdict of what the answers grant', () => {
  const operator: ApolliaManifest = {
    package: pkg,
    agents: [
      { id: 'op', name: 'Operator', mission: 'm', defaults: { access: ['shell', 'notify'] } },
      { id: 'quiet', name: 'Quiet', mission: 'm' },
    ],
  } as unknown as ApolliaManifest;

  it('keeps only the granted entries, so an unticked shell leaves the verdict', () => {
    const granted = { op: { shell: { permission: 'ask' as const }, notify: { permission: 'allow' as const } } };
    expect(packageVerdict(grantedManifest(operator, granted), APOLLIA_NATIVE_TOOLS).facts).toContain(
      'Its agents may use shell, which run any command you could.',
    );
    const unticked = { op: { shell: { permission: 'deny' as const }, notify: { permission: 'allow' as const } } };
    const verdict = packageVerdict(grantedManifest(operator, unticked), APOLLIA_NATIVE_TOOLS);
    expect(verdict.facts.join(' ')).not.toContain('shell');
    expect(verdict.level).toBe('low');
    expect(grantedManifest(operator, unticked).agents?.[0]?.defaults?.access).toEqual(['notify']);
  });

  it('an agent with no decision is granted nothing, and one without defaults is left as it is', () => {
    const none = grantedManifest(operator, {});
    expect(none.agents?.[0]?.defaults?.access).toEqual([]);
    expect(none.agents?.[1]).toBe(operator.agents?.[1]);
  });
});
