/**
 * The policy's rules as every surface applies them: blocked-tool patterns, and the decision
 * function with a policy on top of the person's decisions (a blocked tool or trigger kind decided
 * off with reason `policy`, an answer asking for it refused, a kept decision still what the store
 * records so that lifting the block restores it).
 */
import { describe, expect, it } from 'vitest';
import type { ApolliaManifest } from '../manifests/apollia-manifest';
import { type ConsentAnswers, decide, type InstalledDecisions, permissionsOf } from '../decisions/decisions';
import type { DecisionInput } from '../decisions/decision-input';
import { permissionWords } from '../decisions/access-decisions';
import { effectivePermission, NO_POLICY, toolBlockedBy, toolPatternMatches, triggerKindAllowed } from './policy';

describe('blocked tools: exact names and patterns', () => {
  it.each([
    ['mcp:server/*', 'mcp:server/read', true],
    ['mcp:server/*', 'mcp:server/a/b', false],
    ['mcp:server/*', 'mcp:other/read', false],
    ['mcp:*/delete_*', 'mcp:files/delete_all', true],
    ['mcp:*/delete_*', 'mcp:files/remove', false],
    ['mcp:*/delete_*', 'mcp:a/b/delete_x', false],
    ['pkg:*/*', 'pkg:invoices/extract', true],
    ['pkg:*/*', 'workflow:invoices/remind', false],
    ['shell', 'shell', true],
    ['shell', 'shell2', false],
    ['*', 'notify', true],
    ['*', 'mcp:a/b', false],
    ['a*a', 'a', false],
  ])('%s against %s: %s', (pattern, tool, matches) => {
    expect(toolPatternMatches(pattern, tool)).toBe(matches);
  });

  it('a blocked family blocks every tool of it, and says so', () => {
    expect(
      toolBlockedBy({ ...NO_POLICY, blockedActionFamilies: ['send_external'] }, 'send_email', 'send_external'),
    ).toBe('your organization blocks tools that send things outside this computer');
    expect(toolBlockedBy(null, 'x', 'send_external')).toBeNull();
    expect(effectivePermission({ ...NO_POLICY, unattended: false }, 'notify', 'read', 'allow')).toBe('ask');
    expect(
      triggerKindAllowed({ ...NO_POLICY, triggers: { schedule: false, file_watch: true, webhook: true } }, 'interval'),
    ).toBe(false);
    expect(
      triggerKindAllowed({ ...NO_POLICY, triggers: { schedule: false, file_watch: true, webhook: true } }, 'at'),
    ).toBe(false);
  });
});

const manifest: ApolliaManifest = {
  package: { name: 'invoices', version: '1.0.0', publisher: 'Example Accounting', sdk: '>=0.3, <0.4' },
  agents: [{ id: 'clerk', name: 'Clerk', mission: 'm', defaults: { access: ['notify', 'mcp:ledger/lookup'] } }],
  triggers: [
    { id: 'daily', target: 'clerk', source: { type: 'cron', schedule: '0 8 * * *' } },
    { id: 'hook', target: 'clerk', source: { type: 'webhook' } },
  ],
};
const none: ConsentAnswers = { agents: {}, triggers: {} };
const input = (partial: Partial<DecisionInput>): DecisionInput => ({
  manifest,
  installed: null,
  trust: { verifiedPublisher: null },
  deniedTools: [],
  answers: none,
  ...partial,
});
const blockLookup = { ...NO_POLICY, blockedTools: ['mcp:*/lookup'] };

