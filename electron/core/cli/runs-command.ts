/**
 * `apollia-desktop runs [--trigger TRIGGER] [--json]`: what waits in `runs/pending/` for an agent
 * runtime, oldest first (trigger, agent, time, cause, a webhook payload's type: never its body), and
 * which triggers' queues are full: the app's Runs view, through the Api's own `waitingRuns`.
 *
 * `apollia-desktop runs discard RUN_ID | --trigger TRIGGER [--yes] [--json]`: discards one waiting
 * run, or every run one trigger has waiting, through `discardWaitingRun` / `discardTriggerRuns`
 * (recorded in the activity record). Without `--yes` it says what would be discarded and discards
 * nothing, as the app's confirmation does.
 */
import {
  queueFullWords,
  RUN_CAUSE_WORDS,
  runsWaitingWords,
  type WaitingRunsView,
  type WaitingRunView,
} from '../../../shared/triggers/run-queue';
import { refused } from './cli-data';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { terminalJson, terminalLine } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const RUNS_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] runs [--trigger TRIGGER] [--json]`,
  `       ${PROGRAM} [--data-dir DIR] runs discard RUN_ID [--yes] [--json]`,
  `       ${PROGRAM} [--data-dir DIR] runs discard --trigger TRIGGER [--yes] [--json]`,
  '',
  'The runs your triggers queued in runs/pending/ of the data folder, waiting until an agent runtime',
  'takes them (this app runs no agent), oldest first: never a webhook payload, only its type.',
  '  --trigger TRIGGER  Only this trigger’s runs (its id as `list` shows it, e.g. invoices/first-monday)',
  '  --json             Print them as JSON',
  '',
  'discard: remove one waiting run (RUN_ID as `runs` shows it), or every run of one trigger; recorded',
  'in the activity record. Without --yes, says what it would discard and discards nothing.',
  '  --yes              Discard',
  '',
].join('\n');

/** One run in one line. */
function runLine(run: WaitingRunView): string {
  const who = run.agentName ?? run.target ?? 'a trigger no longer on this computer';
  const what = run.unreadable
    ? `unreadable: ${run.unreadable}`
    : `${run.cause ? RUN_CAUSE_WORDS[run.cause] : 'cause unknown'}${run.payloadType !== null ? `, payload type ${run.payloadType}` : run.hasPayload ? ', payload without a type' : ''}`;
  return terminalLine(`${run.id}  ${run.firedAt}  ${run.trigger} → ${who}  (${what})`);
}

/** The listing in words. */
function printRuns(io: CliIo, view: WaitingRunsView): void {
  if (view.total === 0) {
    io.stdout('No run is waiting.\n');
    return;
  }
  io.stdout(`${view.total === 1 ? '1 run is' : `${view.total.toLocaleString('en-US')} runs are`} waiting:\n`);
  for (const trigger of view.triggers) {
    const full = trigger.full && trigger.limit !== null ? ` ${queueFullWords(trigger.waiting, trigger.limit)}` : '';
    const limit = trigger.limit === null ? ', no longer on this computer' : ` (at most ${trigger.limit})`;
    io.stdout(`${terminalLine(`  ${trigger.trigger}: ${runsWaitingWords(trigger.waiting)}${limit}.${full}`)}\n`);
  }
  io.stdout('\n');
  for (const run of view.runs) io.stdout(`${runLine(run)}\n`);
  if (view.notListed > 0)
    io.stdout(`… and ${view.notListed} more, newer (the oldest ${view.runs.length} are listed).\n`);
}

/** Parses `--trigger TRIGGER`, `--json`, `--yes` and positional arguments; a usage problem or the options. */
function parse(args: string[]) {
  let json = false;
  let yes = false;
  let trigger: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--json') json = true;
    else if (arg === '--yes' || arg === '-y') yes = true;
    else if (arg === '--trigger') {
      trigger = args[++i];
      if (trigger === undefined || trigger === '') return { problem: '--trigger needs a TRIGGER (as `list` shows it)' };
    } else if (arg.startsWith('-')) return { problem: `unknown option \`${arg}\` for runs` };
    else rest.push(arg);
  }
  return { json, yes, trigger, rest };
}

/** `runs discard …`. */
async function discard(args: string[], io: CliIo): Promise<number> {
  const options = parse(args);
  if ('problem' in options) return usageError(io, options.problem ?? '', RUNS_USAGE);
  const { json, yes, trigger, rest } = options;
  const oneOf = trigger === undefined ? rest.length === 1 : rest.length === 0;
  if (!oneOf) return usageError(io, 'runs discard takes one RUN_ID, or --trigger TRIGGER', RUNS_USAGE);
  const api = cliApi(io);
  const listed = await api.waitingRuns(trigger === undefined ? undefined : { trigger });
  if (!listed.ok) return refused(io, listed.error);
  const runId = rest[0];
  const targets = runId === undefined ? listed.value.runs : listed.value.runs.filter((r) => r.id === runId);
  if (!yes) {
    if (json) io.stdout(`${terminalJson({ wouldDiscard: targets.map((r) => r.id), discarded: false })}\n`);
    else {
      const count = runId === undefined ? listed.value.total : targets.length;
      // Only the oldest runs are listed: a run id beyond them may still be waiting.
      const beyondListed = runId !== undefined && count === 0 && listed.value.notListed > 0;
      io.stdout(
        beyondListed
          ? `Run ${runId} is not among the ${listed.value.runs.length} oldest waiting runs shown here; it may still be waiting.\n`
          : count === 0
            ? `${runId === undefined ? `Trigger ${trigger} has no run waiting` : `No run ${runId} is waiting`}: nothing to discard.\n`
            : `Would discard ${count === 1 ? '1 waiting run' : `${count} waiting runs`}${trigger === undefined ? '' : ` of ${trigger}`}:\n`,
      );
      for (const run of targets) io.stdout(`${runLine(run)}\n`);
      if (runId === undefined && listed.value.notListed > 0) io.stdout(`… and ${listed.value.notListed} more.\n`);
      io.stdout('Nothing was discarded. Run again with --yes to discard.\n');
    }
    return EXIT.accepted;
  }
  const result =
    runId === undefined
      ? await api.discardTriggerRuns({ triggerId: trigger as string })
      : await api.discardWaitingRun({ runId });
  if (!result.ok) return refused(io, result.error);
  if (json) {
    io.stdout(`${terminalJson(result.value)}\n`);
    return EXIT.accepted;
  }
  const { discarded, alreadyTaken } = result.value;
  io.stdout(
    terminalLine(
      `Discarded ${discarded.length === 1 ? '1 waiting run' : `${discarded.length} waiting runs`} of ${result.value.trigger}${alreadyTaken > 0 ? ` (${alreadyTaken} had been taken meanwhile)` : ''}; recorded in the activity record.`,
    ) + '\n',
  );
  return EXIT.accepted;
}

/** Runs `runs` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    io.stdout(RUNS_USAGE);
    return EXIT.accepted;
  }
  if (args[0] === 'discard') return discard(args.slice(1), io);
  const options = parse(args);
  if ('problem' in options) return usageError(io, options.problem ?? '', RUNS_USAGE);
  if (options.rest.length > 0 || options.yes)
    return usageError(io, 'runs takes no argument (or `discard`)', RUNS_USAGE);
  const listed = await cliApi(io).waitingRuns(options.trigger === undefined ? undefined : { trigger: options.trigger });
  if (!listed.ok) return refused(io, listed.error);
  if (options.json) io.stdout(`${terminalJson(listed.value)}\n`);
  else printRuns(io, listed.value);
  return EXIT.accepted;
}
