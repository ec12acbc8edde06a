/**
 * The store's records are their schema's static types (`format-9.ts`: format 5's, the feeds', the record's commit, the person's pause, the
 * person's collector), and they are the shapes the
 * rest of the app gives them: the type checks fail `npm run typecheck` when a record and the shared
 * type it stores drift; the value checks fail here when the loaded file's check stops matching them.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { SavedMcpServer, StoreDamage, TriggerView } from '../../../../shared/contract/api';
import type { ToolSetting } from '../../../../shared/decisions/apply-context';
import type { AccessDecision } from '../../../../shared/decisions/consent';
import { type KeyPin, MAX_TRUSTED_KEYS, type TrustedKey } from '../../../../shared/trust/trust';
import type { WebhookSecretOrigin } from '../../../../shared/triggers/webhook-secret';
import { emptyState, migrateState, stateProblem } from '../state';
import { STATE_SCHEMA, type StoreState } from './format-9';
import { STATE_VERSION } from './state-version';

/** An armed schedule trigger of package `a`, as format 8 and 9 keep it. */
function trigger(fields: Partial<StoreState['triggers'][string]> = {}): StoreState['triggers'][string] {
  return {
    id: 'a/t',
    name: 't',
    packageName: 'a',
    agentId: null,
    target: 'w',
    input: null,
    type: 'cron',
    schedule: '0 8 * * 1',
    every: null,
    timezone: null,
    at: null,
    recursive: null,
    events: null,
    maxConcurrent: null,
    dayRule: 'or',
    armed: true,
    armedAt: '2026-12-01T00:00:00.000Z',
    folder: null,
    secretRef: null,
    secretOrigin: null,
    secretSetAt: null,
    pausedAt: null,
    ...fields,
  };
}

