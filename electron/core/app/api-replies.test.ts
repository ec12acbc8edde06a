/**
 * The replies defined once with their schemas (shared/contract/api-replies.ts) are what the core answers:
 * each live answer of a real install, arm, rotate, disarm, uninstall, the dashboard, the settings
 * and the status calls, the trusted keys, the integrity check and the waiting runs meets its
 * method's schema, closed (a field the type does not declare fails), so the reply, its type and its
 * schema cannot drift apart. Inspections are checked with every part set: a signed first install, a
 * signed update that changes what it asks (its diff, the decisions it starts from, the key kept), a
 * key change and a dropped signature; and the policy in force (two files) and an unreadable one, as
 * `inspect`, the dashboard and the settings carry it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiResult, SourceInspection } from '../../../shared/contract/api';
import { API_REPLY_SCHEMAS, type ApiRepliedMethod } from '../../../shared/contract/api-replies';
import { ApoSummarySchema } from '../../../shared/manifests/inspection-schema';
import { describeWithMinisign, minisignSign } from '../../../test/helpers/minisign-tool';
import { packFolder } from '../../../test/helpers/pack';
import { installedFirst, invoicesFile, storyKit, TRUSTED_AS } from '../../../test/helpers/signature-stories';
import { writeTemplate } from '../../../test/helpers/template-folders';
import { tempDir, testApi } from '../../../test/helpers/test-api';
import { sharedChecker } from '../bounded/index';
import { validateManifest } from '../generated/manifest-validator';
import { MANIFEST_FORMATS } from '../apollia/manifest-formats';
import { writeRunRequest } from '../triggers/run-requests';

const WATCHER_DIR = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;
const HOOK = 'watcher/on-call';
/** A minisign public key line (any valid one: these calls only read and list it). */
const KEY = 'RWRBgZL74n41JgKbQmMI+1Gbf3SZpb2EfPkEa8AYcHig+gTecGl5Wa95';

const ajv = new Ajv2020({ allErrors: true, strict: false });
// The manifest's own formats, as the compiled manifest validator checks them (never "unknown format … ignored").
for (const [name, check] of Object.entries(MANIFEST_FORMATS)) ajv.addFormat(name, check);
const validators = new Map(Object.entries(API_REPLY_SCHEMAS).map(([method, schema]) => [method, ajv.compile(schema)]));

/** The answer's value, after checking it against its method's reply schema. */
function checked<T>(method: ApiRepliedMethod, result: ApiResult<T>): T {
  if (!result.ok) throw new Error(`${method}: ${result.error.code} ${result.error.message}`);
  const validate = validators.get(method);
  if (!validate) throw new Error(`${method} has no reply schema`);
  expect(validate(result.value) ? [] : validate.errors, `${method}'s answer meets its schema`).toEqual([]);
  return result.value;
}

const apoSummary = ajv.compile(ApoSummarySchema);

/**
 * An inspection, checked against `inspect`'s schema; an `.apo`'s summary also against `ApoSummarySchema`, and every
 * manifest it carries (its details', the installed version's) against the manifest's own strict schema.
 */
function inspected(result: ApiResult<SourceInspection>): SourceInspection {
  const inspection = checked('inspect', result);
  if (inspection.kind === 'apo' && inspection.summary !== null)
    expect(apoSummary(inspection.summary) ? [] : apoSummary.errors, 'the summary meets ApoSummarySchema').toEqual([]);
  const manifests = [
    inspection.kind === 'apo' ? (inspection.details as { manifest?: unknown } | null)?.manifest : undefined,
    inspection.installedDecisions?.manifest,
  ].filter((manifest) => manifest !== undefined);
  for (const manifest of manifests)
    expect(validateManifest(manifest) ? [] : validateManifest.errors, 'a manifest meets its schema').toEqual([]);
  return inspection;
}

