/**
 * A process that races for a lock file (`store/pid-lock.ts`), for the lock's multi-process tests.
 * Argv: MODE PATH [ROUNDS]. It prints `ready`, then reads START_AT (ms since the epoch) from standard
 * input, so that every racer starts together. `once`: one take at START_AT, prints
 * `taken` or `refused`, holds a taken lock until killed. `rounds`: ROUNDS critical sections through
 * `withLockFile`, each checking that no other process is inside (prints `overlap` if one is).
 */
import { mkdir, rmdir } from 'node:fs/promises';
import { withLockFile } from '../../electron/core/store/lock';
import { tryTakeLock } from '../../electron/core/store/pid-lock';

const [mode, path, rounds] = process.argv.slice(2) as [string, string, string | undefined];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startTime(): Promise<number> {
  process.stdout.write('ready\n');
  return new Promise((resolve) => {
    let text = '';
    process.stdin.on('data', (chunk) => {
      text += chunk.toString();
      if (text.includes('\n')) {
        process.stdin.pause();
        resolve(Number(text.trim()));
      }
    });
  });
}

async function main(): Promise<void> {
  const startAt = await startTime();
  // Spin the last milliseconds so that the racers leave together.
  await sleep(Math.max(0, startAt - Date.now() - 5));
  while (Date.now() < startAt) {}
  if (mode === 'once') {
    const attempt = await tryTakeLock(path);
    process.stdout.write(attempt.taken ? 'taken\n' : 'refused\n');
    if (attempt.taken) await sleep(60_000);
    return;
  }
  for (let i = 0; i < Number(rounds ?? 3); i++) {
    await withLockFile(
      path,
      async () => {
        const inside = `${path}.inside`;
        await mkdir(inside).catch(() => process.stdout.write('overlap\n'));
        await sleep(5);
        await rmdir(inside).catch(() => undefined);
      },
      30_000,
    );
  }
  process.stdout.write('done\n');
}

void main();