describe('store format 9: one schema gives the records and the check on load', () => {
  it('types each record as the app uses it', () => {
    expectTypeOf<StoreState['version']>().toEqualTypeOf<typeof STATE_VERSION>();
    expectTypeOf<StoreState['trustedKeys'][number]>().toEqualTypeOf<TrustedKey>();
    expectTypeOf<StoreState['packageTrust'][string]['pin']>().toEqualTypeOf<KeyPin>();
    expectTypeOf<StoreState['damage'][number]>().toEqualTypeOf<StoreDamage>();
    expectTypeOf<StoreState['settings']['mcpServers'][string]>().branded.toEqualTypeOf<
      // A server's environment is only ever inside `sealed`.
      Omit<SavedMcpServer, 'env'> & { sealed: string | null }
    >();
    type PackageAgent = Extract<StoreState['agents'][string], { origin: 'package' }>;
    type TemplateAgent = Extract<StoreState['agents'][string], { origin: 'template' }>;
    expectTypeOf<PackageAgent['access'][number]>().toEqualTypeOf<AccessDecision>();
    expectTypeOf<TemplateAgent['toolSettings'][string]['setting']>().toEqualTypeOf<ToolSetting>();
    expectTypeOf<StoreState['triggers'][string]['type']>().toEqualTypeOf<TriggerView['type']>();
    expectTypeOf<StoreState['triggers'][string]['secretOrigin']>().toEqualTypeOf<WebhookSecretOrigin | null>();
  });

  it('checks the version and the trusted keys as the constants say', () => {
    expect((STATE_SCHEMA.properties.version as unknown as { const: number }).const).toBe(STATE_VERSION);
    expect((STATE_SCHEMA.properties.trustedKeys as unknown as { maxItems: number }).maxItems).toBe(MAX_TRUSTED_KEYS);
    const key = (i: number) => ({ keyId: `K${i}`, publicKey: 'RW', name: `n${i}`, addedAt: '2026-01-01T00:00:00Z' });
    const withKeys = (count: number) => ({
      ...emptyState(),
      trustedKeys: Array.from({ length: count }, (_, i) => key(i)),
    });
    expect(stateProblem(withKeys(MAX_TRUSTED_KEYS))).toBeNull();
    expect(stateProblem(withKeys(MAX_TRUSTED_KEYS + 1))).toMatch(/trustedKeys/);
  });

  it('refuses a record with a key it does not know, and one of another format', () => {
    expect(stateProblem(emptyState())).toBeNull();
    expect(stateProblem({ ...emptyState(), version: STATE_VERSION + 1 })).not.toBeNull();
    const state = emptyState();
    expect(stateProblem({ ...state, settings: { ...state.settings, extra: true } })).toMatch(/settings/);
  });

  it('migrates a format 8 file to format 9 with no collector named by the person; a collector is checked', () => {
    const { activityCollector: _collector, ...format8Settings } = emptyState().settings;
    const format8 = { ...emptyState(), version: 8, settings: format8Settings };
    expect(stateProblem(format8)).not.toBeNull();
    const migrated = migrateState(format8);
    expect(migrated).toEqual(emptyState());
    expect((migrated as StoreState).settings.activityCollector).toBeNull();
    expect(stateProblem(migrated)).toBeNull();
    const named = {
      ...emptyState(),
      settings: { ...emptyState().settings, activityCollector: 'https://c.example/v1/logs' },
    };
    expect(stateProblem(named)).toBeNull();
    expect(
      stateProblem({ ...named, settings: { ...named.settings, activityCollector: 3 as unknown as null } }),
    ).toMatch(/activityCollector/);
    expect(stateProblem({ ...named, settings: { ...named.settings, activityCollector: '' } })).toMatch(
      /activityCollector/,
    );
    expect(migrateState({ ...format8, version: 9 })).toEqual({ ...format8, version: 9 });
  });

  it('migrates a format 7 file to format 9: every trigger not paused by the person; a pause is checked', () => {
    const armed = { ...emptyState().triggers, 'a/t': trigger() };
    const { pausedAt: _paused, ...format7Trigger } = trigger();
    const format7 = { ...emptyState(), version: 7, triggers: { 'a/t': format7Trigger } };
    expect(stateProblem(format7)).not.toBeNull();
    const migrated = migrateState(format7);
    expect(migrated).toEqual({ ...emptyState(), triggers: armed });
    expect(stateProblem(migrated)).toBeNull();
    const paused = { ...emptyState(), triggers: { 'a/t': trigger({ pausedAt: '2026-12-01T10:00:00.000Z' }) } };
    expect(stateProblem(paused)).toBeNull();
    expect(stateProblem({ ...emptyState(), triggers: { 'a/t': trigger({ pausedAt: 3 as unknown as null }) } })).toMatch(
      /pausedAt/,
    );
  });

  it('migrates a format 5 file to format 9 with no feed followed, and checks the feeds records', () => {
    const { feeds: _feeds, packageUpdates: _updates, record: _record, ...format5 } = { ...emptyState(), version: 5 };
    expect(stateProblem(format5)).not.toBeNull();
    const migrated = migrateState(format5);
    expect(migrated).toEqual(emptyState());
    expect(stateProblem(migrated)).toBeNull();
    const kept = {
      version: '1.0.0',
      archive: 'archives/a/1.0.0.apo',
      sha256: 'ab',
      size: 1,
      keyId: 'K',
      publicKey: 'RW',
    };
    const state = emptyState();
    const followed = {
      ...state,
      feeds: {
        'https://e.example/feed.json': {
          url: 'https://e.example/feed.json',
          addedAt: 'now',
          highestSerial: 3,
          lastCheckedAt: null,
          lastProblem: null,
          publisher: null,
        },
      },
      packageUpdates: { a: { feed: 'https://e.example/feed.json', mode: 'auto', current: kept, previous: null } },
    };
    expect(stateProblem(followed)).toBeNull();
    expect(
      stateProblem({ ...followed, packageUpdates: { a: { ...followed.packageUpdates.a, mode: 'sometimes' } } }),
    ).toMatch(/mode/);
  });

  it('migrates a format 6 file to format 9 with no committed head (and no trigger paused), and checks the record commit', () => {
    const { record: _record, ...format6 } = { ...emptyState(), version: 6 };
    expect(stateProblem(format6)).not.toBeNull();
    const migrated = migrateState(format6);
    expect(migrated).toEqual(emptyState());
    expect((migrated as StoreState).record).toBeNull();
    const head = { count: 2, last: 'a'.repeat(64) };
    const committed = { ...emptyState(), record: { head, seal: 'b'.repeat(64), outbox: ['{"seq":2}'] } };
    expect(stateProblem(committed)).toBeNull();
    expect(
      stateProblem({ ...committed, record: { ...committed.record, head: { count: -1, last: head.last } } }),
    ).toMatch(/record/);
    expect(stateProblem({ ...committed, record: { ...committed.record, seal: 'not hex' } })).toMatch(/record/);
    expect(stateProblem({ ...committed, record: { ...committed.record, extra: 1 } })).toMatch(/record/);
  });
});