describe('Api replies meet their schemas', () => {
  it('install, arm, rotate, disarm, uninstall and the status calls', async () => {
    const { api } = testApi();
    checked('appInfo', await api.appInfo());
    expect(checked('listBuiltinTemplates', await api.listBuiltinTemplates()).length).toBeGreaterThan(0);
    checked('startAtLogin', await api.startAtLogin());
    checked('triggerStatus', await api.triggerStatus());
    const { sourceId, inspection } = await opener(api)(watcherApo());
    expect(inspection.ok).toBe(true);
    const receipt = checked(
      'install',
      await api.install({
        sourceId,
        decisions: { agents: {}, triggers: { 'on-call': { armed: true } } },
      }),
    );
    expect(receipt.webhookSecrets.map((once) => once.triggerId)).toEqual([HOOK]);
    expect(checked('rotateWebhookSecret', await api.rotateWebhookSecret({ triggerId: HOOK })).webhookSecret).toMatch(
      /^whsec_/,
    );
    expect(checked('disarmTrigger', await api.disarmTrigger({ triggerId: HOOK })).armed).toBe(false);
    expect(checked('armTrigger', await api.armTrigger({ triggerId: HOOK })).trigger.armed).toBe(true);
    const dashboard = checked('dashboard', await api.dashboard());
    const agent = dashboard.agents[0];
    const tool = agent?.access[0]?.tool;
    if (!agent || !tool) throw new Error('the watcher package has an agent with access');
    expect(dashboard.packages.map((pkg) => pkg.name)).toEqual([receipt.name]);
    const changed = checked('setToolAccess', await api.setToolAccess({ agentId: agent.id, tool, granted: false }));
    expect(changed.access.find((row) => row.tool === tool)?.granted).toBe(false);
    const events = checked('activity', await api.activity({ limit: 50 })).events;
    expect(events.map((event) => event.kind)).toContain('install');
    expect(checked('uninstallPackage', await api.uninstallPackage({ name: receipt.name })).name).toBe(receipt.name);
  });

  it('settings and each change to them', async () => {
    const { api } = testApi();
    checked('settings', await api.settings());
    const saved = checked(
      'saveMcpServer',
      await api.saveMcpServer({ name: 'files', transport: 'stdio', command: 'x' }),
    );
    expect(saved.mcpServers.map((server) => server.name)).toEqual(['files']);
    checked('denyTool', await api.denyTool({ tool: 'shell' }));
    checked('removeDeniedTool', await api.removeDeniedTool({ tool: 'shell' }));
    expect(checked('setWebhookPort', await api.setWebhookPort({ port: 48_000 })).webhookPort).toMatchObject({
      port: 48_000,
      chosen: true,
    });
    checked('removeMcpServer', await api.removeMcpServer({ name: 'files' }));
  });

  it('trusted keys, the integrity check and the waiting runs', async () => {
    const { api, dataDir } = testApi();
    expect(checked('previewKey', await api.previewKey({ publicKey: KEY })).trustedAs).toBeNull();
    const trusted = checked('trustKey', await api.trustKey({ publicKey: KEY, name: 'Example' }));
    const keyId = trusted[0]?.keyId;
    if (!keyId) throw new Error('the key is trusted');
    expect(checked('previewKey', await api.previewKey({ publicKey: KEY })).trustedAs).toBe('Example');
    expect(checked('trustedKeys', await api.trustedKeys()).map((key) => key.name)).toEqual(['Example']);
    expect(checked('untrustKey', await api.untrustKey({ keyId }))).toEqual([]);

    const { sourceId, inspection } = await opener(api)(watcherApo());
    expect(inspection.ok).toBe(true);
    const receipt = checked('install', await api.install({ sourceId, decisions: { agents: {}, triggers: {} } }));
    const dir = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8')).packages[receipt.name].dir;
    writeFileSync(join(dataDir, dir, 'added.py'), 'print(1)\n');
    const verified = checked('verifyInstalled', await api.verifyInstalled());
    expect(verified.map((pkg) => [pkg.name, pkg.integrity.state, pkg.newlyChanged])).toEqual([
      [receipt.name, 'changed', true],
    ]);
    const changed = checked('dashboard', await api.dashboard()).packages[0]?.integrity;
    expect(changed?.added).toEqual(['added.py']);

    const fired = (n: number) => ({
      id: `00000000-0000-4000-8000-00000000000${n}`,
      trigger: HOOK,
      target: 'watcher/tidy',
      input: { text: null },
      fired_at: new Date(Date.UTC(2026, 11, 1, 8, n)).toISOString(),
      cause: 'webhook' as const,
      payload: { untrusted: true as const, webhook_id: `msg_${n}`, type: 'scan.ready', body: {} },
    });
    await writeRunRequest(dataDir, fired(1));
    await writeRunRequest(dataDir, fired(2));
    await writeRunRequest(dataDir, fired(3));
    const waiting = checked('waitingRuns', await api.waitingRuns());
    expect(waiting.runs.map((run) => [run.cause, run.payloadType])).toEqual([
      ['webhook', 'scan.ready'],
      ['webhook', 'scan.ready'],
      ['webhook', 'scan.ready'],
    ]);
    expect(waiting.triggers.map((trigger) => [trigger.trigger, trigger.waiting])).toEqual([[HOOK, 3]]);
    const first = waiting.runs[0]?.id;
    if (!first) throw new Error('a run waits');
    expect(checked('discardWaitingRun', await api.discardWaitingRun({ runId: first })).discarded).toEqual([first]);
    expect(checked('discardTriggerRuns', await api.discardTriggerRuns({ triggerId: HOOK })).discarded).toHaveLength(2);
  });

  it('a template previewed and applied', async () => {
    const { api } = testApi();
    checked('saveMcpServer', await api.saveMcpServer({ name: 'slack', transport: 'stdio', command: 'slack-mcp' }));
    checked('saveSecret', await api.saveSecret({ name: 'PARALLEL_API_KEY', value: 'key-1' }));
    const { sourceId, inspection } = await opener(api, 'dialog')(writeTemplate());
    expect(inspection.ok).toBe(true);
    const request = { sourceId, parameters: { channel: 'C0123ABCD' }, grants: ['mcp:slack/send'] };
    const preview = checked('previewApply', await api.previewApply(request));
    const send = preview.mcp[0]?.tools.find((tool) => tool.name === 'send');
    expect(send?.pin).toEqual({ channel_id: 'C0123ABCD', event: [null, 'COMMENT'] });
    expect(preview.triggers.map((trigger) => trigger.type)).toEqual(['schedule', 'webhook', 'at']);
    const receipt = checked('apply', await api.apply({ ...request, arm: [], requestId: 'r1' }));
    expect(receipt.preview).toEqual(preview);
    const agent = checked('dashboard', await api.dashboard()).agents.find((made) => made.id === receipt.agentId);
    expect(agent?.access.find((row) => row.tool === 'mcp:slack/send')?.pin).toEqual(send?.pin);
  });

  it('refuses an answer with a field its type does not declare (the check is not blind)', () => {
    const validate = validators.get('startAtLogin');
    expect(validate?.({ available: false, on: false })).toBe(true);
    expect(validate?.({ available: false, on: false, extra: 1 })).toBe(false);
  });
});

