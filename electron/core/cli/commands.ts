/**
 * The CLI's commands, one module each (`<command>-command.ts` exporting `run(args, io)`). To add a
 * command, add one entry here: the dispatcher and the usage text are derived from this list.
 */
import type { CliCommandRun } from './cli-io';
import { run as activity } from './activity-command';
import { run as apply } from './apply-command';
import { run as inspect } from './inspect-command';
import { run as install } from './install-command';
import { run as list } from './list-command';
import { run as pack } from './pack-command';
import { run as rotate } from './rotate-command';
import { run as serve } from './serve-command';
import { run as uninstall } from './uninstall-command';

/** A command as the dispatcher sees it. */
export interface CliCommand {
  name: string;
  /** Arguments as shown in the usage text, e.g. `PATH [--json]`. */
  args: string;
  /** One line for the usage text. */
  summary: string;
  run: CliCommandRun;
}

/** Every command, in the order the usage text lists them. */
export const COMMANDS: readonly CliCommand[] = [
  { name: 'inspect', args: 'PATH [--json]', summary: 'Check a .apo package, a template folder or a plugin manifest without running any of it', run: inspect },
  { name: 'install', args: 'PATH [--yes] [--grant ENTRY ...] [--arm TRIGGER[=FOLDER] [--webhook-secret-file FILE | --webhook-secret-stdin] ...]', summary: 'Show what a .apo asks; with --yes, install it into the store', run: install },
  { name: 'apply', args: 'DIR [--param NAME=VALUE ...] [--grant GATE ...]', summary: 'Apply a template folder: make its agent and triggers, or nothing', run: apply },
  { name: 'pack', args: 'DIR [-o FILE] [--force]', summary: 'Pack a package folder as a deterministic .apo, after the checks of inspect', run: pack },
  { name: 'list', args: '[--json]', summary: 'List installed packages, agents and triggers', run: list },
  { name: 'rotate', args: 'TRIGGER [--webhook-secret-file FILE | --webhook-secret-stdin]', summary: 'Replace an armed webhook trigger’s secret: made here (shown once) or the one its sender gave', run: rotate },
  { name: 'uninstall', args: 'NAME', summary: 'Remove an installed package, its agents and triggers', run: uninstall },
  { name: 'serve', args: '[--port N]', summary: 'Make armed triggers live until stopped: schedules, watched folders, signed webhooks', run: serve },
  { name: 'activity', args: '[--json] [--agent ID] [--limit N]', summary: 'Show the activity log, newest first', run: activity },
];
