import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/pack';
import { editedPackage, tempDir, treeHash } from '../../../test/helpers/test-api';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { pastedWebhookSecret } from '../../../test/helpers/webhook-secrets';
import { ARGV_SECRET_REFUSAL } from './webhook-secret-options';

const WATCHER = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;
const HOOK = 'watcher/on-call';
const pasted = pastedWebhookSecret;

async function cli(argv: string[], stdin?: string) {
  return runCliCaptured(argv, stdin !== undefined ? { readStdin: async () => stdin } : {});
}

function watcherApo(): string {
  const path = join(tempDir('apollia-cli-apo-'), 'watcher.apo');
  writeFileSync(path, packFolder(WATCHER));
  return path;
}

function secretFile(text: string): string {
  const path = join(tempDir('apollia-cli-secret-'), 'secret.txt');
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

function state(dataDir: string) {
  return JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
}

async function opened(dataDir: string): Promise<string> {
  const s = state(dataDir);
  return createFileKeySecretBox(dataDir).decrypt(Buffer.from(s.webhookSecrets[s.triggers[HOOK].secretRef], 'base64'));
}

/** No file of the data folder holds `secret` (whole or its key) in clear. */
function clearIn(dataDir: string, secret: string): string[] {
  return readdirSync(dataDir, { recursive: true, encoding: 'utf8' })
    .map((rel) => join(dataDir, rel))
    .filter((p) => statSync(p).isFile() && readFileSync(p, 'latin1').includes(secret.slice(6)));
}

describe('install --arm TRIGGER --webhook-secret-file / --webhook-secret-stdin', () => {
  it('keeps the secret read from a file (a trailing newline trimmed), sealed, never printed; says where the key file is', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const secret = pasted();
    const done = await cli([
      '--data-dir',
      dataDir,
      'install',
      watcherApo(),
      '--yes',
      '--arm',
      'on-call',
      '--webhook-secret-file',
      secretFile(`${secret}\n`),
    ]);
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(done.stdout).toContain(
      `  Webhook secret for ${HOOK}: the one your sender gave, kept (it is never shown).\n`,
    );
    expect(done.stdout).toContain(`the key is ${join(dataDir, 'secret-box.key')}`);
    expect(done.stdout).not.toContain(secret.slice(6));
    expect(state(dataDir).triggers[HOOK]).toMatchObject({ armed: true, secretOrigin: 'given' });
    expect(await opened(dataDir)).toBe(secret);
    expect(clearIn(dataDir, secret)).toEqual([]);
    const list = await cli(['--data-dir', dataDir, 'list']);
    expect(list.stdout).toMatch(
      / {2}armed {4}watcher\/on-call: On a signed HTTP call; secret given by your sender, set \d{4}-\d\d-\d\dT[\d:.]+Z\n/,
    );
  });

  it('reads the secret from standard input', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const secret = pasted(64);
    const done = await cli(
      ['--data-dir', dataDir, 'install', watcherApo(), '--yes', '--arm', 'on-call', '--webhook-secret-stdin'],
      `${secret}\r\n`,
    );
    expect(done.code).toBe(0);
    expect(done.stdout).not.toContain(secret.slice(6));
    expect(await opened(dataDir)).toBe(secret);
  });

  it('refuses a secret given on the command line as a usage error saying why, never echoing it, writing nothing', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const secret = pasted();
    for (const argv of [
      ['--arm', 'on-call', '--webhook-secret', secret],
      ['--arm', 'on-call', `--webhook-secret=${secret}`],
    ]) {
      const done = await cli(['--data-dir', dataDir, 'install', watcherApo(), '--yes', ...argv]);
      expect(done.code).toBe(2);
      expect(done.stderr).toMatch(
        new RegExp(`^apollia-desktop: ${ARGV_SECRET_REFUSAL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
      expect(done.stderr).toContain('shows in the process list');
      expect(done.stderr + done.stdout).not.toContain(secret.slice(6));
    }
    expect(() => readdirSync(dataDir)).toThrow();
  });

  it('usage errors: a secret option before any --arm, a missing file, two stdin secrets', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const apo = watcherApo();
    const before = await cli(
      ['--data-dir', dataDir, 'install', apo, '--yes', '--webhook-secret-stdin', '--arm', 'on-call'],
      pasted(),
    );
    expect([before.code, before.stderr.split('\n')[0]]).toEqual([
      2,
      'apollia-desktop: --webhook-secret-stdin goes right after the --arm TRIGGER it is the secret of',
    ]);
    const missing = await cli([
      '--data-dir',
      dataDir,
      'install',
      apo,
      '--yes',
      '--arm',
      'on-call',
      '--webhook-secret-file',
      '/nonexistent/secret.txt',
    ]);
    expect([missing.code, missing.stderr.split('\n')[0]]).toEqual([
      2,
      'apollia-desktop: no such file: /nonexistent/secret.txt',
    ]);
    const noFile = await cli([
      '--data-dir',
      dataDir,
      'install',
      apo,
      '--yes',
      '--arm',
      'on-call',
      '--webhook-secret-file',
    ]);
    expect([noFile.code, noFile.stderr.split('\n')[0]]).toEqual([
      2,
      'apollia-desktop: --webhook-secret-file needs a FILE',
    ]);
    const twice = await cli(
      [
        '--data-dir',
        dataDir,
        'install',
        apo,
        '--yes',
        '--arm',
        'on-call',
        '--webhook-secret-stdin',
        '--webhook-secret-stdin',
      ],
      pasted(),
    );
    expect([twice.code, twice.stderr.split('\n')[0]]).toEqual([
      2,
      'apollia-desktop: trigger on-call was given two secrets',
    ]);
    expect(() => readdirSync(dataDir)).toThrow();
  });

  it('a bad secret is refused (exit 1) with the check’s message, and nothing is installed', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const short = `whsec_${randomBytes(16).toString('base64')}`;
    const done = await cli([
      '--data-dir',
      dataDir,
      'install',
      watcherApo(),
      '--yes',
      '--arm',
      'on-call',
      '--webhook-secret-file',
      secretFile(short),
    ]);
    expect([done.code, done.stderr]).toEqual([
      1,
      'apollia-desktop: The secret your sender gave was not kept: The key is 16 bytes: Standard Webhooks wants 24 to 64. (at decisions.triggers.on-call.webhookSecret)\n',
    ]);
    expect(done.stdout).toBe('');
    expect(existsSync(join(dataDir, 'state.json')) ? state(dataDir).packages : {}).toEqual({});
    expect(existsSync(join(dataDir, 'packages'))).toBe(false);
  });
});

describe('rotate TRIGGER', () => {
  async function armedStore() {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const done = await cli(['--data-dir', dataDir, 'install', watcherApo(), '--yes', '--arm', 'on-call']);
    expect(done.code).toBe(0);
    return dataDir;
  }

  it('without an option makes a new secret, printed once; with --webhook-secret-file or --webhook-secret-stdin keeps the sender’s', async () => {
    const dataDir = await armedStore();
    const made = await cli(['--data-dir', dataDir, 'rotate', HOOK]);
    expect(made.code).toBe(0);
    const shown =
      /New webhook secret for watcher\/on-call \(shown once, keep it now\): (\S+)\n/.exec(made.stdout)?.[1] ?? '';
    expect(await opened(dataDir)).toBe(shown);
    expect(made.stdout).toContain(`the key is ${join(dataDir, 'secret-box.key')}`);
    expect(state(dataDir).triggers[HOOK].secretOrigin).toBe('made');

    const fromFile = pasted(24);
    const file = await cli([
      '--data-dir',
      dataDir,
      'rotate',
      HOOK,
      '--webhook-secret-file',
      secretFile(` ${fromFile} \n`),
    ]);
    expect([file.code, file.stderr]).toEqual([0, '']);
    expect(file.stdout).toMatch(
      /^Webhook secret for watcher\/on-call replaced by the one your sender gave \(it is never shown\)\.\n {2}The secret is stored encrypted with a key file/,
    );
    expect(file.stdout).not.toContain(fromFile.slice(6));
    expect(await opened(dataDir)).toBe(fromFile);
    expect(state(dataDir).triggers[HOOK].secretOrigin).toBe('given');

    const fromStdin = pasted(32);
    const stdin = await cli(['--data-dir', dataDir, 'rotate', HOOK, '--webhook-secret-stdin'], fromStdin);
    expect(stdin.code).toBe(0);
    expect(await opened(dataDir)).toBe(fromStdin);
    expect(clearIn(dataDir, fromStdin)).toEqual([]);
  });

  it('a bad secret or a secret on the command line changes nothing', async () => {
    const dataDir = await armedStore();
    const before = treeHash(dataDir);
    const spaced = await cli(
      ['--data-dir', dataDir, 'rotate', HOOK, '--webhook-secret-stdin'],
      `whsec_${randomBytes(16).toString('base64')} ${randomBytes(16).toString('base64')}`,
    );
    expect([spaced.code, spaced.stderr]).toEqual([
      1,
      'apollia-desktop: The secret your sender gave was not kept: The secret has a space or line break inside it: copy it again as one piece, with nothing between its characters. (at webhookSecret)\n',
    ]);
    const stripe = await cli(
      ['--data-dir', dataDir, 'rotate', HOOK, '--webhook-secret-stdin'],
      `whsec_${randomBytes(32).toString('hex')}`,
    );
    expect(stripe.code).toBe(1);
    expect(stripe.stderr).toMatch(
      /^apollia-desktop: The secret your sender gave was not kept: This looks like a Stripe secret/,
    );
    const argv = await cli(['--data-dir', dataDir, 'rotate', HOOK, '--webhook-secret', pasted()]);
    expect([argv.code, argv.stderr.split('\n')[0]]).toEqual([2, `apollia-desktop: ${ARGV_SECRET_REFUSAL}`]);
    const unknown = await cli(['--data-dir', dataDir, 'rotate', 'watcher/nope']);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      'apollia-desktop: There is no trigger `watcher/nope` on this computer.\n',
    ]);
    const none = await cli(['--data-dir', dataDir, 'rotate']);
    expect([none.code, none.stderr.split('\n')[0]]).toEqual([
      2,
      'apollia-desktop: rotate needs a TRIGGER (package/trigger)',
    ]);
    expect(treeHash(dataDir)).toBe(before);
  });

  it('a Stripe dashboard-shaped secret is kept with a note on standard error', async () => {
    const dataDir = await armedStore();
    const done = await cli(
      ['--data-dir', dataDir, 'rotate', HOOK, '--webhook-secret-stdin'],
      'whsec_5WbX5kEWLlfzsGNjH64I8lOOqUB6e8FH',
    );
    expect(done.code).toBe(0);
    expect(done.stderr).toMatch(/^apollia-desktop: note: This has the shape of a Stripe signing secret/);
  });
});

describe('one secret on two triggers, from the CLI', () => {
  /** The watcher package under another name (its triggers `<name>/…`), packed. */
  function twinApo(name: string): string {
    const dir = editedPackage(WATCHER, (toml) =>
      toml.replace('name = "watcher"', `name = "${name}"`).replaceAll('pkg:watcher/', `pkg:${name}/`),
    );
    const path = join(tempDir('apollia-cli-apo-'), `${name}.apo`);
    writeFileSync(path, packFolder(dir));
    return path;
  }

  it('install --arm and arm with a secret another trigger holds print a warning naming it (never the secret); a secret of its own prints none', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const secret = pasted();
    const first = await cli(
      ['--data-dir', dataDir, 'install', watcherApo(), '--yes', '--arm', 'on-call', '--webhook-secret-stdin'],
      secret,
    );
    expect([first.code, first.stdout.includes('Warning:')]).toEqual([0, false]);
    const twin = await cli(
      ['--data-dir', dataDir, 'install', twinApo('twin'), '--yes', '--arm', 'on-call', '--webhook-secret-stdin'],
      secret,
    );
    expect(twin.code).toBe(0);
    expect(twin.stdout).toContain(
      '  Webhook secret for twin/on-call: the one your sender gave, kept (it is never shown).\n  Warning: This secret is also set on trigger `watcher/on-call` of agent `watcher/tidy`: a delivery signed for one is accepted by the other too (the signature does not cover the address), and each delivery only once over all of them, since replays are refused per secret. Give each trigger its own secret.\n',
    );
    await cli(['--data-dir', dataDir, 'install', twinApo('third'), '--yes']);
    const armed = await cli(['--data-dir', dataDir, 'arm', 'third/on-call', '--webhook-secret-stdin'], secret);
    expect(armed.code).toBe(0);
    expect(armed.stdout).toContain(
      '  Warning: This secret is also set on trigger `twin/on-call` of agent `twin/tidy` and trigger `watcher/on-call` of agent `watcher/tidy`: a delivery signed for one is accepted by the others too',
    );
    const json = await cli(['--data-dir', dataDir, 'arm', 'third/on-call', '--webhook-secret-stdin', '--json'], secret);
    expect(JSON.parse(json.stdout).webhookSecretSharedWarning).toMatch(
      /^This secret is also set on trigger `twin\/on-call`/,
    );
    const own = await cli(['--data-dir', dataDir, 'arm', 'third/on-call', '--webhook-secret-stdin'], pasted());
    expect([own.code, own.stdout.includes('Warning:')]).toEqual([0, false]);
    for (const done of [first, twin, armed, json, own])
      expect(done.stdout + done.stderr).not.toContain(secret.slice(6));
  });
});
