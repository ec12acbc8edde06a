/**
 * The publisher's feed the sweep's feed commands (`update`, `rollback`, `update-mode`) install from: invoices 1.2.0 and
 * 1.3.0 listed in one `feed.json`, signed by the real `minisign` with a key made here, served from `work/feed/` by a
 * static file server on 127.0.0.1 in a child process (the sweep's own process blocks in `spawnSync` while each
 * command runs, so the server cannot live in it).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Serves the folder argv[1] on a free loopback port and writes the port to argv[2]. */
const SERVER = `
const { createServer } = require('node:http');
const { readFileSync, writeFileSync } = require('node:fs');
const { join, basename } = require('node:path');
const [dir, portFile] = process.argv.slice(1);
const server = createServer((req, res) => {
  let bytes;
  try { bytes = readFileSync(join(dir, basename(new URL(req.url, 'http://x').pathname))); }
  catch { res.writeHead(404).end('not found'); return; }
  res.writeHead(200, { 'content-length': String(bytes.length) }).end(bytes);
});
server.listen(0, '127.0.0.1', () => writeFileSync(portFile, String(server.address().port)));
`;

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * Starts the feed for the archives `work/invoices.apo` (1.2.0) and `work/invoices-1.3.0.apo`; answers its url, the
 * publisher's public key file (to `trust add`) and `stop()`.
 */
export function startFeed(work) {
  const dir = join(work, 'feed');
  mkdirSync(dir, { recursive: true });
  cpSync(join(work, 'invoices.apo'), join(dir, 'invoices-1.2.0.apo'));
  cpSync(join(work, 'invoices-1.3.0.apo'), join(dir, 'invoices-1.3.0.apo'));
  const portFile = join(work, 'feed.port');
  const child = spawn(process.execPath, ['-e', SERVER, dir, portFile], { stdio: 'ignore' });
  for (let waited = 0; !existsSync(portFile) || readFileSync(portFile, 'utf8') === ''; waited += 50) {
    if (waited > 10_000) throw new Error('the sweep’s feed server did not start');
    spawnSync('sleep', ['0.05']);
  }
  const url = `http://127.0.0.1:${readFileSync(portFile, 'utf8')}/feed.json`;
  const versions = ['1.2.0', '1.3.0'].map((version) => {
    const bytes = readFileSync(join(dir, `invoices-${version}.apo`));
    return { version, url: `invoices-${version}.apo`, sha256: sha256(bytes), size: bytes.length, status: 'active' };
  });
  const feed = {
    apolliaFeed: 1,
    url,
    publisher: 'Example Accounting',
    serial: 1,
    expires: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    packages: { invoices: { versions } },
  };
  writeFileSync(join(dir, 'feed.json'), JSON.stringify(feed, null, 2));
  const publicKey = join(work, 'publisher.pub');
  const secretKey = join(work, 'publisher.key');
  execFileSync('minisign', ['-G', '-W', '-p', publicKey, '-s', secretKey], { stdio: 'pipe' });
  execFileSync('minisign', ['-S', '-s', secretKey, '-m', join(dir, 'feed.json')], { stdio: 'pipe', input: '' });
  return { url, publicKey, stop: () => child.kill() };
}