/** What 1.3.0 of `invoices` changes in what it asks: every part of an update's diff has something in it. */
function asksMore(toml: string): string {
  return `${toml
    .replace('publisher = "Example Accounting"', 'publisher = "Example Acc0unting"')
    .replace('access = ["file_read", "mcp:ledger/lookup"', 'access = ["file_read", "mcp:crm/find", "mcp:ledger/lookup"')
    .replace('action = "read_personal"', 'action = "write_or_delete"')
    .replace('args = ["ledger-mcp"]', 'args = ["ledger-mcp", "--write"]')
    .replace('schedule = "0 8 1-7 * MON"', 'schedule = "0 9 1-7 * MON"')}
[[requires]]
type = "slack"
reason = "Reminders are also posted."

[[mcp_servers]]
name = "crm"
transport = "streamable-http"
url = "https://crm.example.com/mcp"
`;
}

/** The watcher package (an agent with access and a webhook trigger), packed into a fresh file. */
function watcherApo(): string {
  const apo = join(tempDir('apollia-apo-'), 'package.apo');
  writeFileSync(apo, packFolder(WATCHER_DIR));
  return apo;
}

/** Opens a file as the app does (registered, then inspected); its source id and its inspection, checked whole. */
function opener(api: ReturnType<typeof testApi>['api'], how: 'open-file' | 'dialog' = 'open-file') {
  return async (path: string) => {
    const handle = await api.registerSource(path, how);
    if (!handle.ok) throw new Error(handle.error.message);
    return { sourceId: handle.value.id, inspection: inspected(await api.inspect({ sourceId: handle.value.id })) };
  };
}

