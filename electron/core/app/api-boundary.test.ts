/**
 * The boundary under attack: every Api method called with wrong types, missing fields,
 * extra fields, huge payloads, paths instead of ids, and ids that do not exist. Each is refused
 * with its error code, and the data folder stays byte for byte as it was.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_METHODS, type ApiMethod } from '../../../shared/contract/api';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import type { CoreApi } from '../api';
import { tempDir, testApi, treeHash } from '../../../test/helpers/test-api';

const HUGE = 'x'.repeat(10 * 1024 * 1024);

/** A well-formed request per method (with ids that do not exist), from which the attacks are made. */
const WELL_FORMED: Record<ApiMethod, Record<string, unknown> | undefined> = {
  appInfo: undefined,
  openDialog: { kind: 'file' },
  listBuiltinTemplates: undefined,
  openBuiltinTemplate: { name: 'market-monitor' },
  inspect: { sourceId: 'nope' },
  pickWatchFolder: undefined,
  install: { sourceId: 'nope', decisions: { agents: {}, triggers: {} } },
  previewApply: { sourceId: 'nope', parameters: {}, grants: [] },
  apply: { sourceId: 'nope', parameters: {}, grants: [], requestId: 'r' },
  dashboard: undefined,
  setToolAccess: { agentId: 'nope', tool: 'file_read', granted: true },
  armTrigger: { triggerId: 'nope' },
  disarmTrigger: { triggerId: 'nope' },
  pauseTrigger: { triggerId: 'nope' },
  policyPage: undefined,
  setToolAsks: { agentId: 'nope', tool: 'web_fetch', asks: true },
  setApprovals: { agentId: 'nope', approvals: 'ask' },
  resumeTrigger: { triggerId: 'nope' },
  rotateWebhookSecret: { triggerId: 'nope' },
  webhookSecretShared: { triggerId: 'nope', secret: 'whsec_AAAA' },
  uninstallPackage: { name: 'nope' },
  archiveAgent: { agentId: 'nope' },
  settings: undefined,
  saveMcpServer: { name: 'ledger', transport: 'stdio', command: 'uvx' },
  trustedKeys: undefined,
  trustKey: { publicKey: 'RWQ', name: 'Example' },
  previewKey: { publicKey: 'RWQ' },
  previewKeyFile: undefined,
  untrustKey: { keyId: 'ABCD' },
  refuseKeyChange: { sourceId: 'src-1' },
  verifyInstalled: undefined,
  removeMcpServer: { name: 'nope' },
  saveSecret: { name: 'OPENROUTER_API_KEY', value: 'sk-test' },
  removeSecret: { name: 'nope' },
  denyTool: { tool: 'mcp:slack/slack_send_message' },
  removeDeniedTool: { tool: 'mcp:slack/slack_send_message' },
  triggerStatus: undefined,
  activity: undefined,
  setWebhookPort: { port: 50_000 },
  activityCollector: undefined,
  setActivityCollector: { url: 'https://otel.example.com/v1/logs' },
  trashSource: { sourceId: 'nope' },
  startAtLogin: undefined,
  setStartAtLogin: { on: true },
  waitingRuns: undefined,
  discardWaitingRun: { runId: 'nope' },
  discardTriggerRuns: { triggerId: 'nope' },
  openDownloadPage: undefined,
  followedFeeds: undefined,
  followFeed: { url: 'https://feeds.example/feed.json', publicKey: 'RWQ', name: 'Example' },
  unfollowFeed: { url: 'https://feeds.example/feed.json' },
  checkUpdates: undefined,
  openUpdate: { name: 'nope' },
  openRollback: { name: 'nope' },
  setUpdateMode: { name: 'nope', mode: 'auto' },
};

