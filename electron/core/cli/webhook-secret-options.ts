/**
 * The CLI's webhook secret options, shared by `install` and `rotate`: a secret the
 * sender gave is read from a file (`--webhook-secret-file FILE`) or standard input
 * (`--webhook-secret-stdin`), never from the command line, where the process list and the shell's
 * history would show it: `--webhook-secret VALUE` is refused as a usage error that says why, and
 * never repeats the value. The secret itself is checked by the Api (`checkWebhookSecret`).
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { checkWebhookSecret } from '../../../shared/triggers/webhook-secret';
import { MAX_WEBHOOK_SECRET_TEXT } from '../../../shared/base/limits';
import type { CliIo } from './cli-io';
import { PROGRAM } from './usage';

/** The usage lines of the two options. */
export const WEBHOOK_SECRET_USAGE = [
  '  --webhook-secret-file FILE  Use the secret your sender gave (whsec_…), read from FILE, instead of making one',
  '  --webhook-secret-stdin      The same, read from standard input (e.g. pasted, then Ctrl-D)',
];

/** Where a given secret is read from. */
export type WebhookSecretSource = { from: 'file'; path: string } | { from: 'stdin' };

/** Why `--webhook-secret` is refused: said in full, so the user knows what to do instead. */
export const ARGV_SECRET_REFUSAL =
  '--webhook-secret takes no value on the command line: a secret there shows in the process list and stays in your shell history. Put it in a file and use --webhook-secret-file FILE, or pipe it in with --webhook-secret-stdin';

/**
 * Reads one webhook secret option at `args[i]`, if it is one: `{ source, next }` (the index of its
 * last argument), a usage problem, or null when `args[i]` is another option.
 */
export function webhookSecretOption(
  args: string[],
  i: number,
  io: CliIo,
): { source: WebhookSecretSource; next: number } | { problem: string } | null {
  const arg = args[i] as string;
  if (arg === '--webhook-secret' || arg.startsWith('--webhook-secret=')) return { problem: ARGV_SECRET_REFUSAL };
  if (arg === '--webhook-secret-stdin') return { source: { from: 'stdin' }, next: i };
  if (arg === '--webhook-secret-file' || arg.startsWith('--webhook-secret-file=')) {
    const value = arg === '--webhook-secret-file' ? args[i + 1] : arg.slice('--webhook-secret-file='.length);
    if (value === undefined || value === '') return { problem: '--webhook-secret-file needs a FILE' };
    return {
      source: { from: 'file', path: isAbsolute(value) ? value : resolve(io.cwd, value) },
      next: arg === '--webhook-secret-file' ? i + 1 : i,
    };
  }
  return null;
}

/** Standard input as text: the injected reader, else this process's stdin. */
export async function stdinText(io: CliIo): Promise<string> {
  if (io.readStdin) return io.readStdin();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > MAX_WEBHOOK_SECRET_TEXT) break;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The secret text of `source` (outer whitespace is the Api's to trim), or a usage problem: a file
 * that is missing, not a file, or bigger than any secret. Never says what the file holds.
 */
export async function readWebhookSecret(
  source: WebhookSecretSource,
  io: CliIo,
): Promise<{ secret: string } | { problem: string }> {
  if (source.from === 'stdin') {
    const text = await stdinText(io);
    if (text.length > MAX_WEBHOOK_SECRET_TEXT)
      return {
        problem: `standard input holds more than ${MAX_WEBHOOK_SECRET_TEXT} characters: that is not a webhook secret`,
      };
    return { secret: text };
  }
  const info = await stat(source.path).catch(() => null);
  if (!info) return { problem: `no such file: ${source.path}` };
  if (!info.isFile()) return { problem: `not a file: ${source.path}` };
  if (info.size > MAX_WEBHOOK_SECRET_TEXT)
    return { problem: `${source.path} is ${info.size} bytes: a webhook secret file holds only the secret` };
  return { secret: await readFile(source.path, 'utf8') };
}

/** Prints the check's note (a Stripe-shaped secret) for an accepted given secret, to standard error. */
export function printSecretNote(io: CliIo, secret: string): void {
  const checked = checkWebhookSecret(secret);
  if (checked.ok && checked.note) io.stderr(`${PROGRAM}: note: ${checked.note}\n`);
}

/**
 * The line under a kept secret when the same secret is also set on other triggers (the Api's warning, printed as it
 * is: what it does, naming them, never the secret).
 */
export function sharedSecretLine(warning: string | null): string {
  return warning === null ? '' : `  Warning: ${warning}\n`;
}
