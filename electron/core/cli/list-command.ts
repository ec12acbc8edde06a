/**
 * `apollia-desktop list [--json]`: what is installed here (the dashboard, headless).
 * `--json` prints `{ "packages": [...], "agents": [...], "triggers": [...], "damage": [...] }`.
 */
import { fireTimeWords } from '../../../shared/words/cron-words';
import { terminalJson } from './terminal-text';
import type { Dashboard, TriggerView } from '../../../shared/contract/api';
import { publisherStatus } from '../../../shared/decisions/verdict';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { refused } from './cli-data';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const LIST_USAGE = `Usage: ${PROGRAM} [--data-dir DIR] list [--json]\n`;

/** The `--json` object: packages, agents (with their access), every trigger, and any store damage. */
export function listJson(dashboard: Dashboard): object {
  const triggers: TriggerView[] = [
    ...dashboard.packages.flatMap((p) => p.triggers),
    ...dashboard.agents.flatMap((a) => a.triggers),
  ];
  return {
    // Trust: `integrity` is "ok" or "changed"; the files behind a change beside it.
    packages: dashboard.packages.map(({ triggers: _t, integrity, ...pkg }) => ({
      ...pkg,
      integrity: integrity.state,
      integrity_changes: { changed: integrity.changed, missing: integrity.missing, added: integrity.added },
    })),
    agents: dashboard.agents.map(({ triggers: _t, ...agent }) => agent),
    triggers: triggers.sort((a, b) => a.id.localeCompare(b.id)),
    damage: dashboard.damage,
  };
}

/** Runs `list` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  let json = false;
  for (const arg of args) {
    if (arg === '--json') json = true;
    else if (arg === '-h' || arg === '--help') {
      io.stdout(LIST_USAGE);
      return EXIT.accepted;
    } else
      return usageError(
        io,
        arg.startsWith('-') ? `unknown option \`${arg}\` for list` : 'list takes no argument',
        LIST_USAGE,
      );
  }
  const result = await cliApi(io).dashboard();
  if (!result.ok) return refused(io, result.error);
  const view = listJson(result.value) as ReturnType<typeof listJson> & { triggers: TriggerView[] };
  if (json) {
    io.stdout(`${terminalJson(view)}\n`);
    return EXIT.accepted;
  }
  const d = result.value;
  for (const damage of d.damage)
    io.stdout(`! The store was damaged and kept aside as ${damage.keptAs}: ${damage.reason}\n`);
  io.stdout(d.packages.length === 0 ? 'No package installed.\n' : 'Packages:\n');
  for (const pkg of d.packages) {
    io.stdout(
      `  ${pkg.name} ${pkg.version}  ${pkg.publisher} (${publisherStatus(pkg.signature, pkg.publisher).label})  installed ${pkg.installedAt}\n`,
    );
    if (pkg.integrity.state === 'changed')
      io.stdout(
        '    CHANGED on this computer since you installed it: its triggers are paused (still armed); reinstall or uninstall it\n',
      );
  }
  io.stdout(d.agents.length === 0 ? 'No agent.\n' : 'Agents:\n');
  for (const agent of d.agents) {
    io.stdout(
      `  ${agent.displayName} [${agent.id}] from ${agent.from} ${agent.fromVersion}${agent.archived ? ' (archived)' : ''}\n`,
    );
    for (const access of agent.access)
      io.stdout(`    ${access.permission.padEnd(5)} ${access.tool}${access.family ? ` (${access.family})` : ''}\n`);
  }
  if (view.triggers.length > 0) io.stdout('Triggers:\n');
  for (const trigger of view.triggers) {
    // Where a webhook's secret came from and when it was last set (never its value).
    const secret = trigger.webhookSecretOrigin
      ? `; secret ${trigger.webhookSecretOrigin === 'given' ? 'given by your sender' : 'made here'}, set ${trigger.webhookSecretSetAt}`
      : '';
    io.stdout(
      `  ${trigger.armed ? (trigger.pausedAt !== null ? 'paused  ' : 'armed   ') : 'disarmed'} ${trigger.id}: ${trigger.words}${trigger.next[0] ? `, next ${fireTimeWords(trigger.next[0])}` : ''}${secret}${trigger.integrity ? ' (paused by integrity: its files changed)' : ''}
`,
    );
  }
  return EXIT.accepted;
}
