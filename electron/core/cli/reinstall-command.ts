/**
 * `apollia-desktop reinstall PATH [--yes] [--json]`: the way back after the integrity check found a
 * package's files changed on this computer (which paused its triggers, still armed). It checks the installed
 * files first (the Api's `verifyInstalled`, as the dashboard does), shows what changed, then, with
 * `--yes`, installs the same version again through the Api's own `install` (the package's
 * answers kept, as an update keeps them): the triggers paused by integrity resume, with their folder and secret; what
 * a check by an older version disarmed is armed again (a watched folder is watched again, a webhook gets a new secret:
 * the old one was deleted then). Any
 * other case is refused, naming the command that fits: a package not installed or of another
 * version (`install`), other bytes of the same version (both SHA-256s named: only the installed
 * bytes are put back). Files unchanged since install are nothing to do (exit 0, nothing written): so is the
 * rerun of a reinstall that completed.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { ApoDetails, ApoSummary } from '../../../shared/manifests/inspection';
import { integrityDetail } from '../app/publisher-trust';
import { cliDataDir, type RefusalInput, refused } from './cli-data';
import type { SourceInspection } from '../../../shared/contract/api';
import { type CliIo, EXIT } from './cli-io';
import { cliApi, fileKeyNotice } from './install-command';
import { terminalJson } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const REINSTALL_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] reinstall PATH [--yes] [--json]`,
  '',
  'Puts back a package whose files changed on this computer since install (`verify` says CHANGED),',
  'from its .apo (PATH), the same version: your answers are kept, and the triggers the change',
  'paused resume, with their folder and secret (one an older version disarmed is armed again: a',
  'webhook gets a new secret, printed once). Without --yes, shows what changed and what it would do.',
  '  --yes   Reinstall',
  '  --json  Print what changed and what was done as JSON',
  '',
].join('\n');

/** How many file names of each kind are printed (the JSON has them all). */
const SHOWN_FILES = 20;

/** The flags of `reinstall` and its PATH resolved, or the exit code of `--help` or of a usage error (printed). */
function parseReinstallFlags(args: string[], io: CliIo): { yes: boolean; json: boolean; path: string } | number {
  let yes = false;
  let json = false;
  const paths: string[] = [];
  for (const arg of args) {
    if (arg === '-h' || arg === '--help') {
      io.stdout(REINSTALL_USAGE);
      return EXIT.accepted;
    }
    if (arg === '--yes' || arg === '-y') yes = true;
    else if (arg === '--json') json = true;
    else if (arg.startsWith('-')) return usageError(io, `unknown option \`${arg}\` for reinstall`, REINSTALL_USAGE);
    else paths.push(arg);
  }
  if (paths.length !== 1)
    return usageError(
      io,
      paths.length === 0 ? 'reinstall needs the PATH of the .apo' : `reinstall takes one PATH, got ${paths.length}`,
      REINSTALL_USAGE,
    );
  const path = isAbsolute(paths[0] as string) ? (paths[0] as string) : resolve(io.cwd, paths[0] as string);
  if (!existsSync(path)) return usageError(io, `no such file: ${paths[0]}`, REINSTALL_USAGE);
  return { yes, json, path };
}

/** Why the file given cannot be reinstalled as read: not a package, or one the checks refuse; null when it can. */
function unreadablePackage(inspection: SourceInspection, given: string): RefusalInput | null {
  if (inspection.kind !== 'apo')
    return { code: 'install.not_a_package', message: `${given} is not a .apo package: only a package is reinstalled` };
  if (!inspection.ok)
    return {
      code: 'install.refused',
      message: `${given} was refused: ${inspection.errors[0]?.message ?? 'it could not be read'}`,
      problems: inspection.errors,
    };
  return null;
}

