/**
 * `apollia-desktop install PATH [--yes] [--grant|--withhold|--allow|--ask ENTRY …] [--arm TRIGGER[=FOLDER] …] [--disarm
 * TRIGGER …] [--allow-downgrade] [--accept-key-change]`:
 * the consent form, headless, over the same store as the app (DESIGN.md "Consent, install, apply").
 *
 * The flags are the person's answers, exactly as the form's clicks are: each names what it
 * changes, and everything not named is kept (an update) or takes its default (a first install:
 * the proposed access granted, no trigger armed). The decisions themselves are made by the one
 * decision function (`shared/decisions/decisions.ts`), in the core; this command only gathers the answers
 * and prints what was decided. Without `--yes` it prints what the package asks and what would be
 * decided, and installs nothing. A file_watch trigger takes its folder as `--arm TRIGGER=FOLDER`;
 * a webhook trigger armed here keeps its secret when it has one, else gets one made here (printed
 * once), or the one its sender gave: `--arm TRIGGER --webhook-secret-file FILE` (or
 * `--webhook-secret-stdin`), never the secret itself on the command line. A refused package
 * leaves the data folder untouched.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { InstallReceipt, SourceInspection } from '../../../shared/contract/api';
import type { ApoDetails, ApoSummary } from '../../../shared/manifests/inspection';
import { publisherStatus } from '../../../shared/decisions/verdict';
import { type AccessAnswer, type ConsentAnswers, decide, type Decisions } from '../../../shared/decisions/decisions';
import { decisionTrust } from '../../../shared/decisions/decision-input';
import { permissionWords } from '../../../shared/decisions/access-decisions';
import { ownRecord } from '../../../shared/base/own-data';
import { createApi, type CoreApi } from '../api';
import { debugWanted } from '../errors/io-fault';
import { policyLocations } from '../policy/read-policy';
import { createFileKeySecretBox, fileKeyPath } from '../secrets/secret-box';
import { cliDataDir, cliResourcesDir, refused } from './cli-data';
import { type CliIo, EXIT } from './cli-io';
import { formatInspection } from './inspection-text';
import { PROGRAM, usageError } from './usage';
import {
  printSecretNote,
  sharedSecretLine,
  readWebhookSecret,
  WEBHOOK_SECRET_USAGE,
  webhookSecretOption,
  type WebhookSecretSource,
} from './webhook-secret-options';

/**
 * What the CLI prints whenever it has sealed a secret: it has no OS keychain (Electron's
 * safeStorage is out of its reach), so it seals with a key file kept beside the data, and says
 * so and where that key is.
 */
export function fileKeyNotice(dataDir: string): string {
  return `  The secret is stored encrypted with a key file, not an OS keychain (the command line cannot use one): the key is ${fileKeyPath(dataDir)}, and anyone who can read that folder can read the secret.\n`;
}

/**
 * The Api over the CLI's data folder; `folders` answers `pickWatchFolder` in order. Secrets use the file-key box (not a
 * keychain).
 */
