/**
 * `apollia-desktop arm TRIGGER [--folder DIR] [--webhook-secret-file FILE | --webhook-secret-stdin] [--json]`
 * and `disarm TRIGGER [--json]`: the dashboard's trigger switch, through the Api's own `armTrigger`
 * and `disarmTrigger`. A file_watch trigger is armed with the folder given (checked by the Api as
 * a folder picked in the app is); a webhook gets a secret made here (printed once) or the one its
 * sender gave, read from a file or standard input, never the command line.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { TriggerView } from '../../../shared/contract/api';
import { cliDataDir, refused } from './cli-data';
import { type CliIo, EXIT } from './cli-io';
import { LOCAL_ONLY_WORDS, listenerOrigin, webhookAddress } from '../../../shared/triggers/webhook-address';
import { DEFAULT_WEBHOOK_PORT } from '../../../shared/contract/api';
import { cliApi, fileKeyNotice } from './install-command';
import { fireTimeWords } from '../../../shared/words/cron-words';
import { terminalJson } from './terminal-text';
import { PROGRAM, usageError } from './usage';
import {
  printSecretNote,
  sharedSecretLine,
  readWebhookSecret,
  WEBHOOK_SECRET_USAGE,
  webhookSecretOption,
  type WebhookSecretSource,
} from './webhook-secret-options';

/** Usage of `arm`. */
export const ARM_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] arm TRIGGER [--folder DIR] [--webhook-secret-file FILE | --webhook-secret-stdin] [--json]`,
  '',
  'Arms a trigger (TRIGGER is its id as `list` shows it, e.g. invoices/first-monday).',
  '  --folder DIR                 The folder a file_watch trigger watches (needed for one, refused for others)',
  ...WEBHOOK_SECRET_USAGE,
  '  --json                       Print the armed trigger (and a secret made here) as JSON',
  'A webhook armed without a secret option gets one made here, printed once.',
  '',
].join('\n');

/** Usage of `disarm`. */
export const DISARM_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] disarm TRIGGER [--json]`,
  '',
  "Disarms a trigger: a webhook's secret is deleted and a watched folder forgotten.",
  'To stop it firing and keep both, pause it instead (`pause TRIGGER`).',
  '  --json  Print the trigger as JSON',
  '',
].join('\n');

/** One line about a trigger's state, as `list` words it. */
export function triggerLine(trigger: TriggerView): string {
  const folder = trigger.folder ? `, watching ${trigger.folder}` : '';
  return `${trigger.id}: ${trigger.words}${folder}${trigger.next[0] ? `, next ${fireTimeWords(trigger.next[0])}` : ''}`;
}

/** Runs `arm` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  let source: WebhookSecretSource | undefined;
  let folder: string | undefined;
  let json = false;
  const triggers: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h' || arg === '--help') {
      io.stdout(ARM_USAGE);
      return EXIT.accepted;
    }
    if (arg === '--json') json = true;
    else if (arg === '--folder') {
      const value = args[++i];
      if (value === undefined || value === '') return usageError(io, '--folder needs a DIR', ARM_USAGE);
      const absolute = isAbsolute(value) ? value : resolve(io.cwd, value);
      if (!existsSync(absolute) || !statSync(absolute).isDirectory())
        return usageError(io, `no such folder: ${value}`, ARM_USAGE);
      folder = absolute;
    } else if (arg.startsWith('-')) {
      const option = webhookSecretOption(args, i, io);
      if (option === null) return usageError(io, `unknown option \`${arg.split('=')[0]}\` for arm`, ARM_USAGE);
      if ('problem' in option) return usageError(io, option.problem, ARM_USAGE);
      if (source)
        return usageError(io, 'give the secret once: --webhook-secret-file or --webhook-secret-stdin', ARM_USAGE);
      source = option.source;
      i = option.next;
    } else triggers.push(arg);
  }
  if (triggers.length !== 1)
    return usageError(
      io,
      triggers.length === 0
        ? 'arm needs a TRIGGER (as `list` shows it)'
        : `arm takes one TRIGGER, got ${triggers.length}`,
      ARM_USAGE,
    );
  const triggerId = triggers[0] as string;
  let given: string | undefined;
  if (source) {
    const read = await readWebhookSecret(source, io);
    if ('problem' in read) return usageError(io, read.problem, ARM_USAGE);
    given = read.secret;
  }
  const api = cliApi(io, folder === undefined ? [] : [folder]);
  let folderId: string | undefined;
  if (folder !== undefined) {
    // The folder goes through the Api's own pick, checked as one picked in the app.
    const picked = await api.pickWatchFolder();
    if (!picked.ok) return refused(io, picked.error);
    folderId = picked.value?.folderId;
  }
  const result = await api.armTrigger({
    triggerId,
    ...(folderId !== undefined ? { folderId } : {}),
    ...(given !== undefined ? { webhookSecret: { kind: 'given', secret: given } } : {}),
  });
  if (!result.ok) return refused(io, result.error);
  if (given !== undefined) printSecretNote(io, given);
  const { trigger, webhookSecret, webhookSecretGiven, webhookSecretSharedWarning } = result.value;
  if (json) {
    io.stdout(`${terminalJson({ trigger, webhookSecret, webhookSecretGiven, webhookSecretSharedWarning })}\n`);
    return EXIT.accepted;
  }
  io.stdout(`Armed ${triggerLine(trigger)}\n`);
  if (webhookSecret !== null)
    io.stdout(`  Webhook secret for ${trigger.id} (shown once, keep it now): ${webhookSecret}\n`);
  if (webhookSecretGiven)
    io.stdout(`  Webhook secret for ${trigger.id}: the one your sender gave, kept (it is never shown).\n`);
  io.stdout(sharedSecretLine(webhookSecretSharedWarning));
  if (trigger.type === 'webhook') {
    // Where its sender posts, as `serve` will listen (the port of Settings, else the default).
    const settings = await api.settings();
    const port = settings.ok ? settings.value.webhookPort.port : DEFAULT_WEBHOOK_PORT;
    io.stdout(`  Its address: ${webhookAddress(listenerOrigin(port), trigger.id)} (${LOCAL_ONLY_WORDS})\n`);
    io.stdout(fileKeyNotice(cliDataDir(io)));
  }
  io.stdout('  It fires only while a trigger host runs: the app, or `serve`.\n');
  return EXIT.accepted;
}

/** Runs `disarm` with the arguments after the command name. */
export async function runDisarm(args: string[], io: CliIo): Promise<number> {
  let json = false;
  const triggers: string[] = [];
  for (const arg of args) {
    if (arg === '-h' || arg === '--help') {
      io.stdout(DISARM_USAGE);
      return EXIT.accepted;
    }
    if (arg === '--json') json = true;
    else if (arg.startsWith('-')) return usageError(io, `unknown option \`${arg}\` for disarm`, DISARM_USAGE);
    else triggers.push(arg);
  }
  if (triggers.length !== 1)
    return usageError(
      io,
      triggers.length === 0
        ? 'disarm needs a TRIGGER (as `list` shows it)'
        : `disarm takes one TRIGGER, got ${triggers.length}`,
      DISARM_USAGE,
    );
  const result = await cliApi(io).disarmTrigger({ triggerId: triggers[0] as string });
  if (!result.ok) return refused(io, result.error);
  const trigger = result.value;
  if (json) {
    io.stdout(`${terminalJson(trigger)}\n`);
    return EXIT.accepted;
  }
  io.stdout(
    `Disarmed ${trigger.id}${trigger.type === 'webhook' ? ': its signing secret was deleted (arming it again makes a new one)' : ''}.\n`,
  );
  return EXIT.accepted;
}
