/**
 * `apollia-desktop activity export --otlp URL [--since TIME] [--decisions]`: the record sent once to
 * a collector as OpenTelemetry logs over OTLP/HTTP (activity/otlp-export.ts), each stored line one
 * log record with its chain's fields; batched, retried by the exporter; the counts said at the end.
 * The continuous export is the trigger host's (the policy's `activityExport.otlp`).
 */
import type { ActivityLog } from '../activity/activity-log';
import { EXPORT_QUEUE_ROOM, OtlpActivityExport } from '../activity/otlp-export';
import { type CliIo, EXIT } from './cli-io';
import { terminalSafe } from './terminal-text';

/** Sends the stored lines to `url`; exit 0 when the collector took them all, 1 when not. */
export async function sendToCollector(
  io: CliIo,
  log: ActivityLog,
  url: string,
  filter: { since?: string; decisionsOnly: boolean },
  timeoutMillis = 10_000,
): Promise<number> {
  const lines = await log.exportLines(filter);
  const exporter = new OtlpActivityExport({ url, timeoutMillis });
  for (let i = 0; i < lines.length; i += EXPORT_QUEUE_ROOM) {
    exporter.emit(lines.slice(i, i + EXPORT_QUEUE_ROOM));
    // The processor's queue is bounded: each piece is sent before the next is handed over.
    await exporter.flush();
  }
  await exporter.shutdown();
  const { sent, failed, failedBatches, lastError } = exporter.stats;
  const where = terminalSafe(url);
  if (failed === 0) {
    io.stdout(`Sent ${sent} ${sent === 1 ? 'entry' : 'entries'} of the activity record to ${where}.\n`);
    return EXIT.accepted;
  }
  io.stderr(
    `${failed} of ${lines.length} entries could not be sent to ${where} (${failedBatches} ${failedBatches === 1 ? 'batch' : 'batches'} failed after retries): ${terminalSafe(lastError ?? 'no answer')}. ${sent} sent. Nothing was changed here; run it again (the collector may receive some twice).\n`,
  );
  return EXIT.refused;
}
