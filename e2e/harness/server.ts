/**
 * The e2e harness (DESIGN.md "Testing"): serves the BUILT renderer (`out/renderer`) and the real
 * core Api over HTTP, so the same specs that drive Electron can drive Chromium on a machine where
 * Electron cannot run. It stays thin on purpose — everything real lives in `electron/core/`:
 *
 * - `POST /api/<method>`  → `createApi(deps)[method](body)` → the JSON `ApiResult`
 * - `GET  /events`        → server-sent `opened` events (what main sends as `apollia:opened`)
 * - `POST /test/open`     `{ path }`: registers a path as if double-clicked, then sends `opened`
 * - `POST /test/link`    `{ links: string[] }`: hands install links over as Electron main does (one at a time
 *                          through `createLinkDispatcher`, each opened from its feed, then `opened`); a
 *                          refused link is kept for `GET /test/state`'s `linkRefusals`, as main shows a dialog
 * - `POST /test/dialog`   `{ kind: 'file' | 'folder', path | null }`: answers the next native dialog
 * - `POST /test/reset`    `{ now?, policyFile? }`: a fresh temp data folder (and, optionally, a fixed clock),
 *                          with its own trigger host (the old one stopped first); `policyFile` sets
 *                          this process's `APOLLIA_POLICY_FILE` (the organization's policy, as an
 *                          administrator tries one), and its absence unsets it
 * - `GET  /test/state`    → `{ dataDir, hooksOrigin }` (`hooksOrigin`: the trigger host's listener)
 *
 * Like Electron main, the harness holds one `TriggerHost` per data folder: its webhook
 * listener binds a free port on 127.0.0.1, so specs deliver real signed requests to it.
 *
 * Run: `E2E_PORT=4173 npx tsx e2e/harness/server.ts`. Listens on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join, normalize, resolve, sep } from 'node:path';
import { API_METHODS, type ApiMethod, type ApiResult, type SourceHandle } from '../../shared/contract/api';
import { type CoreApi, createApi } from '../../electron/core/api';
import { sharedChecker } from '../../electron/core/bounded/index';
import { createFileKeySecretBox } from '../../electron/core/secrets/secret-box';
import { type HostClock, TriggerHost } from '../../electron/core/triggers';
import { createLinkDispatcher, openInstallLink } from '../../electron/main/install-link-gate';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const RENDERER_DIR = join(ROOT, 'out', 'renderer');
const RESOURCES_DIR = join(ROOT, 'resources');
const PORT = Number(process.env['E2E_PORT'] ?? 4173);

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

type DialogKind = 'file' | 'folder' | 'key';

interface HarnessState {
  dataDir: string;
  api: CoreApi;
  dialogAnswers: Record<DialogKind, (string | null)[]>;
  /** `opened` events sent before any page listened: delivered to the next page that connects. */
  backlog: SourceHandle[];
  /** The data folder's trigger host, as Electron main holds one. */
  host: TriggerHost;
  /** Install links refused (what main shows in a warning dialog), in order. */
  linkRefusals: { code: string; message: string }[];
}

const clients = new Set<ServerResponse>();
let state = await fresh(null);

async function fresh(fixedNow: Date | null): Promise<HarnessState> {
  const dataDir = mkdtempSync(join(tmpdir(), 'apollia-e2e-'));
  const dialogAnswers: HarnessState['dialogAnswers'] = { file: [], folder: [], key: [] };
  // An empty queue answers like a cancelled dialog.
  const answer = (kind: DialogKind) => async () => dialogAnswers[kind].shift() ?? null;
  const secretBox = createFileKeySecretBox(join(dataDir, 'test-keys'));
  const api = createApi({
    dataDir,
    resourcesDir: RESOURCES_DIR,
    dialogs: { openFile: answer('file'), openFolder: answer('folder'), openKeyFile: answer('key') },
    secretBox,
    now: () => (fixedNow ? new Date(fixedNow) : new Date()),
    // The system Trash, as a folder of the run's temp dir the specs can look into.
    trash: async (path) => {
      mkdirSync(join(dataDir, 'trash'), { recursive: true });
      renameSync(path, join(dataDir, 'trash', basename(path)));
    },
    // The person's browser, as a file of the addresses it was asked to open, one a line.
    openExternal: async (url) => appendFileSync(join(dataDir, 'opened-links.txt'), `${url}\n`),
  });
  // With a fixed core clock the host's clock is that instant, frozen: schedules are counted from it
  // (as the dashboard's next times are) and none comes due while a spec runs.
  const clock: HostClock | undefined = fixedNow
    ? { now: () => new Date(fixedNow), setTimer: () => null, clearTimer: () => undefined }
    : undefined;
  const host = new TriggerHost({ dataDir, secretBox, port: 0, ...(clock ? { clock } : {}) });
  await host.start();
  return { dataDir, api, dialogAnswers, backlog: [], host, linkRefusals: [] };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  const value: unknown = JSON.parse(text);
  return value === null ? undefined : value;
}

function broadcastOpened(handle: SourceHandle): void {
  if (clients.size === 0) {
    state.backlog.push(handle);
    return;
  }
  for (const client of clients) client.write(`event: opened\ndata: ${JSON.stringify(handle)}\n\n`);
}

