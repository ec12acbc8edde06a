/**
 * `apollia-desktop rotate TRIGGER [--webhook-secret-file FILE | --webhook-secret-stdin]`:
 * replaces the secret of an armed webhook trigger (`pkg/name`), in the same store the app uses.
 * Without an option a new secret is made and printed once; with one, the secret the sender gave is
 * read from the file or standard input (never the command line), checked and kept, never printed.
 */
import { type CliIo, EXIT } from './cli-io';
import { cliApi, fileKeyNotice } from './install-command';
import { cliDataDir, refused } from './cli-data';
import { PROGRAM, usageError } from './usage';
import {
  printSecretNote,
  sharedSecretLine,
  readWebhookSecret,
  WEBHOOK_SECRET_USAGE,
  webhookSecretOption,
  type WebhookSecretSource,
} from './webhook-secret-options';

/** Usage of this command. */
export const ROTATE_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] rotate TRIGGER [--webhook-secret-file FILE | --webhook-secret-stdin]`,
  '',
  'Replaces the secret of an armed webhook trigger (TRIGGER is its id, package/trigger, as `list` shows it).',
  'Without an option, a new secret is made here and printed once.',
  ...WEBHOOK_SECRET_USAGE,
  'A secret is never given on the command line (others could see it in the process list).',
  '',
].join('\n');

/** Runs `rotate` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  let source: WebhookSecretSource | undefined;
  const triggers: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h' || arg === '--help') {
      io.stdout(ROTATE_USAGE);
      return EXIT.accepted;
    }
    if (arg.startsWith('-')) {
      const option = webhookSecretOption(args, i, io);
      if (option === null) return usageError(io, `unknown option \`${arg.split('=')[0]}\` for rotate`, ROTATE_USAGE);
      if ('problem' in option) return usageError(io, option.problem, ROTATE_USAGE);
      if (source)
        return usageError(io, 'give the secret once: --webhook-secret-file or --webhook-secret-stdin', ROTATE_USAGE);
      source = option.source;
      i = option.next;
    } else triggers.push(arg);
  }
  if (triggers.length !== 1)
    return usageError(
      io,
      triggers.length === 0
        ? 'rotate needs a TRIGGER (package/trigger)'
        : `rotate takes one TRIGGER, got ${triggers.length}`,
      ROTATE_USAGE,
    );
  const triggerId = triggers[0] as string;
  let given: string | undefined;
  if (source) {
    const read = await readWebhookSecret(source, io);
    if ('problem' in read) return usageError(io, read.problem, ROTATE_USAGE);
    given = read.secret;
  }
  const result = await cliApi(io).rotateWebhookSecret({
    triggerId,
    ...(given !== undefined ? { webhookSecret: { kind: 'given', secret: given } } : {}),
  });
  if (!result.ok) return refused(io, result.error);
  if (given !== undefined) printSecretNote(io, given);
  if (result.value.webhookSecret !== null)
    io.stdout(`New webhook secret for ${triggerId} (shown once, keep it now): ${result.value.webhookSecret}\n`);
  else {
    io.stdout(`Webhook secret for ${triggerId} replaced by the one your sender gave (it is never shown).\n`);
    io.stdout(sharedSecretLine(result.value.webhookSecretSharedWarning));
  }
  io.stdout(fileKeyNotice(cliDataDir(io)));
  return EXIT.accepted;
}
