/**
 * `apollia-desktop [--data-dir D] verify [--json]`: re-checks every installed
 * package's files against the SHA-256 install recorded. A changed, missing or added file marks the
 * package "changed on this computer since you installed it" and pauses its triggers by integrity (still armed;
 * recorded in the store and the activity log, once). Exit 0 when every package is unchanged, 1 when any is changed.
 */
import { integrityDetail } from '../app/publisher-trust';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { refused } from './cli-data';
import { terminalJson } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const VERIFY_USAGE = `Usage: ${PROGRAM} [--data-dir DIR] verify [--json]\n\nChecks that the installed packages' files are still the ones installed. Exit 0 all unchanged, 1 some changed.\n`;

/** Runs `verify` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  let json = false;
  for (const arg of args) {
    if (arg === '--json') json = true;
    else if (arg === '-h' || arg === '--help') {
      io.stdout(VERIFY_USAGE);
      return EXIT.accepted;
    } else
      return usageError(
        io,
        arg.startsWith('-') ? `unknown option \`${arg}\` for verify` : 'verify takes no argument',
        VERIFY_USAGE,
      );
  }
  const verified = await cliApi(io).verifyInstalled();
  if (!verified.ok) return refused(io, verified.error);
  const results = verified.value;
  const changed = results.filter((r) => r.integrity.state === 'changed');
  if (json) {
    // The one contract's `ok` and `errors` (DESIGN.md "The command line"): each changed package, named, is a problem.
    const errors = changed.map((r) => ({
      code: 'package.changed',
      message: `${r.name} ${r.version} changed on this computer since you installed it (${integrityDetail(r.integrity)})`,
      path: r.name,
    }));
    io.stdout(
      `${terminalJson({ ok: errors.length === 0, errors, packages: results.map((r) => ({ name: r.name, version: r.version, integrity: r.integrity.state, changed: r.integrity.changed, missing: r.integrity.missing, added: r.integrity.added, paused: r.paused })) })}\n`,
    );
  } else {
    if (results.length === 0) io.stdout('No package installed.\n');
    for (const r of results) {
      if (r.integrity.state === 'ok') io.stdout(`  ok       ${r.name} ${r.version}\n`);
      else {
        io.stdout(
          `  CHANGED  ${r.name} ${r.version}: changed on this computer since you installed it (${integrityDetail(r.integrity)})\n`,
        );
        if (r.paused.length > 0)
          io.stdout(`           triggers paused by integrity (still armed): ${r.paused.join(', ')}\n`);
        io.stdout(`           put it back with \`reinstall PKG.apo\` (its paused triggers resume), or uninstall it.\n`);
      }
    }
  }
  return changed.length > 0 ? EXIT.refused : EXIT.accepted;
}
