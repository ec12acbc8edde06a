import { describe, expect, it } from 'vitest';
import type { ApolliaManifest } from '../manifests/apollia-manifest';
import { type ConsentAnswers, decide, type InstalledDecisions, permissionsOf } from './decisions';
import { type DecisionInput, decisionTrust } from './decision-input';
import { permissionWords } from './access-decisions';

const v1: ApolliaManifest = {
  package: { name: 'invoices', version: '1.0.0', publisher: 'Example Accounting', sdk: '>=0.3, <0.4' },
  agents: [
    {
      id: 'clerk',
      name: 'Clerk',
      mission: 'm',
      defaults: {
        access: ['notify', 'file_read', 'pkg:invoices/extract', 'workflow:invoices/remind', 'mcp:ledger/lookup'],
      },
    },
  ],
  tools: [{ name: 'extract', module: 'tools/extract.py', description: 'd', action: 'read' }],
  workflows: [{ name: 'remind', module: 'w.py', description: 'd', action: 'send_external' }],
  triggers: [
    { id: 'first-monday', target: 'remind', source: { type: 'cron', schedule: '0 8 1-7 * MON' } },
    { id: 'inbox', target: 'clerk', source: { type: 'file_watch' } },
    { id: 'hook', target: 'clerk', source: { type: 'webhook' } },
  ],
};
const v2: ApolliaManifest = { ...v1, package: { ...v1.package, version: '1.1.0' } };
const none: ConsentAnswers = { agents: {}, triggers: {} };
const unsigned = { verifiedPublisher: null };
const verified = { verifiedPublisher: 'Example Accounting' };

function input(partial: Partial<DecisionInput>): DecisionInput {
  return { manifest: v1, installed: null, trust: unsigned, deniedTools: [], answers: none, ...partial };
}

/** What a first install with these answers stored, as the store gives it back. */
function installedFrom(
  manifest: ApolliaManifest,
  decided: ReturnType<typeof decide>,
  folders: Record<string, string> = {},
  secrets: Record<string, 'made' | 'given'> = {},
): InstalledDecisions {
  const triggers: InstalledDecisions['triggers'] = {};
  for (const [id, t] of Object.entries(decided.triggers))
    triggers[id] = {
      armed: t.armed,
      folder: t.armed ? (folders[id] ?? null) : null,
      secret: t.armed ? (secrets[id] ?? null) : null,
    };
  return { manifest, access: permissionsOf(decided), triggers };
}