/** Runs `reinstall` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  const flags = parseReinstallFlags(args, io);
  if (typeof flags === 'number') return flags;
  const { yes, json, path } = flags;
  const paths = [args.find((arg) => !arg.startsWith('-')) as string];

  // The installed files are checked now, so a change not yet seen is found (and disarms) first.
  const verified = await cliApi(io).verifyInstalled();
  if (!verified.ok) return refused(io, verified.error);

  const reader = cliApi(io);
  const registered = await reader.registerSource(path, 'command-line');
  if (!registered.ok) return refused(io, registered.error);
  const inspected = await reader.inspect({ sourceId: registered.value.id });
  if (!inspected.ok) return refused(io, inspected.error);
  const inspection = inspected.value;
  const notReadable = unreadablePackage(inspection, paths[0] as string);
  if (notReadable) return refused(io, notReadable);
  const { name, version } = (inspection.details as ApoDetails).manifest.package;
  const installed = verified.value.find((p) => p.name === name);
  if (!installed)
    return refused(io, {
      code: 'package.unknown',
      message: `${name} is not installed here: install it with \`install ${paths[0]}\``,
    });
  if (installed.version !== version)
    return refused(io, {
      code: 'reinstall.other_version',
      message: `${name} ${installed.version} is installed and ${paths[0]} is ${version}: reinstall puts back the same version; \`install\` updates or downgrades`,
    });
  // Reinstall puts back only the bytes that were installed (DESIGN.md "Trust after install"): other bytes of the same
  // name and version are another package, which `install` shows and asks about as an update.
  if (inspection.installed?.relation === 'other_bytes')
    return refused(io, {
      code: 'reinstall.other_bytes',
      message: `${paths[0]} is not the ${name} ${version} that was installed: its sha256 is ${(inspection.summary as ApoSummary).sha256}, the installed one's ${inspection.installed.sha256}. Reinstall puts back only the installed bytes; \`install ${paths[0]}\` shows it as an update and asks again`,
    });
  const integrity = installed.integrity;
  // Files as installed: nothing to put back, and that is an answer, not a refusal (a rerun of a reinstall that
  // completed, DESIGN.md "Commit points": "says it is already done").
  if (integrity.state !== 'changed') {
    if (json) io.stdout(`${terminalJson({ ok: true, applied: false, unchanged: true, name, version })}\n`);
    else io.stdout(`${name} ${version}: its files are unchanged since install: nothing to do\n`);
    return EXIT.accepted;
  }

  // What the change paused resumes (armed all along). What a check by an older version disarmed is armed again: a
  // folder that is gone stays off (said), a webhook gets a new secret.
  const resume = installed.paused;
  const rearm: { trigger: string; folder: string | null }[] = [];
  const stayOff: { trigger: string; why: string }[] = [];
  const offered = new Set(((inspection.details as ApoDetails).manifest.triggers ?? []).map((t) => `${name}/${t.id}`));
  for (const was of integrity.disarmed) {
    if (!offered.has(was.trigger)) stayOff.push({ trigger: was.trigger, why: 'this package has no such trigger' });
    else if (was.folder !== null && !(existsSync(was.folder) && statSync(was.folder).isDirectory()))
      stayOff.push({
        trigger: was.trigger,
        why: `its folder ${was.folder} is gone: arm it with \`arm ${was.trigger} --folder DIR\``,
      });
    else rearm.push(was);
  }
  const changes = { changed: integrity.changed, missing: integrity.missing, added: integrity.added };
  if (!json) {
    io.stdout(`${name} ${version} changed on this computer since you installed it (${integrityDetail(integrity)}).\n`);
    for (const [kind, files] of Object.entries(changes)) {
      for (const file of files.slice(0, SHOWN_FILES)) io.stdout(`  ${kind.padEnd(7)} ${file}\n`);
      if (files.length > SHOWN_FILES) io.stdout(`  ${kind.padEnd(7)} … and ${files.length - SHOWN_FILES} more\n`);
    }
    io.stdout(
      `Reinstalling puts back the files of ${paths[0]} (sha256 ${(inspection.summary as ApoSummary).sha256}) and keeps your answers.\n`,
    );
    for (const t of resume) io.stdout(`  resumes:    ${t} (paused by integrity, still armed)\n`);
    for (const t of rearm) io.stdout(`  arms again: ${t.trigger}${t.folder ? `, watching ${t.folder}` : ''}\n`);
    for (const t of stayOff) io.stdout(`  stays off:  ${t.trigger} (${t.why})\n`);
    if (resume.length + rearm.length + stayOff.length === 0)
      io.stdout('  No trigger was armed when the change was found: none is armed.\n');
  }
  if (!yes) {
    if (json)
      io.stdout(
        `${terminalJson({ ok: true, applied: false, preview: { name, version, ...changes, resume, rearm, stayOff }, reinstalled: false })}\n`,
      );
    else io.stdout('\nNothing was changed: add --yes to do it\n');
    return EXIT.accepted;
  }

  const folders = rearm.flatMap((t) => (t.folder ? [t.folder] : []));
  const api = cliApi(io, folders);
  const source = await api.registerSource(path, 'command-line');
  if (!source.ok) return refused(io, source.error);
  const again = await api.inspect({ sourceId: source.value.id });
  if (!again.ok) return refused(io, again.error);
  // The file read again must still be the installed bytes (it may have been replaced since).
  if (again.value.installed?.relation !== 'same')
    return refused(io, {
      code: 'reinstall.source_changed',
      message: `${paths[0]} changed while reinstalling: nothing was changed`,
    });
  const triggers: Record<string, { armed: true; folderId?: string }> = {};
  for (const t of rearm) {
    let folderId: string | undefined;
    if (t.folder) {
      const picked = await api.pickWatchFolder();
      if (!picked.ok) return refused(io, picked.error);
      folderId = picked.value?.folderId;
    }
    triggers[t.trigger.slice(name.length + 1)] = folderId ? { armed: true, folderId } : { armed: true };
  }
  // No agent answers: the install keeps the ones recorded, as an update does.
  const result = await api.install({ sourceId: source.value.id, decisions: { agents: {}, triggers } });
  if (!result.ok) return refused(io, result.error);
  const receipt = result.value;
  if (json) {
    io.stdout(
      `${terminalJson({ ok: true, applied: true, name, version, ...changes, resume, rearm, stayOff, reinstalled: true, armed: receipt.armed, webhookSecrets: receipt.webhookSecrets })}\n`,
    );
    return EXIT.accepted;
  }
  io.stdout(`Reinstalled ${name} ${version}: its files are the installed ones again.\n`);
  const resumed = receipt.armed.filter((id) => resume.includes(id));
  const armedAgain = receipt.armed.filter((id) => !resume.includes(id));
  if (resumed.length > 0) io.stdout(`  Resumed: ${resumed.join(', ')}\n`);
  if (armedAgain.length > 0) io.stdout(`  Armed again: ${armedAgain.join(', ')}\n`);
  if (receipt.armed.length === 0) io.stdout('  No trigger armed.\n');
  for (const secret of receipt.webhookSecrets)
    io.stdout(
      `  New webhook secret for ${secret.triggerId} (shown once, keep it now; the old one no longer signs): ${secret.secret}\n`,
    );
  if (receipt.webhookSecrets.length > 0) io.stdout(fileKeyNotice(cliDataDir(io)));
  return EXIT.accepted;
}
