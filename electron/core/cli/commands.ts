/**
 * The CLI's commands, one module each (`<command>-command.ts` exporting `run(args, io)`). To add a
 * command, add one entry here: the dispatcher and the usage text are derived from this list.
 *
 * Each module is imported only when its command runs: `inspect` must not load the
 * store, the Api, the trigger host, chokidar or tar, and the package readers load only in the
 * bounded worker.
 */
import type { CliCommandRun } from './cli-io';

/** A command as the dispatcher sees it. */
export interface CliCommand {
  name: string;
  /** Arguments as shown in the usage text, e.g. `PATH [--json]`. */
  args: string;
  /** One line for the usage text. */
  summary: string;
  /**
   * Whether the command prints its own `--json` for these arguments; absent, it does. When it does not, the
   * dispatcher takes `--json` off its arguments and only a refusal is printed as JSON (DESIGN.md "The command line").
   */
  printsJson?: (args: readonly string[]) => boolean;
  /** Loads the command's module (a dynamic `import()`, so a command costs nothing until it runs). */
  load: () => Promise<{ run: CliCommandRun }>;
}

/** Every command, in the order the usage text lists them. */
export const COMMANDS: readonly CliCommand[] = [
  {
    name: 'inspect',
    args: 'PATH|NAME [--json]',
    summary:
      'Check a .apo package, a built-in template (by name), a template folder or a plugin manifest without running any of it',
    load: () => import('./inspect-command'),
  },
  {
    name: 'install',
    args: 'PATH|LINK|--feed URL NAME [--version V] [--yes] [--grant|--withhold|--allow|--ask ENTRY ...] [--arm TRIGGER[=FOLDER] [--webhook-secret-file FILE | --webhook-secret-stdin] ...] [--disarm TRIGGER ...] [--allow-downgrade] [--accept-key-change] [--json]',
    summary: 'Show what a .apo asks; with --yes, install it into the store',
    load: () => import('./install-command'),
  },
  {
    name: 'reinstall',
    args: 'PATH [--yes] [--json]',
    summary:
      'Put back a package whose files changed on this computer: shows what changed, then reinstalls the same version and re-arms what was armed',
    load: () => import('./reinstall-command'),
  },
  {
    name: 'apply',
    args: 'NAME|DIR [--param NAME=VALUE ...] [--grant GATE ...] [--withhold TOOL ...] [--approvals ask|never] [--arm TRIGGER ...] [--another] [--yes] [--json]',
    summary:
      'Show what a built-in template (by name) or a template folder (a path) would make; with --yes, make its agent and triggers',
    load: () => import('./apply-command'),
  },
  {
    name: 'pack',
    printsJson: () => false,
    args: 'DIR [-o|--output FILE] [--force]',
    summary: 'Pack a package folder as a deterministic .apo, after the checks of inspect',
    load: () => import('./pack-command'),
  },
  {
    name: 'list',
    args: '[--json]',
    summary: 'List installed packages, agents and triggers',
    load: () => import('./list-command'),
  },
  {
    name: 'arm',
    args: 'TRIGGER [--folder DIR] [--webhook-secret-file FILE | --webhook-secret-stdin] [--json]',
    summary: 'Arm a trigger: a file_watch one watches DIR; a webhook gets a secret made here or your sender’s',
    load: () => import('./arm-command'),
  },
  {
    name: 'disarm',
    args: 'TRIGGER [--json]',
    summary: 'Disarm a trigger (a webhook’s secret is deleted)',
    load: async () => ({ run: (await import('./arm-command')).runDisarm }),
  },
  {
    name: 'pause',
    args: 'TRIGGER [--json]',
    summary: 'Pause an armed trigger: it keeps its folder and secret and does not fire until resumed',
    load: async () => ({ run: (await import('./pause-command')).runPause }),
  },
  {
    name: 'resume',
    args: 'TRIGGER [--json]',
    summary: 'Resume a trigger you paused: it fires again with what it kept',
    load: async () => ({ run: (await import('./pause-command')).runResume }),
  },
  {
    name: 'grant',
    args: 'AGENT ENTRY... [--json]',
    summary: 'Allow an agent entries it is offered (a package agent’s access, a template agent’s tools)',
    load: async () => ({ run: (await import('./agent-commands')).runGrant }),
  },
  {
    name: 'revoke',
    args: 'AGENT ENTRY... [--json]',
    summary: 'Withdraw entries from an agent',
    load: async () => ({ run: (await import('./agent-commands')).runRevoke }),
  },
  {
    name: 'approvals',
    args: 'AGENT ask|never [--tool TOOL] [--json]',
    summary: 'How an agent’s tools run: ask you first, or run unattended (a package’s agent: one tool at a time)',
    load: async () => ({ run: (await import('./pause-command')).runApprovals }),
  },
  {
    name: 'remove',
    args: 'AGENT [--json]',
    summary: 'Remove an agent a template made (archived, its triggers disarmed)',
    load: async () => ({ run: (await import('./agent-commands')).runRemove }),
  },
  {
    name: 'mcp',
    printsJson: (args) => args[0] === 'list',
    args: 'add NAME --command CMD [--arg ARG ...] [--env-file FILE] [--env-stdin] [--env KEY=VALUE ...] | add NAME --url URL [--transport T] | list [--json] | remove NAME',
    summary: 'Manage the MCP servers templates use (`--grant mcp:NAME/TOOL` needs NAME saved)',
    load: () => import('./mcp-command'),
  },
  {
    name: 'rotate',
    printsJson: () => false,
    args: 'TRIGGER [--webhook-secret-file FILE | --webhook-secret-stdin]',
    summary: 'Replace an armed webhook trigger’s secret: made here (shown once) or the one its sender gave',
    load: () => import('./rotate-command'),
  },
  {
    name: 'uninstall',
    printsJson: () => false,
    args: 'NAME',
    summary: 'Remove an installed package, its agents and triggers',
    load: () => import('./uninstall-command'),
  },
  {
    name: 'feeds',
    args: '[--json] | add URL | remove URL',
    summary: 'List the publishers’ feeds followed, follow one, or stop following one',
    load: async () => ({ run: (await import('./feed-commands')).runFeeds }),
  },
  {
    name: 'outdated',
    args: '[--json]',
    summary: 'Check the feeds: each package installed from one, its latest version, mode, and a withdrawn version',
    load: async () => ({ run: (await import('./feed-commands')).runOutdated }),
  },
  {
    name: 'update',
    args: 'NAME|--all [--yes]',
    summary: 'Show what an update from the feed would change; with --yes, install it (as any update)',
    load: async () => ({ run: (await import('./feed-commands')).runUpdate }),
  },
  {
    name: 'rollback',
    args: 'NAME [--yes]',
    summary: 'Put back the previous version kept, with your decisions; with --yes, install it',
    load: async () => ({ run: (await import('./feed-commands')).runRollback }),
  },
  {
    name: 'update-mode',
    args: 'NAME notify|auto|hold',
    summary: 'How a package follows its feed: notify (the default), auto (only what asks nothing new), hold',
    load: async () => ({ run: (await import('./feed-commands')).runUpdateMode }),
  },
  {
    name: 'serve',
    printsJson: () => false,
    args: '[--port N]',
    summary: 'Make armed triggers live until stopped: schedules, watched folders, signed webhooks',
    load: () => import('./serve-command'),
  },
  {
    name: 'trust',
    printsJson: (args) => args[0] === 'list',
    args: 'add KEY.pub --name NAME | list [--json] | remove KEYID',
    summary: 'Manage the publisher keys you trust: a package signed by one shows as verified',
    load: () => import('./trust-command'),
  },
  {
    name: 'verify',
    args: '[--json]',
    summary: 'Check that installed packages are unchanged since install (a changed one has its triggers disarmed)',
    load: () => import('./verify-command'),
  },
  {
    name: 'policy',
    args: '[--json]',
    summary: 'Show the policy your organization set for this computer, and which file each part came from',
    load: () => import('./policy-command'),
  },
  {
    name: 'runs',
    args: '[--trigger TRIGGER] [--json] | discard (RUN_ID | --trigger TRIGGER) [--yes] [--json]',
    summary:
      'Show the runs waiting for an agent runtime (and which triggers’ queues are full); discard one, or a trigger’s',
    load: () => import('./runs-command'),
  },
  {
    name: 'activity',
    args: '[--json] [--decisions] [--agent ID] [--limit N] | verify [--json] | export [--since T] [--decisions] [--json | --otlp URL] | collector [URL | --off] [--json]',
    summary:
      'Show the activity record, newest first; verify: what it proves, or where it breaks; export: JSON Lines or OTLP; collector: where it is sent',
    load: () => import('./activity-command'),
  },
];
