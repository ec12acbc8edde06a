import { describe, expect, it } from 'vitest';
import type { ApolliaManifest } from '../../../shared/manifests/apollia-manifest';
import { type ConsentAnswers, decide, permissionsOf } from '../../../shared/decisions/decisions';
import type { SignatureSummary } from '../../../shared/manifests/inspection';
import { UNSIGNED } from '../../../shared/trust/trust';
import { installedDecisions } from '../store/records';
import { emptyState, type StoreState } from '../store/state';
import { applyInstallPlan, type InstallPlanInput, type InstallPrepared, planInstall } from './install-plan';

const v1: ApolliaManifest = {
  package: { name: 'invoices', version: '1.0.0', publisher: 'Example Accounting', sdk: '>=0.3, <0.4' },
  agents: [
    {
      id: 'clerk',
      name: 'Clerk',
      mission: 'm',
      defaults: { access: ['web_search', 'pkg:invoices/extract', 'workflow:invoices/remind'] },
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

const unsigned: SignatureSummary = UNSIGNED;
const signed: SignatureSummary = {
  ...unsigned,
  state: 'unknown_key',
  key_id: '0123456789ABCDEF',
  public_key: 'RWQBI0VniavN7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
};

const none: ConsentAnswers = { agents: {}, triggers: {} };
const noPreparation: InstallPrepared = {
  folders: new Map(),
  sealed: new Map(),
  webhookSecrets: [],
  webhookSecretsGiven: [],
};
/** What install prepares for arming `inbox` on /srv/inbox and `hook` with a secret made here. */
const armedInboxAndHook: InstallPrepared = {
  folders: new Map([['inbox', '/srv/inbox']]),
  sealed: new Map([['hook', { sealed: 'sealed-1', origin: 'made' as const, setAt: '2026-01-01T00:00:00.000Z' }]]),
  webhookSecrets: [{ triggerId: 'invoices/hook', secret: 'whsec_shown_once' }],
  webhookSecretsGiven: [],
};
const armAll: ConsentAnswers = {
  agents: {},
  triggers: {
    'first-monday': { armed: true },
    inbox: { armed: true, folderId: 'folder-1' },
    hook: { armed: true, webhookSecret: { kind: 'make' } },
  },
};

/** A plan's input, decided from `state` the way installOnce decides it (through the one decision function). */
function inputOf(
  state: StoreState,
  manifest: ApolliaManifest,
  answers: ConsentAnswers,
  partial: Partial<InstallPlanInput> = {},
): InstallPlanInput {
  const decisions = decide({
    manifest,
    installed: installedDecisions(state, manifest.package.name),
    trust: { verifiedPublisher: null },
    deniedTools: state.settings.deniedTools,
    answers,
  });
  expect(decisions.problems).toEqual([]);
  return {
    manifest,
    decisions,
    sha256: 'a'.repeat(64),
    dir: `packages/invoices/${manifest.package.version}`,
    signature: unsigned,
    files: { 'apollia.toml': 'b'.repeat(64) },
    prepared: noPreparation,
    acceptKeyChange: false,
    at: '2026-01-01T00:00:00.000Z',
    ...partial,
  };
}

/** The store after a first install of v1 with every trigger armed. */
function installedV1(): StoreState {
  const state = emptyState();
  applyInstallPlan(state, planInstall(state, inputOf(state, v1, armAll, { prepared: armedInboxAndHook })));
  return state;
}

describe('planInstall: a first install', () => {
  it('plans the agents with the access decided, every trigger unarmed, the pin, and one install event; the state is only read', () => {
    const state = emptyState();
    const before = structuredClone(state);
    const input = inputOf(state, v1, none);
    const plan = planInstall(state, input);
    expect(state).toEqual(before);
    expect(plan.agents.map((a) => a.id)).toEqual(['invoices/clerk']);
    const permissions = permissionsOf(input.decisions).clerk ?? {};
    expect(Object.fromEntries(plan.agents[0]?.access.map((a) => [a.entry, a.permission]) ?? [])).toEqual(permissions);
    expect(plan.triggers.map((t) => [t.id, t.armed])).toEqual([
      ['invoices/first-monday', false],
      ['invoices/inbox', false],
      ['invoices/hook', false],
    ]);
    expect(plan.trust.pin).toEqual({ kind: 'unsigned' });
    expect(plan.pkg).toMatchObject({
      name: 'invoices',
      version: '1.0.0',
      dir: 'packages/invoices/1.0.0',
      updatedAt: null,
    });
    expect(plan.receipt).toMatchObject({ outcome: 'installed', previousVersion: null, armed: [], keyChange: null });
    expect(plan.oldDir).toBeNull();
    expect(plan.events).toEqual([
      {
        kind: 'install',
        package: 'invoices',
        outcome: 'ok',
        detail: 'installed invoices 1.0.0 from Example Accounting — Unverified publisher',
      },
      {
        kind: 'grant',
        package: 'invoices',
        agent: 'invoices/clerk',
        outcome: 'ok',
        detail:
          'at the install of 1.0.0: allowed web_search, its tool “extract”, its workflow “remind”; withheld nothing',
      },
    ]);
  });

  it('arms what the person armed, with the folder picked and the secret made, and says each armed trigger once', () => {
    const state = emptyState();
    const plan = planInstall(state, inputOf(state, v1, armAll, { prepared: armedInboxAndHook }));
    const inbox = plan.triggers.find((t) => t.name === 'inbox');
    expect(inbox).toMatchObject({ armed: true, armedAt: '2026-01-01T00:00:00.000Z', folder: '/srv/inbox' });
    expect(plan.newSecrets).toEqual([{ triggerId: 'invoices/hook', secret: armedInboxAndHook.sealed.get('hook') }]);
    expect(plan.receipt.armed).toEqual(['invoices/first-monday', 'invoices/inbox', 'invoices/hook']);
    expect(plan.receipt.webhookSecrets).toEqual(armedInboxAndHook.webhookSecrets);
    expect(plan.events.map((e) => [e.kind, e.trigger ?? null, e.detail])).toEqual([
      ['install', null, 'installed invoices 1.0.0 from Example Accounting — Unverified publisher'],
      ['arm', 'invoices/first-monday', 'armed: runs on its schedule'],
      ['arm', 'invoices/inbox', 'armed: watches /srv/inbox'],
      ['arm', 'invoices/hook', 'armed: webhook, a new signing secret was made'],
      [
        'grant',
        null,
        'at the install of 1.0.0: allowed web_search, its tool “extract”, its workflow “remind”; withheld nothing',
      ],
    ]);
  });

  it('refuses a secret the decision asks for that was not made before the lock: nothing is planned', () => {
    const state = emptyState();
    expect(() => planInstall(state, inputOf(state, v1, armAll))).toThrow(
      expect.objectContaining({ code: 'store.changed' }),
    );
  });
});

describe('applyInstallPlan', () => {
  it('writes the plan: records, the pin, and the made secret sealed under the trigger', () => {
    const state = installedV1();
    expect(Object.keys(state.agents)).toEqual(['invoices/clerk']);
    expect(state.packages.invoices?.version).toBe('1.0.0');
    expect(state.packageTrust.invoices?.files).toEqual({ 'apollia.toml': 'b'.repeat(64) });
    const hook = state.triggers['invoices/hook'];
    expect(hook?.secretOrigin).toBe('made');
    expect(hook?.secretRef && state.webhookSecrets[hook.secretRef]).toBe('sealed-1');
  });
});

describe('planInstall: an update', () => {
  it('says a publisher name’s change in the update entry, and what each agent may use now', () => {
    const state = installedV1();
    const renamed: ApolliaManifest = { ...v2, package: { ...v2.package, publisher: 'Exampel Accounting Ltd' } };
    const plan = planInstall(state, inputOf(state, renamed, none, { at: '2026-02-01T00:00:00.000Z' }));
    expect(plan.events.find((e) => e.kind === 'update')?.detail).toBe(
      'updated invoices from 1.0.0 to 1.1.0 — Unverified publisher; the publisher\'s name changed from "Example Accounting" to "Exampel Accounting Ltd", a name that passes for the old one',
    );
    const other: ApolliaManifest = { ...v2, package: { ...v2.package, publisher: 'Other Bookkeeping' } };
    expect(
      planInstall(state, inputOf(state, other, none, { at: '2026-02-01T00:00:00.000Z' })).events.find(
        (e) => e.kind === 'update',
      )?.detail,
    ).toBe(
      'updated invoices from 1.0.0 to 1.1.0 — Unverified publisher; the publisher\'s name changed from "Example Accounting" to "Other Bookkeeping"',
    );
    expect(plan.events.find((e) => e.kind === 'grant')).toMatchObject({
      agent: 'invoices/clerk',
      detail: expect.stringMatching(/^at the update of 1\.1\.0: allowed .+; withheld /),
    });
  });

  it('keeps the armed triggers, their time, folder and secret, and the agent’s creation time; only an update event', () => {
    const state = installedV1();
    const hookBefore = state.triggers['invoices/hook'];
    const plan = planInstall(state, inputOf(state, v2, none, { at: '2026-02-01T00:00:00.000Z' }));
    expect(plan.removedTriggers).toEqual(['invoices/first-monday', 'invoices/inbox', 'invoices/hook']);
    expect(plan.triggers.map((t) => [t.name, t.armed, t.armedAt])).toEqual([
      ['first-monday', true, '2026-01-01T00:00:00.000Z'],
      ['inbox', true, '2026-01-01T00:00:00.000Z'],
      ['hook', true, '2026-01-01T00:00:00.000Z'],
    ]);
    expect(plan.triggers.find((t) => t.name === 'inbox')?.folder).toBe('/srv/inbox');
    expect(plan.triggers.find((t) => t.name === 'hook')?.secretRef).toBe(hookBefore?.secretRef);
    expect(plan.newSecrets).toEqual([]);
    expect(plan.droppedSecrets).toEqual([]);
    expect(plan.agents[0]?.createdAt).toBe('2026-01-01T00:00:00.000Z');
    expect(plan.pkg).toMatchObject({ installedAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-02-01T00:00:00.000Z' });
    expect(plan.receipt).toMatchObject({ outcome: 'updated', previousVersion: '1.0.0', armed: plan.receipt.armed });
    expect(plan.receipt.armed).toHaveLength(3);
    expect(plan.oldDir).toBe('packages/invoices/1.0.0');
    expect(plan.events).toEqual([
      {
        kind: 'update',
        package: 'invoices',
        outcome: 'ok',
        detail: 'updated invoices from 1.0.0 to 1.1.0 — Unverified publisher',
      },
      {
        kind: 'grant',
        package: 'invoices',
        agent: 'invoices/clerk',
        outcome: 'ok',
        detail:
          'at the update of 1.1.0: allowed web_search, its tool “extract”, its workflow “remind”; withheld nothing',
      },
    ]);
  });

  it('turns off a trigger that changed, says so in a disarm event, and drops the secret of a trigger gone', () => {
    const state = installedV1();
    const hookRef = state.triggers['invoices/hook']?.secretRef;
    const v3: ApolliaManifest = {
      ...v2,
      triggers: [
        { id: 'first-monday', target: 'remind', source: { type: 'cron', schedule: '0 9 1-7 * MON' } },
        { id: 'inbox', target: 'clerk', source: { type: 'file_watch' } },
      ],
    };
    const plan = planInstall(state, inputOf(state, v3, none));
    expect(plan.triggers.map((t) => [t.name, t.armed])).toEqual([
      ['first-monday', false],
      ['inbox', true],
    ]);
    expect(plan.turnedOff).toEqual([
      { id: 'invoices/first-monday', agentId: null, why: expect.stringContaining('it changed in this version') },
    ]);
    expect(plan.droppedSecrets).toEqual([hookRef]);
    expect(plan.events.map((e) => [e.kind, e.trigger ?? null])).toEqual([
      ['update', null],
      ['disarm', 'invoices/first-monday'],
      ['grant', null],
    ]);
    expect(plan.events[1]?.detail).toMatch(/^turned off by the update to 1\.1\.0: it changed in this version/);
    applyInstallPlan(state, plan);
    expect(hookRef && Object.hasOwn(state.webhookSecrets, hookRef)).toBe(false);
    expect(Object.keys(state.triggers)).toEqual(['invoices/first-monday', 'invoices/inbox']);
  });

  it('calls an older version a downgrade, in the receipt and the event', () => {
    const state = emptyState();
    applyInstallPlan(state, planInstall(state, inputOf(state, v2, none)));
    const plan = planInstall(state, inputOf(state, v1, none));
    expect(plan.receipt.outcome).toBe('downgraded');
    expect(plan.events[0]?.detail).toBe('downgraded invoices from 1.1.0 to 1.0.0 — Unverified publisher');
  });
});

describe('planInstall: refusals and a reinstall', () => {
  it('refuses the same version again, and puts it back once its files changed on this computer', () => {
    const state = installedV1();
    expect(() => planInstall(state, inputOf(state, v1, none))).toThrow(
      expect.objectContaining({ code: 'install.already_installed' }),
    );
    const trust = state.packageTrust.invoices;
    if (trust) trust.integrity.state = 'changed';
    const plan = planInstall(state, inputOf(state, v1, none));
    expect(plan.receipt.outcome).toBe('reinstalled');
    expect(plan.trust.integrity.state).toBe('ok');
  });

  it('refuses a key change the person did not accept; accepted, the new key is pinned and the change recorded first', () => {
    const state = emptyState();
    applyInstallPlan(state, planInstall(state, inputOf(state, v1, none, { signature: signed })));
    expect(state.packageTrust.invoices?.pin).toMatchObject({ kind: 'key', keyId: signed.key_id });
    expect(() => planInstall(state, inputOf(state, v2, none))).toThrow(
      expect.objectContaining({ code: 'signature.key_changed' }),
    );
    const plan = planInstall(state, inputOf(state, v2, none, { acceptKeyChange: true }));
    expect(plan.trust.pin).toEqual({ kind: 'unsigned' });
    expect(plan.receipt.keyChange?.kind).toBe('changed');
    expect(plan.events.map((e) => e.kind)).toEqual(['key_change_accepted', 'update', 'grant']);
  });
});