describeWithMinisign('inspections of signed packages and their updates meet the schema whole', () => {
  beforeAll(() => sharedChecker().warm(), 120_000);

  it('a signed first install, then a signed update: its diff, the decisions it keeps, its key story', async () => {
    const kit = storyKit(tempDir('apollia-replies-signed-'));
    const { api } = testApi();
    checked('trustKey', await api.trustKey({ publicKey: kit.publisher.publicKeyText, name: TRUSTED_AS }));
    const open = opener(api);

    const first = await open(installedFirst(kit));
    expect(first.inspection.signatureVerdict).toMatchObject({ names: 'same', update: null });
    expect(first.inspection.signatureVerdict?.signature.state).toBe('verified');
    expect([first.inspection.updateDiff, first.inspection.installedDecisions]).toEqual([null, null]);
    checked(
      'install',
      await api.install({
        sourceId: first.sourceId,
        decisions: {
          agents: { 'invoice-clerk': { access: { file_read: true } } },
          triggers: { 'first-monday': { armed: true } },
        },
      }),
    );

    const updatePath = invoicesFile(kit.dir, 'invoices-1.3.0.apo', '1.3.0', asksMore);
    minisignSign(kit.publisher, updatePath, { trustedComment: 'invoices 1.3.0' });
    const update = (await open(updatePath)).inspection;
    expect(update.installed).toMatchObject({
      version: '1.2.0',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      relation: 'newer',
    });
    expect(update.signatureVerdict?.names).toBe('lookalike');
    expect(update.signatureVerdict?.update).toMatchObject({
      change: 'kept',
      before: { kind: 'key' },
      now: { kind: 'key' },
      beforeName: TRUSTED_AS,
      beforeTrusted: true,
    });
    const diff = update.updateDiff;
    expect(diff?.tools.familyChanged).toEqual([
      { name: 'extract_totals', from: 'read_personal', to: 'write_or_delete' },
    ]);
    expect(diff?.mcpServers).toEqual({ added: ['crm'], removed: [], changed: [{ name: 'ledger', changed: ['args'] }] });
    expect(diff?.connections.added).toEqual(['slack']);
    expect(diff?.triggers.changed).toEqual(['first-monday']);
    expect(diff?.agents.access).toEqual([{ agentId: 'invoice-clerk', added: ['mcp:crm/find'], removed: [] }]);
    expect(diff?.proposedAccess['invoice-clerk']).toContain('mcp:crm/find');
    expect(diff?.publisher).toEqual({ from: TRUSTED_AS, to: 'Example Acc0unting', comparison: 'lookalike' });
    expect(diff?.asksMore).toBe(true);
    const decisions = update.installedDecisions;
    expect(decisions?.manifest.package.version).toBe('1.2.0');
    expect(decisions?.access['invoice-clerk']?.file_read).toBeDefined();
    expect(decisions?.triggers['first-monday']).toEqual({ armed: true, folder: null, secret: null });
  });

  it('an update signed by another key, and one whose signature is dropped', async () => {
    const kit = storyKit(tempDir('apollia-replies-keys-'));
    const { api } = testApi();
    checked('trustKey', await api.trustKey({ publicKey: kit.publisher.publicKeyText, name: TRUSTED_AS }));
    const open = opener(api);
    const first = await open(installedFirst(kit));
    checked('install', await api.install({ sourceId: first.sourceId, decisions: { agents: {}, triggers: {} } }));

    const otherPath = invoicesFile(kit.dir, 'other-key-1.2.1.apo', '1.2.1');
    minisignSign(kit.stranger, otherPath, { trustedComment: 'invoices 1.2.1' });
    const other = await open(otherPath);
    expect(other.inspection.signatureVerdict?.signature.state).toBe('unknown_key');
    expect(other.inspection.signatureVerdict?.update).toMatchObject({
      change: 'other_key',
      before: { kind: 'key' },
      now: { kind: 'claimed_key' },
      nowName: null,
    });
    expect(other.inspection.keyChange).toMatchObject({ kind: 'changed', change: 'other_key' });
    expect(other.inspection.updateDiff?.changes).toEqual([]);
    expect(checked('refuseKeyChange', await api.refuseKeyChange({ sourceId: other.sourceId }))).toBeNull();

    const dropped = (await open(invoicesFile(kit.dir, 'dropped-1.2.1.apo', '1.2.1'))).inspection;
    expect(dropped.signatureVerdict).toMatchObject({ signature: { state: 'unsigned' }, names: null });
    expect(dropped.signatureVerdict?.update).toMatchObject({ change: 'dropped', now: { kind: 'unsigned' } });
  });
});