describe('decide: a first install', () => {
  it('a built-in tool that sends what it looks up outside asks by default; the person may let it run unasked', () => {
    const web: ApolliaManifest = {
      ...v1,
      agents: [
        { id: 'clerk', name: 'Clerk', mission: 'm', defaults: { access: ['web_search', 'web_fetch', 'notify'] } },
      ],
    };
    const decided = decide(input({ manifest: web }));
    expect(decided.agents.clerk?.web_search).toMatchObject({
      permission: 'ask',
      reason: 'sends_outside',
      canAllow: true,
    });
    expect(decided.agents.clerk?.web_fetch).toMatchObject({ permission: 'ask', reason: 'sends_outside' });
    expect(decided.agents.clerk?.notify).toMatchObject({ permission: 'allow', reason: 'reads' });
    const chosen = decide(
      input({ manifest: web, answers: { agents: { clerk: { access: { web_search: 'allow' } } }, triggers: {} } }),
    );
    expect(chosen.agents.clerk?.web_search).toMatchObject({ permission: 'allow', reason: 'answer' });
    // An agent installed before keeps what it has: an update never turns its choice into asking.
    const installed = { manifest: web, access: { clerk: { web_search: 'allow' as const } }, triggers: {} };
    const update = decide(input({ manifest: { ...web, package: { ...web.package, version: '1.1.0' } }, installed }));
    expect(update.agents.clerk?.web_search).toMatchObject({ permission: 'allow', reason: 'kept' });
  });

  it('proposes every offered entry granted and arms nothing; a read the app knows runs unasked, package code and unknown tools ask', () => {
    const decided = decide(input({}));
    expect(decided.problems).toEqual([]);
    expect(permissionsOf(decided)).toEqual({
      clerk: {
        notify: 'allow',
        file_read: 'ask',
        'pkg:invoices/extract': 'ask',
        'workflow:invoices/remind': 'ask',
        'mcp:ledger/lookup': 'ask',
      },
    });
    expect(decided.agents.clerk?.['pkg:invoices/extract']?.reason).toBe('package_code');
    expect(decided.agents.clerk?.['mcp:ledger/lookup']?.reason).toBe('unknown_family');
    expect(Object.values(decided.triggers).map((t) => t.armed)).toEqual([false, false, false]);
    expect(permissionWords(decided.agents.clerk?.['pkg:invoices/extract'] as never)).toBe(
      "Asks you first: the package's own code, and only its author says it only reads",
    );
  });

  it('only a publisher key the person trusts lets a package tool declaring read run unasked, and says so', () => {
    const decided = decide(input({ trust: verified }));
    expect(decided.agents.clerk?.['pkg:invoices/extract']).toMatchObject({
      permission: 'allow',
      reason: 'verified_reads',
    });
    expect(permissionWords(decided.agents.clerk?.['pkg:invoices/extract'] as never)).toBe(
      'Runs without asking: its verified publisher says it only reads',
    );
    // A sensitive workflow asks whoever signed it.
    expect(decided.agents.clerk?.['workflow:invoices/remind']?.permission).toBe('ask');
    // An unknown key or no signature is not trust.
    expect(decisionTrust({ state: 'unknown_key', signer: null, key_id: 'ABC' })).toEqual(unsigned);
    expect(decisionTrust({ state: 'verified', signer: 'Example Accounting', key_id: 'ABC' })).toEqual(verified);
  });

  it("takes the person's answers: withhold, an explicit 'runs without asking' (off by default), an explicit 'asks first'", () => {
    const answers: ConsentAnswers = {
      agents: {
        clerk: {
          access: {
            file_read: false,
            'pkg:invoices/extract': 'allow',
            'mcp:ledger/lookup': 'allow',
            notify: 'ask',
          },
        },
      },
      triggers: {},
    };
    const decided = decide(input({ answers }));
    expect(decided.problems).toEqual([]);
    expect(permissionsOf(decided).clerk).toEqual({
      notify: 'ask',
      file_read: 'deny',
      'pkg:invoices/extract': 'allow',
      'workflow:invoices/remind': 'ask',
      'mcp:ledger/lookup': 'allow',
    });
  });

  it('refuses "runs without asking" for a sensitive family, answers about what is not offered, and grants of a tool the owner never allows', () => {
    const problems = decide(
      input({
        deniedTools: ['notify'],
        answers: {
          agents: {
            clerk: { access: { 'workflow:invoices/remind': 'allow', shell: true, notify: true } },
            ghost: { access: {} },
          },
          triggers: {
            nope: { armed: true },
            'first-monday': { armed: true, folderId: 'f1' },
            inbox: { armed: false, webhookSecret: { kind: 'make' } },
          },
        },
      }),
    ).problems.map((p) => p.code);
    expect(problems.sort()).toEqual(
      [
        'install.cannot_allow',
        'install.denied_tool',
        'install.unknown_access',
        'install.unknown_agent',
        'install.unknown_trigger',
        'trigger.folder_not_needed',
        'trigger.secret_not_needed',
        'trigger.secret_not_needed',
      ].sort(),
    );
  });

  it('leaves a tool the owner never allows ungranted by default, and arms a watched folder only with a folder', () => {
    const decided = decide(
      input({ deniedTools: ['notify'], answers: { agents: {}, triggers: { inbox: { armed: true } } } }),
    );
    expect(decided.agents.clerk?.notify).toMatchObject({
      permission: 'deny',
      reason: 'denied_by_owner',
      ownerDenied: true,
    });
    expect(decided.problems.map((p) => p.code)).toEqual(['trigger.needs_folder']);
  });

  it('arms a webhook with a secret made here unless the sender gave one', () => {
    expect(
      decide(input({ answers: { agents: {}, triggers: { hook: { armed: true } } } })).triggers.hook?.secret,
    ).toEqual({ kind: 'new', choice: { kind: 'make' } });
    const given = { kind: 'given' as const, secret: 'whsec_x' };
    expect(
      decide(input({ answers: { agents: {}, triggers: { hook: { armed: true, webhookSecret: given } } } })).triggers
        .hook?.secret,
    ).toEqual({ kind: 'new', choice: given });
  });
});

