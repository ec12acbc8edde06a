/**
 * The commands the kill-point and fault sweep (`scripts/faults.mjs`, DESIGN.md "Commit points") runs, each with the
 * setup that makes its "old" state, and the fixtures they use (packed once per sweep).
 *
 * A spec: `setup(work)` lists the steps that make the old state — a CLI argument list, or a function `(data, work)` that
 * changes files by hand (a package file edited, as a person or a program might); `args(work, data)` is the command
 * swept; `env(work)` (optional) is the environment of the command, its checks and its rerun, not of the setup (a trial
 * policy that would refuse the setup's arming); `check` (optional) is the command that shows the store loads, `list`
 * unless that command would itself do the work swept (it notices a changed file and a new policy: `mcp list` loads
 * the store and notices neither).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFeed } from './faults-feed.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const CLI = join(ROOT, 'out/cli/cli.cjs');

/** The key `trust add` is swept with: a minisign public key of this id (never used to verify). */
export const KEY_ID = '1111111111111111';

const install = (w, file = 'invoices.apo', ...more) => ['install', join(w, file), '--yes', ...more];
const firstAgent = (data) => Object.keys(JSON.parse(readFileSync(join(data, 'state.json'), 'utf8')).agents)[0];
const FEED = 'https://example.com/apollia/feed.json';
const COLLECTOR = 'https://otel.example.com/v1/logs';
const RELEASE_NOTES = ['apply', 'release-notes', '--param', 'owner=acme', '--param', 'repo=shop', '--yes'];

/** A package file changed on disk after install (what the integrity check finds). */
function changeInstalledFile(data) {
  appendFileSync(join(data, 'packages', 'invoices', '1.2.0', 'tools', 'extract.py'), '\n# changed here\n');
}

/** The sweep's feed (`faults-feed.mjs`): its url, from the port its server wrote. */
const feedUrl = (w) => `http://127.0.0.1:${readFileSync(join(w, 'feed.port'), 'utf8')}/feed.json`;
/** Invoices 1.2.0 installed from the feed, its publisher's key trusted first. */
const fromFeed = (w) => [
  ['trust', 'add', join(w, 'publisher.pub'), '--name', 'Example Accounting'],
  ['install', '--feed', feedUrl(w), 'invoices', '--version', '1.2.0', '--yes'],
];

/** The trial policy of the policy pause: no scheduled trigger may fire. */
const policyEnv = (w) => ({ APOLLIA_POLICY_FILE: join(w, 'no-schedules.json') });