/** A policy file in a fresh folder. */
function policyFile(policy: unknown): string {
  const path = join(tempDir('apollia-replies-policy-'), 'policy.json');
  writeFileSync(path, typeof policy === 'string' ? policy : JSON.stringify(policy));
  return path;
}

describe('the policy in force, as inspect, the dashboard and the settings carry it, meets the schema', () => {
  beforeAll(() => sharedChecker().warm(), 120_000);

  /** Each answer that carries the policy, checked; the policy view of each. */
  async function policyViews(api: ReturnType<typeof testApi>['api']) {
    const { inspection } = await opener(api)(watcherApo());
    const settings = checked('settings', await api.settings());
    const dashboard = checked('dashboard', await api.dashboard());
    return [inspection.policy, settings.policy, dashboard.policy?.view];
  }

  it('a policy in force from two files, every key set', async () => {
    const machine = policyFile({
      version: 1,
      organization: 'Example Corp',
      trustedPublishers: [{ name: 'Example Accounting', key: KEY }],
      requireSignature: 'any',
      allowUserTrustedKeys: false,
      allowedPackages: [{ name: 'watcher', key: KEY }, { sha256: 'a'.repeat(64) }],
      blockedActionFamilies: ['execute_code'],
      blockedTools: ['mcp:*/delete_*'],
      templates: 'builtin',
      triggers: { webhook: false },
      webhookPort: 48_100,
      unattended: false,
      mcpServers: [{ name: 'crm', transport: 'streamable-http', url: 'https://crm.example.com/mcp' }],
      activityExport: join(tempDir('apollia-replies-export-'), 'decisions.jsonl'),
    });
    const extra = policyFile({ version: 1, blockedActionFamilies: ['send_external'], templates: 'none' });
    const { api } = testApi({ policy: { machine, env: extra } });
    for (const view of await policyViews(api)) {
      expect(view?.state).toBe('applied');
      expect(view?.sources.map((source) => [source.role, source.state])).toEqual([
        ['machine', 'read'],
        ['env', 'read'],
      ]);
      expect(view?.origin.templates).toEqual([machine, extra]);
      expect(view?.effective).toMatchObject({
        organization: 'Example Corp',
        blockedActionFamilies: ['execute_code', 'send_external'],
        templates: 'none',
        triggers: { schedule: true, file_watch: true, webhook: false },
        webhookPort: 48_100,
      });
      expect(view?.effective?.allowedPackages).toHaveLength(2);
      expect(view?.effective?.mcpServers.map((server) => server.name)).toEqual(['crm']);
    }
  });

  it('an unreadable policy (a key it does not know)', async () => {
    const path = policyFile({ version: 1, blockedTool: ['shell'] });
    const { api } = testApi({ policy: { machine: null, env: path } });
    for (const view of await policyViews(api)) {
      expect(view).toMatchObject({ state: 'unreadable', effective: null, origin: {} });
      expect(view?.sources).toEqual([{ role: 'env', path, state: 'invalid', problem: view?.problem?.message }]);
      expect(view?.problem?.path).toBe(path);
    }
  });
});