describe('decide: an update', () => {
  const first = decide(
    input({
      trust: verified,
      answers: {
        agents: { clerk: { access: { file_read: false, 'mcp:ledger/lookup': 'allow' } } },
        triggers: { 'first-monday': { armed: true }, inbox: { armed: true, folderId: 'f1' }, hook: { armed: true } },
      },
    }),
  );
  const installed = installedFrom(v1, first, { inbox: '/home/me/Invoices' }, { hook: 'given' });

  it('untouched, keeps every grant, withholding and choice, and every armed trigger with its folder and secret', () => {
    const decided = decide(input({ manifest: v2, installed, trust: unsigned }));
    expect(decided.problems).toEqual([]);
    // The package is unsigned now, yet what the person decided (with a trusted signature) is kept, never changed
    // silently.
    expect(permissionsOf(decided)).toEqual(permissionsOf(first));
    expect(Object.values(decided.agents.clerk ?? {}).every((d) => d.reason === 'kept')).toBe(true);
    expect(decided.triggers['first-monday']).toMatchObject({ armed: true, status: 'unchanged', turnedOff: null });
    expect(decided.triggers.inbox).toMatchObject({ armed: true, folder: { kind: 'keep', shown: '/home/me/Invoices' } });
    expect(decided.triggers.hook).toMatchObject({ armed: true, secret: { kind: 'keep', origin: 'given' } });
  });

  it('asks again for a new entry and for one whose family changed: not granted until ticked', () => {
    const after: ApolliaManifest = {
      ...v2,
      agents: [
        {
          id: 'clerk',
          name: 'Clerk',
          mission: 'm',
          defaults: { access: [...(v1.agents?.[0]?.defaults?.access ?? []), 'shell'] },
        },
      ],
      tools: [{ name: 'extract', module: 'tools/extract.py', description: 'd', action: 'write_or_delete' }],
    };
    const decided = decide(input({ manifest: after, installed, trust: verified }));
    expect(decided.agents.clerk?.shell).toMatchObject({ permission: 'deny', reason: 'new', asked: 'new' });
    expect(decided.agents.clerk?.['pkg:invoices/extract']).toMatchObject({
      permission: 'deny',
      reason: 'family_changed',
    });
    expect(decided.agents.clerk?.notify).toMatchObject({ permission: 'allow', reason: 'kept' });
    const ticked = decide(
      input({
        manifest: after,
        installed,
        trust: verified,
        answers: { agents: { clerk: { access: { shell: true } } }, triggers: {} },
      }),
    );
    expect(ticked.agents.clerk?.shell?.permission).toBe('ask');
  });

  it('turns off an armed trigger whose schedule changed, saying old → new in words; a new trigger stays off', () => {
    const after: ApolliaManifest = {
      ...v2,
      triggers: [
        { id: 'first-monday', target: 'remind', source: { type: 'interval', every: '10m' } },
        ...(v1.triggers ?? []).slice(1),
        { id: 'nightly', target: 'clerk', source: { type: 'cron', schedule: '0 2 * * *' } },
      ],
    };
    const decided = decide(input({ manifest: after, installed }));
    const changed = decided.triggers['first-monday'];
    expect(changed).toMatchObject({ armed: false, status: 'changed' });
    expect(changed?.change).toEqual({
      from: 'at 08:00, on the first Monday of each month (UTC), starting remind',
      to: 'every 10 minutes, starting remind',
    });
    expect(changed?.turnedOff).toBe(
      'it changed in this version (at 08:00, on the first Monday of each month (UTC), starting remind → every 10 minutes, starting remind)',
    );
    expect(decided.triggers.nightly).toMatchObject({ armed: false, status: 'new', turnedOff: null });
    expect(decided.triggers.inbox?.armed).toBe(true);
  });

  it('replaces a secret or a folder only when the answer asks; disarms only when asked', () => {
    const kept = decide(
      input({
        manifest: v2,
        installed,
        answers: { agents: {}, triggers: { hook: { armed: true }, inbox: { armed: true } } },
      }),
    );
    expect(kept.triggers.hook?.secret).toEqual({ kind: 'keep', origin: 'given' });
    expect(kept.triggers.inbox?.folder).toEqual({ kind: 'keep', shown: '/home/me/Invoices' });
    const replaced = decide(
      input({
        manifest: v2,
        installed,
        answers: { agents: {}, triggers: { hook: { armed: true, webhookSecret: { kind: 'make' } } } },
      }),
    );
    expect(replaced.triggers.hook?.secret).toEqual({ kind: 'new', choice: { kind: 'make' } });
    const off = decide(
      input({ manifest: v2, installed, answers: { agents: {}, triggers: { hook: { armed: false } } } }),
    );
    expect(off.triggers.hook).toMatchObject({ armed: false, secret: null, turnedOff: null });
  });

  it('withdraws a kept grant of a tool the owner has since denied', () => {
    const decided = decide(input({ manifest: v2, installed, deniedTools: ['notify'] }));
    expect(decided.agents.clerk?.notify).toMatchObject({ permission: 'deny', reason: 'denied_by_owner' });
  });

  it('a same-version reinstall keeps everything, and an agent offered twice the same entry is decided once', () => {
    const decided = decide(input({ manifest: v1, installed }));
    expect(permissionsOf(decided)).toEqual(permissionsOf(first));
  });
});