describe('decide under a policy', () => {
  it('a blocked tool is decided deny with reason policy on a first install, and stored so', () => {
    const decided = decide(input({ policy: blockLookup }));
    expect(decided.problems).toEqual([]);
    expect(decided.agents.clerk?.['mcp:ledger/lookup']).toMatchObject({
      permission: 'deny',
      reason: 'policy',
      stored: 'deny',
      policy: 'your organization blocks “mcp:*/lookup”',
    });
    expect(permissionWords(decided.agents.clerk?.['mcp:ledger/lookup'] as never)).toBe(
      'Not allowed: your organization blocks “mcp:*/lookup”',
    );
    expect(decided.agents.clerk?.notify).toMatchObject({ permission: 'allow', policy: null });
  });

  it('an answer granting a blocked tool is refused with policy.blocked_tool', () => {
    const decided = decide(
      input({
        policy: blockLookup,
        answers: { agents: { clerk: { access: { 'mcp:ledger/lookup': true } } }, triggers: {} },
      }),
    );
    expect(decided.problems.map((p) => p.code)).toEqual(['policy.blocked_tool']);
    expect(decided.problems[0]?.message).toContain(
      'your organization does not allow this; your administrator can change the policy',
    );
  });

  it('a kept grant is withheld while the policy blocks it but stays what the store records; lifted, it applies again', () => {
    const first = decide(input({}));
    const installed: InstalledDecisions = {
      manifest,
      access: permissionsOf(first),
      triggers: {
        daily: { armed: true, folder: null, secret: null },
        hook: { armed: false, folder: null, secret: null },
      },
    };
    const under = decide(input({ installed, policy: blockLookup }));
    expect(under.agents.clerk?.['mcp:ledger/lookup']).toMatchObject({
      permission: 'deny',
      reason: 'policy',
      stored: 'ask',
    });
    expect(permissionsOf(under).clerk?.['mcp:ledger/lookup']).toBe('ask');
    expect(decide(input({ installed })).agents.clerk?.['mcp:ledger/lookup']).toMatchObject({
      permission: 'ask',
      reason: 'kept',
    });
  });

  it('"runs without asking" is refused when the policy does not allow it, and a kept allow asks while it holds', () => {
    const noUnattended = { ...NO_POLICY, unattended: false };
    expect(decide(input({ policy: noUnattended })).agents.clerk?.notify).toMatchObject({
      permission: 'ask',
      canAllow: false,
      stored: 'ask',
    });
    expect(
      decide(
        input({
          policy: noUnattended,
          answers: { agents: { clerk: { access: { notify: 'allow' } } }, triggers: {} },
        }),
      ).problems.map((p) => p.code),
    ).toEqual(['policy.unattended']);
    const installed: InstalledDecisions = {
      manifest,
      access: { clerk: { notify: 'allow', 'mcp:ledger/lookup': 'ask' } },
      triggers: {},
    };
    expect(decide(input({ installed, policy: noUnattended })).agents.clerk?.notify).toMatchObject({
      permission: 'ask',
      reason: 'policy',
      stored: 'allow',
    });
  });

  it('a trigger kind the policy does not allow cannot be armed; one armed before is held, not dropped', () => {
    const noSchedules = { ...NO_POLICY, triggers: { schedule: false, file_watch: true, webhook: true } };
    const refused = decide(
      input({ policy: noSchedules, answers: { agents: {}, triggers: { daily: { armed: true } } } }),
    );
    expect(refused.problems.map((p) => p.code)).toEqual(['policy.trigger_kind']);
    const installed: InstalledDecisions = {
      manifest,
      access: { clerk: { notify: 'allow', 'mcp:ledger/lookup': 'ask' } },
      triggers: {
        daily: { armed: true, folder: null, secret: null },
        hook: { armed: true, folder: null, secret: 'made' },
      },
    };
    const held = decide(input({ installed, policy: noSchedules }));
    expect(held.problems).toEqual([]);
    expect(held.triggers.daily).toMatchObject({
      armed: false,
      held: true,
      policy: 'your organization does not allow scheduled triggers',
    });
    expect(held.triggers.hook).toMatchObject({
      armed: true,
      held: false,
      policy: null,
      secret: { kind: 'keep', origin: 'made' },
    });
  });
});
