import { cliFetch } from './cli-fetch';
import {
  DEFAULT_WEBHOOK_PORT,
  type InstallReceipt,
  type InstalledRelation,
  type SourceInspection,
} from '../../../shared/contract/api';
import { LOCAL_ONLY_WORDS, listenerOrigin, webhookAddress } from '../../../shared/triggers/webhook-address';
import type { ApoDetails, ApoSummary } from '../../../shared/manifests/inspection';
import { packageVerdict, publisherStatus, VERDICT_LABELS } from '../../../shared/decisions/verdict';
import { APOLLIA_NATIVE_TOOLS } from '../../../shared/manifests/catalogues';
import { type AccessAnswer, type ConsentAnswers, decide, type Decisions } from '../../../shared/decisions/decisions';
import { decisionTrust } from '../../../shared/decisions/decision-input';
import { permissionWords } from '../../../shared/decisions/access-decisions';
import { ownRecord } from '../../../shared/base/own-data';
import { createApi, type CoreApi } from '../api';
import { debugWanted } from '../errors/io-fault';
import { policyLocations } from '../policy/read-policy';
import { createFileKeySecretBox, fileKeyPath } from '../secrets/secret-box';
import { alreadyDone, cliDataDir, cliResourcesDir, refused, tightenDataDir } from './cli-data';
import { type CliIo, EXIT } from './cli-io';
import { INSTALL_USAGE, type InstallConsentFlags, parseInstallFlags } from './install-flags';
import { openFeedSource } from './feed-source';
import { formatInspection } from './inspection-text';
import { terminalJson } from './terminal-text';
import { isPlainFolder, PLAIN_FOLDER_WORDS } from './template-name';
import { PROGRAM, usageError } from './usage';
import { printSecretNote, sharedSecretLine, readWebhookSecret } from './webhook-secret-options';

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
  tightenDataDir(io, dataDir);
  const queue = [...folders];
  return createApi({
    dataDir,
    resourcesDir: cliResourcesDir(io),
    dialogs: { openFile: async () => null, openFolder: async () => queue.shift() ?? null },
    secretBox: createFileKeySecretBox(dataDir),
    now: () => new Date(),
    // The organization's policy of this run's environment (APOLLIA_POLICY_FILE), as the app reads its own.
    policy: policyLocations(io.env),
    // Feeds through the proxy this run's environment names (HTTPS_PROXY, NO_PROXY): cli-fetch.ts.
    fetch: cliFetch(io.env),
    // A bug's stack trace only with APOLLIA_DEBUG=1 (DESIGN.md "Commit points"); its sentence follows.
    log: (message, error) => {
      if (debugWanted(io.env))
        io.stderr(
          `${PROGRAM}: ${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
    },
  });
}

/** Runs `install` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  const flags = parseInstallFlags(args, io);
  if (typeof flags === 'number') return flags;
  const api = cliApi(
    io,
    flags.arms.flatMap((a) => (a.folder ? [a.folder] : [])),
  );
  const source = flags.feed
    ? await openFeedSource(api, flags.feed, io)
    : await api.registerSource(flags.path, 'command-line');
  if (!source.ok) return refused(io, source.error);
  const code = await consentAndInstall(api, source.value.id, flags, io);
  if (flags.feed) await api.feeds.discard(source.value.id);
  return code;
}

/**
 * The consent form, headless, for an opened source: what it asks and what would be decided, and with `--yes` the
 * install. `update` and `rollback` come here too, with a feed's source: an update like any other.
 */
export async function consentAndInstall(
  api: CoreApi,
  sourceId: string,
  flags: InstallConsentFlags,
  io: CliIo,
): Promise<number> {
  const inspected = await api.inspect({ sourceId });
  if (!inspected.ok) return refused(io, inspected.error);
  const inspection: SourceInspection = inspected.value;
  if (inspection.kind !== 'apo') return refused(io, notAPackage(flags.given, flags.path, inspection));
  if (!inspection.ok) {
    if (io.json) return refused(io, { code: 'install.refused', message: 'refused', problems: inspection.errors });
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
    if (flags.json)
      io.stdout(
        `${terminalJson({ ok: true, applied: false, preview: { summary, policy: inspection.policy, installed: inspection.installed ?? null, decisions: decided } })}\n`,
      );
    else printWouldInstall(io, inspection, decided);
    return EXIT.accepted;
  }
  const [problem] = decided.problems;
  if (problem)
    return refused(io, {
      code: problem.code,
      message: `${problem.message}${problem.code.startsWith('policy.') ? ` (${problem.code})` : ''}`,
      problems: decided.problems,
    });

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
    sourceId,
    decisions,
    ...(flags.allowDowngrade ? { allowDowngrade: true } : {}),
    ...(flags.acceptKeyChange ? { acceptKeyChange: true } : {}),
  });
  if (!result.ok) {
    // The same bytes already installed: already done (a rerun after a kill, DESIGN.md "Commit points"), exit 0.
    if (alreadyDone({ ...io, json: flags.json }, result.error, 'install.already_installed', ' (the same bytes)'))
      return EXIT.accepted;
    return refused(io, result.error);
  }
  if (flags.json) io.stdout(`${terminalJson({ ok: true, applied: true, ...result.value })}\n`);
  else {
    const settings = await api.settings();
    printInstalled(
      io,
      result.value,
      summary,
      decided,
      settings.ok ? settings.value.webhookPort.port : DEFAULT_WEBHOOK_PORT,
    );
  }
  return EXIT.accepted;
}

/** The refusal of an input that is no `.apo`, saying what it is and what to do with it. */
function notAPackage(given: string, path: string, inspection: SourceInspection) {
  const code = inspection.errors[0]?.code;
  const what = isPlainFolder(path)
    ? `${PLAIN_FOLDER_WORDS}: nothing to install`
    : code === 'template.unbuilt_apo'
      ? `a package folder, not yet packed: pack it with \`pack ${given}\`, then install the .apo it writes`
      : inspection.kind === 'plugin'
        ? 'a plugin manifest: plugins are shown, never installed'
        : inspection.ok
          ? 'a template folder: apply it with `apply`'
          : 'a template folder the checks refuse: `inspect` says why; a template is applied (`apply`), never installed';
  return { code: 'install.not_a_package' as const, message: `${given} is ${what}` };
}

/**
 * The answers: only what a flag names (the form sends only what was clicked). An entry no agent offers is refused
 * (exit code, printed); a folder given is registered for this run, as the form's folder dialog does.
 */
async function answersOf(
  api: CoreApi,
  manifest: ApoDetails['manifest'],
  flags: InstallConsentFlags,
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
    return refused(io, {
      code: 'install.unknown_access',
      message: `${manifest.package.name} offers no entry \`${stray}\` (it can grant: ${[...offered].join(', ') || 'nothing'})`,
    });
  }
  for (const id of flags.disarms) decisions.triggers[id] = { armed: false };
  for (const arm of flags.arms) {
    let folderId: string | undefined;
    if (arm.folder) {
      // Only registers the folder for this run (as the form's folder dialog does): nothing is written.
      const picked = await api.pickWatchFolder();
      if (!picked.ok || !picked.value)
        return refused(io, picked.ok ? { code: 'folder.unknown', message: 'no folder picked' } : picked.error);
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

/**
 * How the inspected package stands to the installed one, in words: the same name and version with other bytes is
 * another package (DESIGN.md "Trust after install"), installed as an update with both SHA-256s named.
 */
export function installedWords(installed: InstalledRelation): string {
  if (installed.relation === 'other_bytes')
    return `${installed.version} (sha256 ${installed.sha256}); this one has the same name and version but other bytes: it is another package, installed as an update, and what changed is asked again`;
  return `${installed.version} (this one is ${installed.relation === 'same' ? 'the same version' : installed.relation})`;
}

/** Without `--yes`: what the package asks, what changed, and what would be decided; nothing is installed. */
function printWouldInstall(io: CliIo, inspection: SourceInspection, decided: Decisions): void {
  const manifest = (inspection.details as ApoDetails).manifest;
  // The verdict first, as the consent form shows it (DESIGN.md "Consent, install, apply").
  const verdict = packageVerdict(manifest, APOLLIA_NATIVE_TOOLS);
  io.stdout(`${VERDICT_LABELS[verdict.level]}: ${verdict.headline}\n\n`);
  io.stdout(formatInspection(inspection));
  if (inspection.policy.state === 'unreadable')
    io.stdout(
      `\nYour organization's policy file ${inspection.policy.problem?.path} cannot be used: ${inspection.policy.problem?.message}. Nothing can be installed until it is fixed; your administrator can act.\n`,
    );
  if (inspection.installed)
    io.stdout(`\nInstalled here: ${manifest.package.name} ${installedWords(inspection.installed)}.\n`);
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
    `\nWith --yes it installs, ${answers}; --grant, --withhold, --allow or --ask ENTRY change an answer, --arm or --disarm TRIGGER a trigger.\nNothing was changed: add --yes to do it\n`,
  );
}

/** What was installed: the outcome, the key change, the decisions, what was armed and each webhook secret. */
function printInstalled(
  io: CliIo,
  receipt: InstallReceipt,
  summary: ApoSummary,
  decided: Decisions,
  port: number,
): void {
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
  // Each armed trigger is said once, by the decisions' lines; only "none" is said apart.
  printDecisions(io, decided);
  if (receipt.armed.length === 0) io.stdout('  No trigger armed.\n');
  const address = (id: string) => `  Its address: ${webhookAddress(listenerOrigin(port), id)} (${LOCAL_ONLY_WORDS})\n`;
  for (const secret of receipt.webhookSecrets) {
    io.stdout(`  Webhook secret for ${secret.triggerId} (shown once, keep it now): ${secret.secret}\n`);
    io.stdout(address(secret.triggerId));
  }
  for (const given of receipt.webhookSecretsGiven) {
    io.stdout(`  Webhook secret for ${given.triggerId}: the one your sender gave, kept (it is never shown).\n`);
    io.stdout(sharedSecretLine(given.sharedWarning));
    io.stdout(address(given.triggerId));
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
