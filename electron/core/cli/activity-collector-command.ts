/**
 * `apollia-desktop [--data-dir DIR] activity collector [URL | --off] [--json]`: the OpenTelemetry collector the
 * trigger host ships the activity record to, through the Api's own `activityCollector` and `setActivityCollector`
 * (as Settings → Activity record): without an argument, the address in effect, whether it is the organization's or
 * yours, and what was sent (as the Activity screen says it); with URL, names yours; with `--off`, removes it. The
 * organization's `activityExport.otlp` wins: while it names one, yours cannot be changed (`policy.collector_locked`,
 * exit 1). The same address again, or `--off` with none named, is nothing to do (exit 0, nothing written).
 */
import { collectorOriginWords } from '../../../shared/activity/collector';
import type { ActivityCollectorView, ActivityExportView } from '../../../shared/contract/api';
import { otlpEndpointProblem } from '../activity/otlp-export';
import { refused } from './cli-data';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { terminalJson, terminalSafe } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of `activity collector`. */
export const COLLECTOR_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] activity collector [--json]`,
  `       ${PROGRAM} [--data-dir DIR] activity collector URL [--json]`,
  `       ${PROGRAM} [--data-dir DIR] activity collector --off [--json]`,
  '',
  'The OpenTelemetry collector the activity record is sent to (OTLP/HTTP logs) while the app or `serve` runs.',
  "  (none)   The collector in effect: your organization's when its policy names one, else yours; and what was sent",
  '  URL      Names your collector: https://, or http:// to 127.0.0.1 or localhost, e.g. https://otel.example.com/v1/logs',
  '  --off    Removes your collector: the record is kept on this computer only (unless your organization names one)',
  '  --json   Print the collector as JSON',
  '',
].join('\n');

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What was sent, as the Activity screen says it (`RecordExport`). */
export function shippingWords(exported: ActivityExportView): string {
  const whose = exported.origin === 'organization' ? "your organization's collector" : 'your collector';
  if (exported.problem !== null) return `It is not sent: ${exported.problem}.`;
  const sent =
    exported.sent > 0
      ? `${plural(exported.sent, 'entry', 'entries')} sent${exported.lastSentAt ? `, the last at ${exported.lastSentAt}` : ''}`
      : 'nothing sent yet (the record is sent while Apollia Desktop or serve runs)';
  const failing =
    exported.lastFailureAt !== null && (exported.lastSentAt === null || exported.lastSentAt < exported.lastFailureAt);
  if (failing)
    return `Sent to ${whose}: ${sent}, but ${plural(exported.failed, 'entry', 'entries')} in ${plural(exported.failedBatches, 'batch', 'batches')} could not be sent; the last failure, at ${exported.lastFailureAt}: ${exported.lastError ?? 'no answer'}. They are sent again while Apollia Desktop (or serve) runs.`;
  return `Sent to ${whose}: ${sent}.`;
}

/** The collector in effect, in words: where, whose, what was sent; and yours when the organization's wins. */
function collectorWords(view: ActivityCollectorView): string {
  const inEffect = view.inEffect;
  if (inEffect === null)
    return 'No collector is named: the activity record is kept on this computer only. Name one with `activity collector URL`.\n';
  const lines = [
    `The activity record is sent to ${inEffect.url}, ${collectorOriginWords(inEffect.origin)}.`,
    shippingWords(inEffect),
  ];
  if (view.managed && view.yours !== null && view.yours !== inEffect.url)
    lines.push(`Yours, ${view.yours}, is not used while your organization names one.`);
  return `${lines.map((line) => terminalSafe(line)).join('\n')}\n`;
}

/** Runs `activity collector` with the arguments after it. */
export async function run(args: string[], io: CliIo): Promise<number> {
  let json = false;
  let off = false;
  const urls: string[] = [];
  for (const arg of args) {
    if (arg === '--json') json = true;
    else if (arg === '--off') off = true;
    else if (arg === '-h' || arg === '--help') {
      io.stdout(COLLECTOR_USAGE);
      return EXIT.accepted;
    } else if (arg.startsWith('-'))
      return usageError(io, `unknown option \`${terminalSafe(arg)}\` for activity collector`, COLLECTOR_USAGE);
    else urls.push(arg);
  }
  if (urls.length > 1) return usageError(io, `activity collector takes one URL, got ${urls.length}`, COLLECTOR_USAGE);
  const url = urls[0];
  if (off && url !== undefined)
    return usageError(io, 'give a URL to name your collector, or --off to remove it, not both', COLLECTOR_USAGE);
  if (url !== undefined) {
    const problem = otlpEndpointProblem(url);
    if (problem !== null) return usageError(io, terminalSafe(problem), COLLECTOR_USAGE);
  }
  const api = cliApi(io);
  if (!off && url === undefined) {
    const shown = await api.activityCollector();
    if (!shown.ok) return refused(io, shown.error);
    io.stdout(json ? `${terminalJson(shown.value)}\n` : collectorWords(shown.value));
    return EXIT.accepted;
  }
  const before = await api.activityCollector();
  const result = await api.setActivityCollector({ url: url ?? null });
  if (!result.ok) return refused(io, result.error);
  if (json) io.stdout(`${terminalJson(result.value)}\n`);
  else if (result.value.changed === false)
    io.stdout(
      terminalSafe(
        url === undefined
          ? 'No collector of yours is named: nothing to do.\n'
          : `Your collector is already ${url}: nothing to do.\n`,
      ),
    );
  else if (url === undefined) {
    const was = before.ok ? before.value.yours : null;
    io.stdout(`${terminalSafe(`Removed your collector${was ? ` ${was}` : ''}.`)}\n${collectorWords(result.value)}`);
  } else io.stdout(`${terminalSafe(`Your collector is now ${url}.`)}\n${collectorWords(result.value)}`);
  return EXIT.accepted;
}
