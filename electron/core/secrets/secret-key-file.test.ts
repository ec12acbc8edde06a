import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { createFileKeySecretBox, fileKeyPath } from './secret-box';

const ROOT = new URL('../../../', import.meta.url).pathname;
const SEAL = join(ROOT, 'test/helpers/seal-secret.ts');
const HAS_STRACE = spawnSync('strace', ['-V']).status === 0;

/** Seals a secret in another process, under strace when `inject` is given. */
function sealInProcess(dir: string, inject?: string, only: string[] = []) {
  const node = [process.execPath, '--import', 'tsx', SEAL, dir];
  const trace = ['strace', '-f', '-qq', '-o', '/dev/null', ...only, '-e', 'trace=fsync,link,write,openat'];
  const argv = inject ? [...trace, '-e', inject, ...node] : node;
  const run = spawnSync(argv[0] as string, argv.slice(1), {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, UV_THREADPOOL_SIZE: '1' },
  });
  return { status: run.status, signal: run.signal, stdout: run.stdout.trim(), stderr: run.stderr };
}

describe('the secret key file: made once, whole', () => {
  it('a damaged key is refused as what it is, with what the person can do', async () => {
    const dir = tempDir();
    writeFileSync(fileKeyPath(dir), 'short');
    const refusal = createFileKeySecretBox(dir).encrypt('x');
    await expect(refusal).rejects.toMatchObject({ code: 'secret.key_damaged' });
    await expect(refusal).rejects.toThrow(
      `the secret key file ${fileKeyPath(dir)} is damaged (5 bytes, not a 32-byte key): the secrets sealed with it cannot be opened. Put back the key from a backup`,
    );
    expect(readFileSync(fileKeyPath(dir), 'utf8')).toBe('short');
  });

  it('12 processes making the key at once agree on one key', async () => {
    const dir = join(tempDir(), 'data');
    const racers = Array.from({ length: 12 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', SEAL, dir, '--wait'], { cwd: ROOT });
      let out = '';
      const ready = new Promise<void>((resolve) =>
        child.stdout.on('data', (chunk) => {
          out += chunk.toString();
          if (out.startsWith('ready\n')) resolve();
        }),
      );
      const done = new Promise<string>((resolve) => child.once('exit', () => resolve(out.split('\n')[1] ?? '')));
      return { child, ready, done };
    });
    await Promise.all(racers.map((r) => r.ready));
    for (const r of racers) r.child.stdin.end('go\n');
    const sealed = await Promise.all(racers.map((r) => r.done));
    const box = createFileKeySecretBox(dir);
    for (const one of sealed) expect(await box.decrypt(Buffer.from(one, 'base64'))).toBe('whsec_kept');
    expect(readdirSync(dir)).toEqual(['secret-box.key']);
  }, 60_000);

  // `write@key`: any write to the key's own name (the torn key of a create-then-write).
  const points = ['fsync:when=1', 'link:when=1', 'fsync:when=2', 'write@key:when=1', 'openat@key:when=1'];
  const faults = ['signal=SIGKILL', 'error=EIO', 'error=ENOSPC'];
  it.skipIf(!HAS_STRACE).each(points.flatMap((p) => faults.map((f) => [p, f] as [string, string])))(
    'killed or faulted at %s (%s): no key or a whole one; the next seal works; no stack trace',
    async (point, fault) => {
      const dir = join(tempDir(), 'data');
      const [call, when] = point.split(':') as [string, string];
      const [syscall, onKey] = call.split('@') as [string, string | undefined];
      const only = onKey ? ['-P', fileKeyPath(dir)] : [];
      const first = sealInProcess(dir, `inject=${syscall}:${fault}:${when}`, only);
      expect(first.stderr).not.toMatch(/\n\s+at /);
      if (existsSync(fileKeyPath(dir))) expect(readFileSync(fileKeyPath(dir))).toHaveLength(32);
      const again = sealInProcess(dir);
      expect(again.status).toBe(0);
      const key = readFileSync(fileKeyPath(dir));
      expect(key).toHaveLength(32);
      // A seal the first run answered was made with the key that stayed.
      if (first.status === 0) expect(again.stdout.length).toBeGreaterThan(0);
      expect(readdirSync(dir)).toEqual(['secret-box.key']);
      for (const run of [first, again].filter((r) => r.status === 0))
        expect(await createFileKeySecretBox(dir).decrypt(Buffer.from(run.stdout, 'base64'))).toBe('whsec_kept');
    },
    30_000,
  );
});