// Install links, one at a time as Electron main hands them over (electron/main/open-requests.ts).
const links = createLinkDispatcher(
  (link) => openInstallLink(state.api, link),
  (result) => {
    if (result.ok) broadcastOpened(result.value);
    else state.linkRefusals.push({ code: result.error.code, message: result.error.message });
  },
);

async function registerAsOpened(path: string): Promise<ApiResult<SourceHandle>> {
  const result = await state.api.registerSource(path, 'command-line');
  if (result.ok) broadcastOpened(result.value);
  return result;
}

function serveStatic(pathname: string, res: ServerResponse): void {
  const relative = normalize(decodeURIComponent(pathname === '/' ? '/index.html' : pathname)).replace(/^[/\\]+/, '');
  const file = resolve(RENDERER_DIR, relative);
  if (file !== RENDERER_DIR && !file.startsWith(RENDERER_DIR + sep)) return sendJson(res, 404, { error: 'not found' });
  try {
    if (!statSync(file).isFile()) return sendJson(res, 404, { error: 'not found' });
  } catch {
    return sendJson(res, 404, { error: `not found: ${relative} (run \`npm run build\` first)` });
  }
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': 'no-store',
  });
  res.end(readFileSync(file));
}

async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = req.method ?? 'GET';

  if (method === 'POST' && url.pathname.startsWith('/api/')) {
    const name = url.pathname.slice('/api/'.length);
    if (!(API_METHODS as readonly string[]).includes(name)) {
      return sendJson(res, 404, {
        ok: false,
        error: { code: 'api.unknown_method', message: `There is no method "${name}".` },
      });
    }
    const call = state.api[name as ApiMethod] as (request: unknown) => Promise<ApiResult<unknown>>;
    return sendJson(res, 200, await call(await readBody(req)));
  }

  if (method === 'GET' && url.pathname === '/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': connected\n\n');
    clients.add(res);
    for (const handle of state.backlog.splice(0)) res.write(`event: opened\ndata: ${JSON.stringify(handle)}\n\n`);
    req.on('close', () => clients.delete(res));
    return;
  }

  if (method === 'POST' && url.pathname === '/test/open') {
    const body = (await readBody(req)) as { path?: unknown } | undefined;
    if (typeof body?.path !== 'string') return sendJson(res, 400, { error: 'path must be a string' });
    return sendJson(res, 200, await registerAsOpened(body.path));
  }

  if (method === 'POST' && url.pathname === '/test/link') {
    const body = (await readBody(req)) as { links?: unknown } | undefined;
    if (!Array.isArray(body?.links) || !body.links.every((link) => typeof link === 'string'))
      return sendJson(res, 400, { error: 'links must be a list of strings' });
    for (const link of body.links as string[]) links.offer(link);
    return sendJson(res, 200, { offered: body.links.length });
  }

  if (method === 'POST' && url.pathname === '/test/dialog') {
    const body = (await readBody(req)) as { kind?: unknown; path?: unknown } | undefined;
    if (
      (body?.kind !== 'file' && body?.kind !== 'folder' && body?.kind !== 'key') ||
      (typeof body.path !== 'string' && body.path !== null)
    ) {
      return sendJson(res, 400, { error: "body must be { kind: 'file' | 'folder', path: string | null }" });
    }
    state.dialogAnswers[body.kind].push(body.path);
    return sendJson(res, 200, { queued: state.dialogAnswers[body.kind].length });
  }

  if (method === 'POST' && url.pathname === '/test/reset') {
    const body = (await readBody(req)) as { now?: unknown; policyFile?: unknown } | undefined;
    // The core reads the policy files afresh at each call, from this process's environment.
    if (typeof body?.policyFile === 'string') process.env.APOLLIA_POLICY_FILE = body.policyFile;
    else delete process.env.APOLLIA_POLICY_FILE;
    const old = state;
    await old.host.stop();
    state = await fresh(typeof body?.now === 'string' ? new Date(body.now) : null);
    rmSync(old.dataDir, { recursive: true, force: true });
    return sendJson(res, 200, { dataDir: state.dataDir, hooksOrigin: state.host.origin });
  }

  if (method === 'GET' && url.pathname === '/test/state')
    return sendJson(res, 200, {
      dataDir: state.dataDir,
      hooksOrigin: state.host.origin,
      linkRefusals: state.linkRefusals,
    });
  if (method === 'GET' && url.pathname === '/test/health') return sendJson(res, 200, { ok: true });
  if (method === 'GET' || method === 'HEAD') return serveStatic(url.pathname, res);
  sendJson(res, 405, { error: 'method not allowed' });
}

const server = createServer((req, res) => {
  route(req, res).catch((error: unknown) => {
    // A throw here is a bug in the harness or core: report it as an error value, like main's handle().
    const message = error instanceof Error ? error.message : String(error);
    if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'harness.internal', message } });
    else res.end();
  });
});

// The bounded checker's worker (electron/core/bounded/) is started before the harness says it is
// ready, as Electron main starts it with its window: from TS source it transpiles the readers first.
await sharedChecker().warm();
await state.api.verifyInstalled(); // installed files re-checked on start, as Electron main does

server.listen(PORT, '127.0.0.1', () => {
  console.log(`apollia e2e harness on http://127.0.0.1:${PORT} (data ${state.dataDir})`);
});

const stop = () => {
  for (const client of clients) client.end();
  server.close();
  void state.host.stop().finally(() => {
    rmSync(state.dataDir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