/** Paths where ids belong, and ids that do not exist: refused with these codes. */
const UNKNOWN: [ApiMethod, unknown, string][] = [
  ['inspect', { sourceId: '/etc/passwd' }, 'source.unknown'],
  ['inspect', { sourceId: 'nope' }, 'source.unknown'],
  ['install', { sourceId: INVOICES_DIR, decisions: { agents: {}, triggers: {} } }, 'source.unknown'],
  ['previewApply', { sourceId: '../../resources/templates/kyb', parameters: {}, grants: [] }, 'source.unknown'],
  ['apply', { sourceId: '/tmp', parameters: {}, grants: [], requestId: 'r' }, 'source.unknown'],
  ['openBuiltinTemplate', { name: '../../../etc' }, 'template.unknown'],
  ['openBuiltinTemplate', { name: 'no-such-template' }, 'template.unknown'],
  ['setToolAccess', { agentId: 'nope', tool: 'file_read', granted: true }, 'agent.unknown'],
  ['setToolAccess', { agentId: 'invoices/invoice-clerk', tool: 'shell', granted: true }, 'access.unknown'],
  ['armTrigger', { triggerId: 'nope' }, 'trigger.unknown'],
  ['armTrigger', { triggerId: 'invoices/first-monday', folderId: '/home' }, 'folder.unknown'],
  ['disarmTrigger', { triggerId: '../state.json' }, 'trigger.unknown'],
  ['pauseTrigger', { triggerId: '../state.json' }, 'trigger.unknown'],
  ['resumeTrigger', { triggerId: 'toString' }, 'trigger.unknown'],
  ['rotateWebhookSecret', { triggerId: 'nope' }, 'trigger.unknown'],
  ['rotateWebhookSecret', { triggerId: 'invoices/first-monday' }, 'trigger.not_webhook'],
  ['uninstallPackage', { name: '../packages' }, 'package.unknown'],
  ['archiveAgent', { agentId: 'nope' }, 'agent.unknown'],
  ['archiveAgent', { agentId: 'invoices/invoice-clerk' }, 'agent.part_of_package'],
  ['removeMcpServer', { name: 'nope' }, 'mcp.unknown'],
  ['saveMcpServer', { name: 'x', transport: 'stdio', url: 'https://x.example' }, 'mcp.invalid'],
  ['saveMcpServer', { name: 'x', transport: 'stdio' }, 'mcp.invalid'],
  ['saveMcpServer', { name: 'x', transport: 'sse', url: 'file:///etc/passwd' }, 'mcp.invalid'],
  ['saveSecret', { name: 'PATH', value: '/bin' }, 'secret.unknown_name'],
  ['removeSecret', { name: 'OPENROUTER_API_KEY' }, 'secret.unknown'],
  ['denyTool', { tool: '../state.json' }, 'tool.invalid'],
  ['discardWaitingRun', { runId: '../state' }, 'request.invalid'],
  ['discardWaitingRun', { runId: 'nope' }, 'run.unknown'],
  ['discardTriggerRuns', { triggerId: '../state.json' }, 'run.none_waiting'],
  ['denyTool', { tool: 'mcp:slack' }, 'tool.invalid'],
  ['denyTool', { tool: 'mcp:slack/send message' }, 'tool.invalid'],
  ['denyTool', { tool: 'mcp:../etc/passwd' }, 'tool.invalid'],
  ['denyTool', { tool: 'mcp:*/*' }, 'tool.invalid'],
  ['denyTool', { tool: ' shell' }, 'tool.invalid'],
  ['denyTool', { tool: 'rm -rf' }, 'tool.invalid'],
  ['denyTool', { tool: '__proto__' }, 'tool.invalid'],
  ['removeDeniedTool', { tool: 'mcp:slack/slack_send_message' }, 'tool.not_denied'],
  ['removeDeniedTool', { tool: 'constructor' }, 'tool.not_denied'],
  // Names of inherited properties find nothing (never `Object` itself, never a write through it).
  ['armTrigger', { triggerId: 'constructor' }, 'trigger.unknown'],
  ['disarmTrigger', { triggerId: 'toString' }, 'trigger.unknown'],
  ['rotateWebhookSecret', { triggerId: '__proto__' }, 'trigger.unknown'],
  ['setToolAccess', { agentId: 'constructor', tool: 'x', granted: true }, 'agent.unknown'],
  ['archiveAgent', { agentId: 'hasOwnProperty' }, 'agent.unknown'],
  ['uninstallPackage', { name: 'constructor' }, 'package.unknown'],
  ['uninstallPackage', { name: '__proto__' }, 'package.unknown'],
  ['apply', { sourceId: 'nope', parameters: {}, grants: [], requestId: 'constructor' }, 'source.unknown'],
  ['followFeed', { url: 'http://feeds.example/feed.json', publicKey: null, name: null }, 'feed.address_refused'],
  ['followFeed', { url: 'file:///etc/passwd', publicKey: null, name: null }, 'feed.address_refused'],
  ['followFeed', { url: 'https://feeds.example/f.json', publicKey: 'RWQnot-a-key', name: null }, 'key.malformed'],
  ['unfollowFeed', { url: 'https://feeds.example/feed.json' }, 'feed.not_followed'],
  ['openUpdate', { name: 'invoices' }, 'update.no_feed'],
  ['openUpdate', { name: '__proto__' }, 'update.no_feed'],
  ['openRollback', { name: 'invoices' }, 'rollback.none'],
  ['setUpdateMode', { name: 'invoices', mode: 'auto' }, 'update.no_feed'],
  ['setUpdateMode', { name: 'constructor', mode: 'hold' }, 'update.no_feed'],
];

