/**
 * `apollia-desktop install PATH [--yes] [--grant ENTRY …] [--arm TRIGGER[=FOLDER] …] [--allow-downgrade] [--accept-key-change]`:
 * the consent form, headless, over the same store as the app (DESIGN.md "Consent, install, apply").
 *
 * Without `--yes` it prints what the package asks (the inspect text) and installs nothing. With
 * `--yes` it accepts the package's proposed access (or, when `--grant` is given, exactly the
 * entries named) and arms nothing but the triggers named by `--arm`; a file_watch trigger takes
 * its folder as `--arm TRIGGER=FOLDER`. A webhook trigger armed here gets a secret made here
 * (printed once), or the one its sender gave: `--arm TRIGGER --webhook-secret-file FILE` (or
 * `--webhook-secret-stdin`), never the secret itself on the command line (issue 18). A refused
 * package leaves the data folder untouched.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { SourceInspection } from '../../../shared/api';
import type { ApoDetails, ApoSummary } from '../../../shared/inspection';
import { publisherStatus } from '../../../shared/verdict';
import { proposedConsent, type ConsentDecision } from '../../../shared/consent';
import { createApi, type CoreApi } from '../api';
import { createFileKeySecretBox, fileKeyPath } from '../secret-box';
import { cliDataDir, refused } from './cli-data';
import { type CliIo, EXIT } from './cli-io';
import { formatInspection } from './inspection-text';
import { PROGRAM, usageError } from './usage';
import { printSecretNote, readWebhookSecret, WEBHOOK_SECRET_USAGE, webhookSecretOption, type WebhookSecretSource } from './webhook-secret-options';

/**
 * What the CLI prints whenever it has sealed a secret: it has no OS keychain (Electron's
 * safeStorage is out of its reach), so it seals with a key file kept beside the data, and says
 * so and where that key is.
 */
export function fileKeyNotice(dataDir: string): string {
  return `  The secret is stored encrypted with a key file, not an OS keychain (the command line cannot use one): the key is ${fileKeyPath(dataDir)}, and anyone who can read that folder can read the secret.\n`;
}

