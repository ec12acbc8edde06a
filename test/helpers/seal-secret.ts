/**
 * A process that seals one secret with the file-key box of DIR (`secrets/secret-box.ts`), for the
 * key file's multi-process and kill-point tests. Argv: DIR [--wait]. With `--wait` it prints `ready`
 * and seals once a line arrives on standard input, so that racers start together. Prints the sealed
 * bytes in base64, or the error's message on standard error (exit 1).
 */
import { createFileKeySecretBox } from '../../electron/core/secrets/secret-box';

const [dir, wait] = process.argv.slice(2) as [string, string | undefined];

async function main(): Promise<void> {
  if (wait === '--wait') {
    process.stdout.write('ready\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    process.stdin.pause();
  }
  try {
    const sealed = await createFileKeySecretBox(dir).encrypt('whsec_kept');
    process.stdout.write(`${Buffer.from(sealed).toString('base64')}\n`);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}

void main();
