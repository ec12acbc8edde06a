/**
 * Benchmark row: how long `outdated` takes on the built CLI (`out/cli/cli.cjs outdated --json`)
 * with 20 packages installed from one local feed (DESIGN.md "Feeds, updates and install links").
 * The feed is served on 127.0.0.1 and signed by the real `minisign`; the 20 packages are installed
 * from it through the Api first (not measured), then the feed gains a newer version of each, and the
 * check is timed: CLI start-up, one feed fetched and verified, 20 rows, one store write.
 *
 * Run alone: `npx tsx bench/feed-outdated.ts` (after `npm run build:cli`); `npm run bench` runs it too.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApi } from '../electron/core/api';
import { createFileKeySecretBox } from '../electron/core/secrets/secret-box';
import { INVOICES_DIR, packFolder } from '../test/helpers/pack';
import { editedPackage } from '../test/helpers/test-api';
import { measure, median, ROOT, RUNS } from './measure';

const COUNT = 20;

const packed = new Map<string, Buffer>();

/** The spec's example package under another name and version (packed once per pair). */
function packageBytes(name: string, version: string): Buffer {
  const key = `${name}@${version}`;
  let bytes = packed.get(key);
  if (!bytes) {
    bytes = packFolder(
      editedPackage(INVOICES_DIR, (toml) =>
        toml
          .replace('name = "invoices"', `name = "${name}"`)
          .replaceAll('pkg:invoices/', `pkg:${name}/`)
          .replace('version = "1.2.0"', `version = "${version}"`),
      ),
    );
    packed.set(key, bytes);
  }
  return bytes;
}

/** The outdated check of 20 feed-installed packages: median and min wall time, and what it answered. */
export async function feedOutdatedBench(): Promise<{ ms: number; minMs: number; rows: number; updates: number }> {
  const cli = join(ROOT, 'out/cli/cli.cjs');
  if (!existsSync(cli)) throw new Error('out/cli/cli.cjs is missing: run `npm run build:cli` first');
  const dir = mkdtempSync(join(tmpdir(), 'bench-feed-'));
  const routes = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    const body = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (body) res.writeHead(200, { 'content-length': body.length }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const feedUrl = `${origin}/feed.json`;
  try {
    execFileSync('minisign', ['-G', '-W', '-p', join(dir, 'k.pub'), '-s', join(dir, 'k.key')], { stdio: 'pipe' });
    const publish = (serial: number, versions: string[]) => {
      const packages: Record<string, { versions: unknown[] }> = {};
      for (let i = 0; i < COUNT; i++) {
        const name = `bench-${i}`;
        packages[name] = {
          versions: versions.map((version) => {
            const bytes = packageBytes(name, version);
            routes.set(`/${name}-${version}.apo`, bytes);
            const sha256 = createHash('sha256').update(bytes).digest('hex');
            return { version, url: `${name}-${version}.apo`, sha256, size: bytes.length, status: 'active' };
          }),
        };
      }
      const expires = new Date(Date.now() + 86_400_000).toISOString();
      const feed = Buffer.from(
        JSON.stringify({ apolliaFeed: 1, url: feedUrl, publisher: 'Example Accounting', serial, expires, packages }),
      );
      writeFileSync(join(dir, 'feed.json'), feed);
      execFileSync('minisign', ['-S', '-s', join(dir, 'k.key'), '-m', join(dir, 'feed.json')], {
        stdio: 'pipe',
        input: '',
      });
      routes.set('/feed.json', feed);
      routes.set('/feed.json.minisig', readFileSync(join(dir, 'feed.json.minisig')));
    };
    publish(1, ['1.0.0']);
    const dataDir = join(dir, 'data');
    const api = createApi({
      dataDir,
      resourcesDir: join(ROOT, 'resources'),
      dialogs: { openFile: async () => null, openFolder: async () => null },
      secretBox: createFileKeySecretBox(dataDir),
      now: () => new Date(),
      log: () => undefined,
    });
    const trusted = await api.trustKey({ publicKey: readFileSync(join(dir, 'k.pub'), 'utf8'), name: 'Bench' });
    if (!trusted.ok) throw new Error(trusted.error.message);
    for (let i = 0; i < COUNT; i++) {
      const opened = await api.feeds.open({ feedUrl, name: `bench-${i}` });
      if (!opened.ok) throw new Error(opened.error.message);
      await api.inspect({ sourceId: opened.value.handle.id });
      const installed = await api.install({
        sourceId: opened.value.handle.id,
        decisions: { agents: {}, triggers: {} },
      });
      if (!installed.ok) throw new Error(`${installed.error.code}: ${installed.error.message}`);
      await api.feeds.discard(opened.value.handle.id);
    }
    publish(2, ['1.1.0', '1.0.0']);
    const args = [cli, '--data-dir', dataDir, 'outdated'];
    await measure(process.execPath, args);
    const samples = [];
    for (let i = 0; i < RUNS; i++) samples.push(await measure(process.execPath, args));
    const rows = (samples[0]?.stdout ?? '').split('\n').filter((line) => /^bench-\d+ /.test(line));
    return {
      ms: median(samples.map((s) => s.ms)),
      minMs: Math.min(...samples.map((s) => s.ms)),
      rows: rows.length,
      updates: rows.filter((row) => row.includes('1.1.0 available')).length,
    };
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await feedOutdatedBench();
  console.log(
    `outdated, ${COUNT} packages from one local feed (built CLI, ${RUNS} runs, median): ${result.ms.toFixed(0)} ms (min ${result.minMs.toFixed(0)} ms); ${result.rows} rows, ${result.updates} with an update`,
  );
}