/** The Api over the CLI's data folder; `folders` answers `pickWatchFolder` in order. Secrets use the file-key box (not a keychain). */
export function cliApi(io: CliIo, folders: string[] = []): CoreApi {
  const dataDir = cliDataDir(io);
  const queue = [...folders];
  return createApi({
    dataDir,
    resourcesDir: io.env.APOLLIA_RESOURCES ?? resolve(io.cwd, 'resources'),
    dialogs: { openFile: async () => null, openFolder: async () => queue.shift() ?? null },
    secretBox: createFileKeySecretBox(dataDir),
    now: () => new Date(),
    log: (message, error) => io.stderr(`${PROGRAM}: ${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
  });
}

/** Usage of this command. */
export const INSTALL_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] install PATH [--yes] [--grant ENTRY ...] [--arm TRIGGER[=FOLDER] [--webhook-secret-file FILE | --webhook-secret-stdin] ...] [--allow-downgrade] [--accept-key-change]`,
  '',
  'Without --yes, prints what the package asks and installs nothing.',
  '  --yes              Install, granting the access the package proposes (an update keeps your answers and grants nothing new); nothing is armed unless named',
  '  --grant ENTRY      Grant exactly the entries named instead (repeat it), e.g. --grant file_read',
  '  --arm TRIGGER      Arm a trigger; a file_watch trigger needs its folder: --arm TRIGGER=FOLDER',
  '  --allow-downgrade  Allow installing an older version than the installed one',
  '  --accept-key-change  Install an update signed by another key than the installed one (or now unsigned): refused without it',
  '',
  'A webhook trigger armed with --arm gets a secret made here, printed once; or, right after its --arm:',
  ...WEBHOOK_SECRET_USAGE,
  'A secret is never given on the command line (others could see it in the process list).',
  '',
].join('\n');

/** Runs `install` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  let yes = false;
  let allowDowngrade = false;
  let acceptKeyChange = false;
  const grants: string[] = [];
  const arms: { id: string; folder?: string; secret?: WebhookSecretSource }[] = [];
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h' || arg === '--help') {
      io.stdout(INSTALL_USAGE);
      return EXIT.accepted;
    } else if (arg === '--yes' || arg === '-y') yes = true;
    else if (arg === '--allow-downgrade') allowDowngrade = true;
    else if (arg.startsWith('--webhook-secret')) {
      const option = webhookSecretOption(args, i, io);
      if (option === null) return usageError(io, `unknown option \`${arg.split('=')[0]}\` for install`, INSTALL_USAGE);
      if ('problem' in option) return usageError(io, option.problem, INSTALL_USAGE);
      const arm = arms.at(-1);
      if (!arm) return usageError(io, `${arg.split('=')[0]} goes right after the --arm TRIGGER it is the secret of`, INSTALL_USAGE);
      if (arm.secret) return usageError(io, `trigger ${arm.id} was given two secrets`, INSTALL_USAGE);
      if (option.source.from === 'stdin' && arms.some((a) => a.secret?.from === 'stdin')) return usageError(io, 'only one trigger can read its secret from standard input', INSTALL_USAGE);
      arm.secret = option.source;
      i = option.next;
    } else if (arg === '--accept-key-change') acceptKeyChange = true;
    else if (arg === '--grant' || arg === '--arm') {
      const value = args[++i];
      if (value === undefined || value === '') return usageError(io, `${arg} needs a value`, INSTALL_USAGE);
      if (arg === '--grant') grants.push(value);
      else {
        const eq = value.indexOf('=');
        if (eq === -1) arms.push({ id: value });
        else {
          const folder = value.slice(eq + 1);
          const absolute = isAbsolute(folder) ? folder : resolve(io.cwd, folder);
          if (!existsSync(absolute) || !statSync(absolute).isDirectory()) return usageError(io, `no such folder: ${folder}`, INSTALL_USAGE);
          arms.push({ id: value.slice(0, eq), folder: absolute });
        }
      }
    } else if (arg.startsWith('-')) return usageError(io, `unknown option \`${arg}\` for install`, INSTALL_USAGE);
    else paths.push(arg);
  }
  if (paths.length !== 1) return usageError(io, paths.length === 0 ? 'install needs a PATH' : `install takes one PATH, got ${paths.length}`, INSTALL_USAGE);
  const path = isAbsolute(paths[0] as string) ? (paths[0] as string) : resolve(io.cwd, paths[0] as string);
  if (!existsSync(path)) return usageError(io, `no such file: ${paths[0]}`, INSTALL_USAGE);

  const api = cliApi(
    io,
    arms.flatMap((a) => (a.folder ? [a.folder] : [])),
  );
  const source = await api.registerSource(path, 'command-line');
  if (!source.ok) return refused(io, source.error);
  const inspected = await api.inspect({ sourceId: source.value.id });
  if (!inspected.ok) return refused(io, inspected.error);
  const inspection: SourceInspection = inspected.value;
  if (inspection.kind !== 'apo') {
    io.stderr(`${PROGRAM}: ${paths[0]} is a ${inspection.kind === 'template' ? 'template folder: apply it with `apply`' : 'plugin manifest: plugins are shown, never installed'}\n`);
    return EXIT.refused;
  }
  if (!inspection.ok) {
    io.stderr(formatInspection(inspection));
    return EXIT.refused;
  }
  const manifest = (inspection.details as ApoDetails).manifest;
  if (!yes) {
    io.stdout(formatInspection(inspection));
    if (inspection.installed) io.stdout(`\nInstalled here: ${manifest.package.name} ${inspection.installed.version} (this one is ${inspection.installed.relation === 'same' ? 'the same version' : inspection.installed.relation}).\n`);
    if (inspection.keyChange?.kind === 'changed') io.stdout(`\nSTOP: the signing key changed: ${inspection.keyChange.message}. Installing it needs --accept-key-change.\n`);
    else if (inspection.keyChange) io.stdout(`\nSigning key: ${inspection.keyChange.message} (allowed).\n`);
    for (const change of inspection.updateDiff?.changes ?? []) io.stdout(`  - ${change}\n`);
    const answers = inspection.updateDiff ? 'keeping your answers from before, with what is new or widened left ungranted' : 'granting what the package proposes';
    io.stdout(`\nNothing was installed. Run again with --yes to install, ${answers} (or --grant ENTRY for exactly those), and --arm TRIGGER to arm a trigger.\n`);
    return EXIT.accepted;
  }

  // The answers: the package's proposal on a first install; on an update, the answers kept from
  // before, with what is new or widened left ungranted, as the consent form leaves it unticked
  // (issue 13 point 4: updates ask again); or, with --grant, exactly the entries named.
  const decisions: ConsentDecision = { agents: {}, triggers: {} };
  const proposal = inspection.updateDiff ? inspection.updateDiff.merged : proposedConsent(manifest);
  const leftOut: string[] = [];
  const granted = new Set(grants);
  for (const agent of manifest.agents ?? []) {
    const access: Record<string, boolean> = {};
    // Sets, not a search per entry: an agent may be offered thousands (linear, DESIGN.md).
    const proposed = new Set(inspection.updateDiff?.proposedAccess[agent.id] ?? []);
    for (const entry of agent.defaults?.access ?? []) {
      access[entry] = grants.length > 0 ? granted.has(entry) : (proposal.agents[agent.id]?.access[entry] ?? false);
      if (!access[entry] && grants.length === 0 && proposed.has(entry)) leftOut.push(`${entry} (${agent.id})`);
    }
    decisions.agents[agent.id] = { access };
  }
  const offered = new Set((manifest.agents ?? []).flatMap((a) => a.defaults?.access ?? []));
  const stray = grants.find((g) => !offered.has(g));
  if (stray !== undefined) {
    io.stderr(`${PROGRAM}: ${manifest.package.name} offers no agent \`${stray}\` (it can grant: ${[...offered].join(', ') || 'nothing'})\n`);
    return EXIT.refused;
  }
  for (const arm of arms) {
    let folderId: string | undefined;
    if (arm.folder) {
      const picked = await api.pickWatchFolder();
      if (!picked.ok || !picked.value) return refused(io, picked.ok ? { message: 'no folder picked' } : picked.error);
      folderId = picked.value.folderId;
    }
    decisions.triggers[arm.id] = folderId ? { armed: true, folderId } : { armed: true };
    if (arm.secret) {
      const read = await readWebhookSecret(arm.secret, io);
      if ('problem' in read) return usageError(io, read.problem, INSTALL_USAGE);
      decisions.triggers[arm.id] = { ...decisions.triggers[arm.id], armed: true, webhookSecret: { kind: 'given', secret: read.secret } };
      printSecretNote(io, read.secret);
    }
  }
  const result = await api.install({ sourceId: source.value.id, decisions, ...(allowDowngrade ? { allowDowngrade: true } : {}), ...(acceptKeyChange ? { acceptKeyChange: true } : {}) });
  if (!result.ok) return refused(io, result.error);
  const receipt = result.value;
  const verb = { installed: 'Installed', updated: 'Updated', downgraded: 'Downgraded', reinstalled: 'Reinstalled' }[receipt.outcome];
  const signature = (inspection.summary as ApoSummary).signature;
  io.stdout(`${verb} ${receipt.name} ${receipt.version}${receipt.previousVersion ? ` (was ${receipt.previousVersion})` : ''} from ${receipt.publisher} (${publisherStatus(signature).label}).\n`);
  if (receipt.keyChange) io.stdout(`  Signing key: ${receipt.keyChange.message}${receipt.keyChange.kind === 'changed' ? ' (accepted with --accept-key-change; recorded in the activity log)' : ''}.\n`);
  for (const [agentId, consent] of Object.entries(decisions.agents)) {
    const granted = Object.entries(consent.access)
      .filter(([, on]) => on)
      .map(([entry]) => entry);
    io.stdout(`  ${agentId}: ${granted.length > 0 ? `may use ${granted.join(', ')}` : 'granted nothing'}\n`);
  }
  if (leftOut.length > 0) io.stdout(`  Not granted, new or widened in this version: ${leftOut.join(', ')}. To grant, run again with --grant naming every entry to grant.\n`);
  io.stdout(receipt.armed.length > 0 ? `  Armed: ${receipt.armed.join(', ')}\n` : '  No trigger armed.\n');
  for (const secret of receipt.webhookSecrets) io.stdout(`  Webhook secret for ${secret.triggerId} (shown once, keep it now): ${secret.secret}\n`);
  for (const given of receipt.webhookSecretsGiven) io.stdout(`  Webhook secret for ${given.triggerId}: the one your sender gave, kept (it is never shown).\n`);
  if (receipt.webhookSecrets.length + receipt.webhookSecretsGiven.length > 0) io.stdout(fileKeyNotice(cliDataDir(io)));
  return EXIT.accepted;
}