/** Malformed variants of a method's request: each must be `request.invalid`. */
function attacks(method: ApiMethod): [string, unknown][] {
  const base = WELL_FORMED[method];
  const out: [string, unknown][] = [
    ['a number', 42],
    ['a string', 'x'],
    ['an array', []],
    ['a huge string', HUGE],
    ['an extra field', { ...(base ?? {}), evil: true }],
    [
      'a prototype key',
      JSON.parse(
        `{ ${
          base
            ? Object.entries(base)
                .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}, `)
                .join('')
            : ''
        }"__proto__": { "polluted": true } }`,
      ),
    ],
  ];
  if (!base) return out;
  for (const [key, value] of Object.entries(base)) {
    const without = { ...base };
    delete without[key];
    // `command` is optional in the schema (a network server has none): a stdio server without one is refused by its own
    // rule.
    if (!(method === 'saveMcpServer' && key === 'command')) out.push([`no ${key}`, without]);
    out.push([`${key} of the wrong type`, { ...base, [key]: typeof value === 'string' ? 42 : 'x' }]);
    if (typeof value === 'string') out.push([`a 10 MB ${key}`, { ...base, [key]: HUGE }]);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      out.push([`${key} with a huge key`, { ...base, [key]: { [HUGE.slice(0, 70_000)]: {} } }]);
    if (Array.isArray(value))
      out.push([`${key} with 100,000 items`, { ...base, [key]: Array.from({ length: 100_000 }, () => 'mcp:a/b') }]);
  }
  return out;
}

describe('the boundary under attack', () => {
  let api: CoreApi;
  let dataDir: string;
  let hash: string;

  beforeAll(async () => {
    ({ api, dataDir } = testApi());
    const apo = join(tempDir('apollia-apo-'), 'invoices.apo');
    writeFileSync(apo, packFolder(INVOICES_DIR));
    const source = await api.registerSource(apo, 'open-file');
    if (!source.ok) throw new Error(source.error.message);
    await api.inspect({ sourceId: source.value.id });
    const installed = await api.install({ sourceId: source.value.id, decisions: { agents: {}, triggers: {} } });
    if (!installed.ok) throw new Error(installed.error.message);
    hash = treeHash(dataDir);
  }, 120_000); // an install through the bounded worker, on a loaded shared machine

  it.each(API_METHODS.flatMap((method) => attacks(method).map(([what, request]) => [method, what, request] as const)))(
    '%s with %s → request.invalid',
    async (method, _what, request) => {
      const result = await api[method](request);
      expect(result.ok === false && result.error.code).toBe('request.invalid');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(treeHash(dataDir)).toBe(hash);
    },
  );

  it.each(UNKNOWN)('%s %j → %s', async (method, request, code) => {
    const result = await api[method](request);
    expect(result.ok === false && result.error.code).toBe(code);
    expect(treeHash(dataDir)).toBe(hash);
  });

  it('an inherited property name pollutes nothing', async () => {
    await api.armTrigger({ triggerId: 'constructor' });
    await api.setToolAccess({ agentId: 'invoices/invoice-clerk', tool: 'constructor', granted: true });
    expect((Object as unknown as Record<string, unknown>)['armed']).toBeUndefined();
    expect((Object as unknown as Record<string, unknown>)['setting']).toBeUndefined();
    expect(treeHash(dataDir)).toBe(hash);
  });

  it('names the field that is wrong', async () => {
    expect(await api.install({ sourceId: 'nope', decisions: { agents: {}, triggers: {} }, extra: 1 })).toEqual({
      ok: false,
      error: {
        code: 'request.invalid',
        message: 'install: `request` must NOT have additional properties (`extra`)',
        path: 'request',
      },
    });
    expect(await api.saveSecret({ name: 'OPENROUTER_API_KEY', value: HUGE })).toEqual({
      ok: false,
      error: {
        code: 'request.invalid',
        message: 'saveSecret: `value` must NOT have more than 16384 characters',
        path: 'value',
      },
    });
  });

  it('a throw inside a method is answered `internal` and logged, never thrown', async () => {
    const logged: string[] = [];
    const { api: broken } = testApi({
      dataDir,
      log: (message) => logged.push(message),
      dialogs: { openFile: () => Promise.reject(new Error('dialog crashed')), openFolder: async () => null },
    });
    expect(await broken.openDialog({ kind: 'file' })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'Something went wrong (openDialog): dialog crashed' },
    });
    expect(logged).toEqual(['apollia: openDialog failed']);
  });
});