/** The commands swept: a setup (the "old" state) and the command that makes the "new" one. */
export const SWEPT = {
  'mcp add': { setup: () => [], args: () => ['mcp', 'add', 'slack', '--command', 'slack-mcp'] },
  'mcp remove': {
    setup: () => [['mcp', 'add', 'slack', '--command', 'slack-mcp']],
    args: () => ['mcp', 'remove', 'slack'],
  },
  install: { setup: () => [], args: (w) => install(w) },
  uninstall: { setup: (w) => [install(w)], args: () => ['uninstall', 'invoices'] },
  arm: { setup: (w) => [install(w)], args: () => ['arm', 'invoices/first-monday'] },
  disarm: {
    setup: (w) => [install(w), ['arm', 'invoices/first-monday']],
    args: () => ['disarm', 'invoices/first-monday'],
  },
  grant: {
    setup: (w) => [install(w)],
    args: () => ['grant', 'invoices/invoice-clerk', 'pkg:invoices/extract_totals'],
  },
  revoke: {
    setup: (w) => [install(w), ['grant', 'invoices/invoice-clerk', 'pkg:invoices/extract_totals']],
    args: () => ['revoke', 'invoices/invoice-clerk', 'pkg:invoices/extract_totals'],
  },
  update: { setup: (w) => [install(w)], args: (w) => install(w, 'invoices-1.3.0.apo') },
  // The way back after the integrity check: the changed file found (and the trigger paused) first, then reinstalled.
  reinstall: {
    setup: (w) => [install(w, 'invoices.apo', '--arm', 'first-monday'), changeInstalledFile, ['list']],
    args: (w) => ['reinstall', join(w, 'invoices.apo'), '--yes'],
  },
  // A webhook trigger armed (its secret made here), then its secret replaced.
  rotate: {
    setup: (w) => [install(w, 'watcher.apo', '--arm', 'on-call')],
    args: () => ['rotate', 'watcher/on-call'],
  },
  // The integrity check's pause: a package file changed on disk, noticed by `list` (the dashboard's check).
  'integrity pause': {
    setup: (w) => [install(w, 'invoices.apo', '--arm', 'first-monday'), changeInstalledFile],
    args: () => ['list'],
    check: ['mcp', 'list'],
  },
  // The policy's pause: a trial policy forbids the armed schedule; `list` notices it (recorded, then remembered).
  'policy pause': {
    setup: (w) => [install(w, 'invoices.apo', '--arm', 'first-monday')],
    env: policyEnv,
    args: () => ['list'],
    check: ['mcp', 'list'],
  },
  // The settings the CLI changes: the feeds followed (a package's update mode needs one installed from a feed).
  'feeds add': { setup: () => [], args: () => ['feeds', 'add', FEED] },
  'feeds remove': { setup: () => [['feeds', 'add', FEED]], args: () => ['feeds', 'remove', FEED] },
  // The feed's doors: an update fetched from the feed, the way back to the version kept, and how a package follows it.
  'update from feed': { setup: fromFeed, args: () => ['update', 'invoices', '--yes'] },
  rollback: {
    setup: (w) => [...fromFeed(w), ['update', 'invoices', '--yes']],
    args: () => ['rollback', 'invoices', '--yes'],
  },
  'update-mode': { setup: fromFeed, args: () => ['update-mode', 'invoices', 'hold'] },
  // The person's collector for the activity record: named, then removed (each a change with its decision).
  'activity collector': { setup: () => [], args: () => ['activity', 'collector', COLLECTOR] },
  'activity collector off': {
    setup: () => [['activity', 'collector', COLLECTOR]],
    args: () => ['activity', 'collector', '--off'],
  },
  apply: { setup: () => [], args: () => RELEASE_NOTES },
  remove: { setup: () => [RELEASE_NOTES], args: (_w, data) => ['remove', firstAgent(data)] },
  pause: {
    setup: (w) => [install(w), ['arm', 'invoices/first-monday']],
    args: () => ['pause', 'invoices/first-monday'],
  },
  resume: {
    setup: (w) => [install(w), ['arm', 'invoices/first-monday'], ['pause', 'invoices/first-monday']],
    args: () => ['resume', 'invoices/first-monday'],
  },
  approvals: { setup: () => [RELEASE_NOTES], args: (_w, data) => ['approvals', firstAgent(data), 'never'] },
  'trust add': { setup: () => [], args: (w) => ['trust', 'add', join(w, 'example.pub'), '--name', 'Example'] },
  'trust remove': {
    setup: (w) => [['trust', 'add', join(w, 'example.pub'), '--name', 'Example']],
    args: () => ['trust', 'remove', KEY_ID, '--yes'],
  },
};

function pack(dir, out) {
  const r = spawnSync(process.execPath, [CLI, 'pack', dir, '-o', out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pack failed: ${r.stdout}${r.stderr}`);
}

/**
 * The sweep's fixtures in `work`: invoices 1.2.0 and 1.3.0 (the update), watcher (a webhook trigger), a trusted key's
 * file, the trial policy that forbids schedules, and the publisher's feed of both invoices (served until `stop()`,
 * which this answers).
 */
export function writeFixtures(work) {
  pack(join(ROOT, 'test/fixtures/apo/invoices'), join(work, 'invoices.apo'));
  pack(join(ROOT, 'test/fixtures/apo/watcher'), join(work, 'watcher.apo'));
  const next = join(work, 'invoices-1.3.0');
  cpSync(join(ROOT, 'test/fixtures/apo/invoices'), next, { recursive: true });
  const toml = join(next, 'apollia.toml');
  writeFileSync(toml, readFileSync(toml, 'utf8').replace('version = "1.2.0"', 'version = "1.3.0"'));
  pack(next, join(work, 'invoices-1.3.0.apo'));
  const key = Buffer.concat([Buffer.from('Ed'), Buffer.alloc(8, 0x11), Buffer.alloc(32, 0x22)]);
  writeFileSync(
    join(work, 'example.pub'),
    `untrusted comment: minisign public key ${KEY_ID}\n${key.toString('base64')}\n`,
  );
  writeFileSync(policyEnv(work).APOLLIA_POLICY_FILE, JSON.stringify({ version: 1, triggers: { schedule: false } }));
  return startFeed(work).stop;
}