export function cliApi(io: CliIo, folders: string[] = []): CoreApi {
  const dataDir = cliDataDir(io);
  const queue = [...folders];
  return createApi({
    dataDir,
    resourcesDir: cliResourcesDir(io.env),
    dialogs: { openFile: async () => null, openFolder: async () => queue.shift() ?? null },
    secretBox: createFileKeySecretBox(dataDir),
    now: () => new Date(),
    // The organization's policy of this run's environment (APOLLIA_POLICY_FILE), as the app reads its own.
    policy: policyLocations(io.env),
    // A bug's stack trace only with APOLLIA_DEBUG=1 (DESIGN.md "Commit points"); its sentence follows.
    log: (message, error) => {
      if (debugWanted(io.env))
        io.stderr(
          `${PROGRAM}: ${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
    },
  });
}

/** Usage of this command. */
export const INSTALL_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] install PATH [--yes] [--grant|--withhold|--allow|--ask ENTRY ...]`,
  '         [--arm TRIGGER[=FOLDER] [--webhook-secret-file FILE | --webhook-secret-stdin] ...] [--disarm TRIGGER ...]',
  '         [--allow-downgrade] [--accept-key-change]',
  '',
  'Without --yes, prints what the package asks and what would be decided; installs nothing.',
  'Anything no flag names is kept (an update keeps every earlier answer, armed trigger, folder and',
  'secret) or takes its default (a first install grants the access the package proposes, arms nothing).',
  '  --yes              Install',
  '  --grant ENTRY      Grant an entry (repeat it), e.g. --grant file_read; it asks first unless it only reads',
  '  --withhold ENTRY   Do not grant an entry',
  '  --allow ENTRY      Grant an entry and let it run without asking (not for one that can change or send things)',
  '  --ask ENTRY        Grant an entry, asking you before each call',
  '  --arm TRIGGER      Arm a trigger; a file_watch trigger needs its folder: --arm TRIGGER=FOLDER',
  '  --disarm TRIGGER   Leave a trigger off (an update otherwise keeps an armed one armed)',
  '  --allow-downgrade  Allow installing an older version than the installed one',
  '  --accept-key-change  Install an update signed by another key than the installed one (or now unsigned): refused without it',
  '',
  'A webhook trigger armed with --arm gets a secret made here, printed once; or, right after its --arm:',
  ...WEBHOOK_SECRET_USAGE,
  'A secret is never given on the command line (others could see it in the process list).',
  '',
].join('\n');

/** What the flags of `install` say: the person's answers, exactly as the form's clicks are. */
interface InstallFlags {
  yes: boolean;
  allowDowngrade: boolean;
  acceptKeyChange: boolean;
  access: Map<string, AccessAnswer>;
  disarms: string[];
  arms: { id: string; folder?: string; secret?: WebhookSecretSource }[];
  /** The PATH as given, and resolved. */
  given: string;
  path: string;
}

/** Runs `install` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  const flags = parseInstallFlags(args, io);
  if (typeof flags === 'number') return flags;
  const api = cliApi(
    io,
    flags.arms.flatMap((a) => (a.folder ? [a.folder] : [])),
  );
  const source = await api.registerSource(flags.path, 'command-line');
  if (!source.ok) return refused(io, source.error);
  const inspected = await api.inspect({ sourceId: source.value.id });
  if (!inspected.ok) return refused(io, inspected.error);
  const inspection: SourceInspection = inspected.value;
  if (inspection.kind !== 'apo') {
    const unpacked = inspection.errors[0]?.code === 'template.unbuilt_apo';
    io.stderr(
      `${PROGRAM}: ${flags.given} is a ${unpacked ? `package folder, not yet packed: pack it with \`pack ${flags.given}\`, then install the .apo it writes` : inspection.kind === 'template' ? 'template folder: apply it with `apply`' : 'plugin manifest: plugins are shown, never installed'}\n`,
    );
    return EXIT.refused;
  }
  if (!inspection.ok) {
    io.stderr(formatInspection(inspection));
    return EXIT.refused;
  }
  const manifest = (inspection.details as ApoDetails).manifest;
  for (const id of flags.disarms)
    if (flags.arms.some((a) => a.id === id))
      return usageError(io, `trigger ${id} was both armed and disarmed`, INSTALL_USAGE);
  const decisions = await answersOf(api, manifest, flags, io);
  if (typeof decisions === 'number') return decisions;

  // What would be decided, by the same function the core decides with.
  const summary = inspection.summary as ApoSummary;
  const decided = decide({
    manifest,
    installed: inspection.installedDecisions,
    trust: decisionTrust(summary.signature),
    deniedTools: await deniedTools(api),
    policy: inspection.policy.effective,
    answers: decisions,
  });
  if (!flags.yes) {
    printWouldInstall(io, inspection, decided);
    return EXIT.accepted;
  }
  for (const problem of decided.problems) {
    io.stderr(`${PROGRAM}: ${problem.message}${problem.code.startsWith('policy.') ? ` (${problem.code})` : ''}\n`);
    return EXIT.refused;
  }

  for (const arm of flags.arms) {
    if (!arm.secret) continue;
    const read = await readWebhookSecret(arm.secret, io);
    if ('problem' in read) return usageError(io, read.problem, INSTALL_USAGE);
    decisions.triggers[arm.id] = {
      ...decisions.triggers[arm.id],
      armed: true,
      webhookSecret: { kind: 'given', secret: read.secret },
    };
    printSecretNote(io, read.secret);
  }
  const result = await api.install({
    sourceId: source.value.id,
    decisions,
    ...(flags.allowDowngrade ? { allowDowngrade: true } : {}),
    ...(flags.acceptKeyChange ? { acceptKeyChange: true } : {}),
  });
  if (!result.ok) return refused(io, result.error);
  printInstalled(io, result.value, summary, decided);
  return EXIT.accepted;
}

/** The flags of `install`, or the exit code of `--help` or of a usage error (already printed). */
function parseInstallFlags(args: string[], io: CliIo): InstallFlags | number {
  const flags = {
    yes: false,
    allowDowngrade: false,
    acceptKeyChange: false,
    access: new Map<string, AccessAnswer>(),
    disarms: [] as string[],
    arms: [] as InstallFlags['arms'],
  };
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h' || arg === '--help') {
      io.stdout(INSTALL_USAGE);
      return EXIT.accepted;
    } else if (arg === '--yes' || arg === '-y') flags.yes = true;
    else if (arg === '--allow-downgrade') flags.allowDowngrade = true;
    else if (arg.startsWith('--webhook-secret')) {
      const next = webhookSecretFlag(args, i, io, flags.arms);
      if (typeof next === 'object') return next.exit;
      i = next;
    } else if (arg === '--accept-key-change') flags.acceptKeyChange = true;
    else if (ANSWER_FLAGS.has(arg)) {
      const value = args[++i];
      if (value === undefined || value === '') return usageError(io, `${arg} needs a value`, INSTALL_USAGE);
      const problem = answerFlag(arg, value, io, flags);
      if (problem !== null) return problem;
    } else if (arg.startsWith('-')) return usageError(io, `unknown option \`${arg}\` for install`, INSTALL_USAGE);
    else paths.push(arg);
  }
  if (paths.length !== 1)
    return usageError(
      io,
      paths.length === 0 ? 'install needs a PATH' : `install takes one PATH, got ${paths.length}`,
      INSTALL_USAGE,
    );
  const given = paths[0] as string;
  const path = isAbsolute(given) ? given : resolve(io.cwd, given);
  if (!existsSync(path)) return usageError(io, `no such file: ${given}`, INSTALL_USAGE);
  return { ...flags, given, path };
}

/** The flags that take an entry or a trigger as their value. */
const ANSWER_FLAGS = new Set(['--grant', '--withhold', '--allow', '--ask', '--arm', '--disarm']);

/** Notes one answer flag and its value in `flags`; answers the exit code of a usage error (printed), else null. */
function answerFlag(
  arg: string,
  value: string,
  io: CliIo,
  flags: Pick<InstallFlags, 'access' | 'disarms' | 'arms'>,
): number | null {
  if (arg === '--disarm') flags.disarms.push(value);
  else if (arg !== '--arm') {
    const answer: AccessAnswer =
      arg === '--grant' ? true : arg === '--withhold' ? false : arg === '--allow' ? 'allow' : 'ask';
    if (flags.access.has(value) && flags.access.get(value) !== answer)
      return usageError(io, `${value} was given two answers`, INSTALL_USAGE);
    flags.access.set(value, answer);
  } else {
    const eq = value.indexOf('=');
    if (eq === -1) flags.arms.push({ id: value });
    else {
      const folder = value.slice(eq + 1);
      const absolute = isAbsolute(folder) ? folder : resolve(io.cwd, folder);
      if (!existsSync(absolute) || !statSync(absolute).isDirectory())
        return usageError(io, `no such folder: ${folder}`, INSTALL_USAGE);
      flags.arms.push({ id: value.slice(0, eq), folder: absolute });
    }
  }
  return null;
}

/**
 * A `--webhook-secret-…` flag, given to the `--arm` right before it: answers the index of its last argument, or the
 * exit code of a usage error (printed).
 */
function webhookSecretFlag(
  args: string[],
  i: number,
  io: CliIo,
  arms: InstallFlags['arms'],
): number | { exit: number } {
  const arg = args[i] as string;
  const option = webhookSecretOption(args, i, io);
  if (option === null)
    return { exit: usageError(io, `unknown option \`${arg.split('=')[0]}\` for install`, INSTALL_USAGE) };
  if ('problem' in option) return { exit: usageError(io, option.problem, INSTALL_USAGE) };
  const arm = arms.at(-1);
  if (!arm)
    return {
      exit: usageError(
        io,
        `${arg.split('=')[0]} goes right after the --arm TRIGGER it is the secret of`,
        INSTALL_USAGE,
      ),
    };
  if (arm.secret) return { exit: usageError(io, `trigger ${arm.id} was given two secrets`, INSTALL_USAGE) };
  if (option.source.from === 'stdin' && arms.some((a) => a.secret?.from === 'stdin'))
    return { exit: usageError(io, 'only one trigger can read its secret from standard input', INSTALL_USAGE) };
  arm.secret = option.source;
  return option.next;
}

/**
 * The answers: only what a flag names (the form sends only what was clicked). An entry no agent offers is refused
 * (exit code, printed); a folder given is registered for this run, as the form's folder dialog does.
 */
async function answersOf(
  api: CoreApi,
  manifest: ApoDetails['manifest'],
  flags: InstallFlags,
  io: CliIo,
): Promise<ConsentAnswers | number> {
  const decisions: ConsentAnswers = { agents: ownRecord(), triggers: ownRecord() };
  const offered = new Set<string>();
  for (const agent of manifest.agents ?? []) {
    const answers = ownRecord<AccessAnswer>();
    for (const entry of agent.defaults?.access ?? []) {
      offered.add(entry);
      const answer = flags.access.get(entry);
      if (answer !== undefined) answers[entry] = answer;
    }
    if (Object.keys(answers).length > 0) decisions.agents[agent.id] = { access: answers };
  }
  const stray = [...flags.access.keys()].find((entry) => !offered.has(entry));
  if (stray !== undefined) {
    io.stderr(
      `${PROGRAM}: ${manifest.package.name} offers no agent \`${stray}\` (it can grant: ${[...offered].join(', ') || 'nothing'})\n`,
    );
    return EXIT.refused;
  }
  for (const id of flags.disarms) decisions.triggers[id] = { armed: false };
  for (const arm of flags.arms) {
    let folderId: string | undefined;
    if (arm.folder) {
      // Only registers the folder for this run (as the form's folder dialog does): nothing is written.
      const picked = await api.pickWatchFolder();
      if (!picked.ok || !picked.value) return refused(io, picked.ok ? { message: 'no folder picked' } : picked.error);
      folderId = picked.value.folderId;
    }
    // The sender's secret is read only when installing; until then it stands for "the one your sender gave".
    decisions.triggers[arm.id] = {
      armed: true,
      ...(folderId ? { folderId } : {}),
      ...(arm.secret ? { webhookSecret: { kind: 'given' as const, secret: '' } } : {}),
    };
  }
  return decisions;
}

/** Without `--yes`: what the package asks, what changed, and what would be decided; nothing is installed. */
function printWouldInstall(io: CliIo, inspection: SourceInspection, decided: Decisions): void {
  const manifest = (inspection.details as ApoDetails).manifest;
  io.stdout(formatInspection(inspection));
  if (inspection.policy.state === 'unreadable')
    io.stdout(
      `\nYour organization's policy file ${inspection.policy.problem?.path} cannot be used: ${inspection.policy.problem?.message}. Nothing can be installed until it is fixed; your administrator can act.\n`,
    );
  if (inspection.installed)
    io.stdout(
      `\nInstalled here: ${manifest.package.name} ${inspection.installed.version} (this one is ${inspection.installed.relation === 'same' ? 'the same version' : inspection.installed.relation}).\n`,
    );
  if (inspection.keyChange?.kind === 'changed')
    io.stdout(
      `\nSTOP: the signing key changed: ${inspection.keyChange.message}. Installing it needs --accept-key-change.\n`,
    );
  else if (inspection.keyChange) io.stdout(`\nSigning key: ${inspection.keyChange.message} (allowed).\n`);
  for (const change of inspection.updateDiff?.changes ?? []) io.stdout(`  - ${change}\n`);
  io.stdout('\nWith --yes, and the flags given:\n');
  printDecisions(io, decided);
  const answers = inspection.updateDiff
    ? 'keeping your answers from before (what is new or widened left ungranted)'
    : 'granting what the package proposes';
  io.stdout(
    `\nNothing was installed. Run again with --yes to install, ${answers}; --grant, --withhold, --allow or --ask ENTRY to change an answer, --arm or --disarm TRIGGER to change a trigger.\n`,
  );
}

/** What was installed: the outcome, the key change, the decisions, what was armed and each webhook secret. */
function printInstalled(io: CliIo, receipt: InstallReceipt, summary: ApoSummary, decided: Decisions): void {
  const verb = { installed: 'Installed', updated: 'Updated', downgraded: 'Downgraded', reinstalled: 'Reinstalled' }[
    receipt.outcome
  ];
  const signature = summary.signature;
  io.stdout(
    `${verb} ${receipt.name} ${receipt.version}${receipt.previousVersion ? ` (was ${receipt.previousVersion})` : ''} from ${receipt.publisher} (${publisherStatus(signature).label}).\n`,
  );
  if (receipt.keyChange)
    io.stdout(
      `  Signing key: ${receipt.keyChange.message}${receipt.keyChange.kind === 'changed' ? ' (accepted with --accept-key-change; recorded in the activity log)' : ''}.\n`,
    );
  printDecisions(io, decided);
  io.stdout(receipt.armed.length > 0 ? `  Armed: ${receipt.armed.join(', ')}\n` : '  No trigger armed.\n');
  for (const secret of receipt.webhookSecrets)
    io.stdout(`  Webhook secret for ${secret.triggerId} (shown once, keep it now): ${secret.secret}\n`);
  for (const given of receipt.webhookSecretsGiven) {
    io.stdout(`  Webhook secret for ${given.triggerId}: the one your sender gave, kept (it is never shown).\n`);
    io.stdout(sharedSecretLine(given.sharedWarning));
  }
  if (receipt.webhookSecrets.length + receipt.webhookSecretsGiven.length > 0) io.stdout(fileKeyNotice(cliDataDir(io)));
}

/** The owner's never-allowed tools (Settings), as the decision takes them. */
async function deniedTools(api: CoreApi): Promise<string[]> {
  const settings = await api.settings();
  return settings.ok ? settings.value.deniedTools : [];
}

/** What was (or would be) decided, one line per agent and per trigger that is armed, kept, or turned off. */
function printDecisions(io: CliIo, decided: Decisions): void {
  for (const [agentId, entries] of Object.entries(decided.agents)) {
    const lines = Object.entries(entries).map(([entry, d]) => `    ${entry}: ${permissionWords(d)}`);
    io.stdout(
      `  ${agentId}:${lines.length === 0 ? ' offered nothing' : ''}\n${lines.slice(0, 50).join('\n')}${lines.length > 0 ? '\n' : ''}`,
    );
    if (lines.length > 50) io.stdout(`    … and ${lines.length - 50} more (list --json shows every one)\n`);
  }
  for (const [id, d] of Object.entries(decided.triggers)) {
    if (d.turnedOff) io.stdout(`  Trigger ${id}: turned off: ${d.turnedOff}\n`);
    else if (d.armed) {
      const folder =
        d.folder?.kind === 'keep'
          ? `, watching ${d.folder.shown} (kept)`
          : d.folder
            ? ', watching the folder given'
            : '';
      const secret =
        d.secret?.kind === 'keep'
          ? `, its secret kept (${d.secret.origin === 'given' ? "your sender's" : 'made here'})`
          : d.secret
            ? d.secret.choice.kind === 'given'
              ? ', the secret your sender gave'
              : ', a new secret made here'
            : '';
      io.stdout(`  Trigger ${id}: armed${folder}${secret}\n`);
    } else if (d.change) io.stdout(`  Trigger ${id}: off; it changed: ${d.change.from} → ${d.change.to}\n`);
  }
}
