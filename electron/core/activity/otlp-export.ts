/**
 * The activity record as OpenTelemetry logs over OTLP/HTTP (DESIGN.md "Triggers at run time", the
 * record's paragraph: against the same user, the export is the anchor; "Managed policy":
 * `activityExport.otlp`), with the official packages: `@opentelemetry/sdk-logs`'s
 * `BatchLogRecordProcessor` batches, `@opentelemetry/exporter-logs-otlp-http` sends the protocol's
 * JSON encoding and retries what the protocol calls retryable (429, 502, 503, 504, a refused or
 * reset connection), honouring `Retry-After`.
 *
 * Each stored line becomes one log record: its fields as attributes (`apollia.activity.*`), its
 * chain's (`apollia.record.stream`, `.seq`, `.hmac` or `.prev`) and the line itself, byte for byte
 * (`apollia.record.line`: the next line's HMAC is over those bytes), so a collector can compare
 * heads and a holder of the key can verify. Emitting never waits on the network: a decision is
 * never held by its export. Every batch's result is counted ({@link OtlpExportStats}) and handed to
 * `onResult`, with the lines it carried, so the shipper can send a failed batch again.
 */
import { hostname } from 'node:os';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchLogRecordProcessor,
  LoggerProvider,
  type LogRecordExporter,
  type ReadableLogRecord,
} from '@opentelemetry/sdk-logs';
import type { RecordStream } from './record-chain';

/** One stored line of the record and its stream, as `exportLines` gives it. */
export interface StoredLine {
  stream: RecordStream;
  text: string;
}

/** What the export has done since it was made. */
export interface OtlpExportStats {
  /** Entries the collector accepted. */
  sent: number;
  /** Entries in batches that failed after the exporter's retries. */
  failed: number;
  /** Batches that failed after the exporter's retries. */
  failedBatches: number;
  /** The last failure in words, and when (ISO), or null. */
  lastError: string | null;
  lastFailureAt: string | null;
  /** When a batch was last accepted (ISO), or null. */
  lastSentAt: string | null;
}

/** Options of an export. */
export interface OtlpExportOptions {
  /** The collector's OTLP/HTTP logs address (`https://…/v1/logs`, or `http://` on this computer's loopback). */
  url: string;
  now?: () => Date;
  /** How long one batch may take, retries included (ms); the exporter's default is 10 s. */
  timeoutMillis?: number;
  /** How long the processor waits to fill a batch (ms); its default is 1 s. */
  scheduledDelayMillis?: number;
  /** Largest batch (the processor's default, 512). */
  maxExportBatchSize?: number;
  /** Each batch's result, with the lines it carried. */
  onResult?: (result: { ok: boolean; lines: StoredLine[]; error: string | null }) => void;
}

/** The attribute holding the stored line, byte for byte. */
export const LINE_ATTRIBUTE = 'apollia.record.line';
/** The entries one export holds before it must be flushed (the processor's queue is 2,048: never let it drop). */
export const EXPORT_QUEUE_ROOM = 1024;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * What is wrong with an OTLP address, in a sentence, or null: only `https://`, or `http://` to this
 * computer's loopback (a local collector); no user or password in it (a header's job, and the
 * address is shown on screen).
 */
export function otlpEndpointProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `the OTLP address \`${url}\` is not an address (e.g. https://otel.example.com/v1/logs)`;
  }
  if (parsed.username !== '' || parsed.password !== '') return 'the OTLP address must not carry a user or password';
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname)) return null;
  if (parsed.protocol === 'http:')
    return `the OTLP address must use https:// (plain http:// only to this computer: 127.0.0.1 or localhost), not \`${parsed.origin}\``;
  return `the OTLP address must be https:// (or http:// to 127.0.0.1 or localhost), not \`${parsed.protocol}\``;
}

/** The severity of an entry: a failure is an error, a refusal or a skip a warning. */
function severityOf(outcome: unknown, kind: unknown): { number: SeverityNumber; text: string } {
  if (outcome === 'failed' || kind === 'record_broken') return { number: SeverityNumber.ERROR, text: 'ERROR' };
  if (outcome === 'refused' || outcome === 'skipped') return { number: SeverityNumber.WARN, text: 'WARN' };
  return { number: SeverityNumber.INFO, text: 'INFO' };
}

/** The log record of one stored line: its fields and its chain's as attributes, the line itself kept whole. */
export function logRecordOf(line: StoredLine): {
  eventName: string;
  timestamp: Date;
  severityNumber: SeverityNumber;
  severityText: string;
  body: string;
  attributes: Record<string, string | number>;
} {
  let entry: Record<string, unknown> = {};
  try {
    const value: unknown = JSON.parse(line.text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) entry = value as Record<string, unknown>;
  } catch {
    // Not an entry: sent as it is, so the collector sees the line the record holds.
  }
  const attributes: Record<string, string | number> = {
    'apollia.record.stream': line.stream,
    [LINE_ATTRIBUTE]: line.text,
  };
  for (const field of ['kind', 'outcome', 'package', 'agent', 'trigger', 'at'] as const)
    if (typeof entry[field] === 'string') attributes[`apollia.activity.${field}`] = entry[field];
  if (typeof entry.seq === 'number') attributes['apollia.record.seq'] = entry.seq;
  for (const field of ['hmac', 'prev'] as const)
    if (typeof entry[field] === 'string') attributes[`apollia.record.${field}`] = entry[field];
  const at = typeof entry.at === 'string' ? new Date(entry.at) : new Date(Number.NaN);
  const severity = severityOf(entry.outcome, entry.kind);
  return {
    eventName: `apollia.activity.${typeof entry.kind === 'string' ? entry.kind : 'unreadable'}`,
    timestamp: Number.isNaN(at.getTime()) ? new Date() : at,
    severityNumber: severity.number,
    severityText: severity.text,
    body: typeof entry.detail === 'string' ? entry.detail : line.text,
    attributes,
  };
}

/** The stored line a log record carries. */
function lineOf(record: ReadableLogRecord): StoredLine {
  const text = record.attributes[LINE_ATTRIBUTE];
  const stream = record.attributes['apollia.record.stream'];
  return { stream: stream === 'traffic' ? 'traffic' : 'decisions', text: typeof text === 'string' ? text : '' };
}

/** The exporter, with each batch's result counted and reported. */
class CountingExporter implements LogRecordExporter {
  constructor(
    private readonly inner: LogRecordExporter,
    private readonly done: (ok: boolean, records: ReadableLogRecord[], error: string | null) => void,
  ) {}

  export(logs: ReadableLogRecord[], resultCallback: Parameters<LogRecordExporter['export']>[1]): void {
    this.inner.export(logs, (result) => {
      // ExportResultCode.SUCCESS is 0 (@opentelemetry/core).
      const ok = result.code === 0;
      this.done(ok, logs, ok ? null : (result.error?.message ?? 'the collector did not accept the batch'));
      resultCallback(result);
    });
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/** One OTLP/HTTP export of the record to one collector. */
export class OtlpActivityExport {
  readonly url: string;
  readonly stats: OtlpExportStats = {
    sent: 0,
    failed: 0,
    failedBatches: 0,
    lastError: null,
    lastFailureAt: null,
    lastSentAt: null,
  };
  private readonly provider: LoggerProvider;
  private readonly logger: ReturnType<LoggerProvider['getLogger']>;

  /** Throws the address's problem ({@link otlpEndpointProblem}) as an error. */
  constructor(options: OtlpExportOptions) {
    const problem = otlpEndpointProblem(options.url);
    if (problem !== null) throw new Error(problem);
    this.url = options.url;
    const now = options.now ?? (() => new Date());
    const exporter = new CountingExporter(
      new OTLPLogExporter({
        url: options.url,
        headers: { 'Content-Type': 'application/json' },
        timeoutMillis: options.timeoutMillis ?? 10_000,
      }),
      (ok, records, error) => {
        const at = now().toISOString();
        if (ok) {
          this.stats.sent += records.length;
          this.stats.lastSentAt = at;
        } else {
          this.stats.failed += records.length;
          this.stats.failedBatches += 1;
          this.stats.lastError = error;
          this.stats.lastFailureAt = at;
        }
        options.onResult?.({ ok, lines: records.map(lineOf), error });
      },
    );
    this.provider = new LoggerProvider({
      resource: resourceFromAttributes({ 'service.name': 'apollia-desktop', 'host.name': hostname() }),
      processors: [
        new BatchLogRecordProcessor({
          exporter,
          maxQueueSize: EXPORT_QUEUE_ROOM * 2,
          maxExportBatchSize: options.maxExportBatchSize ?? 512,
          scheduledDelayMillis: options.scheduledDelayMillis ?? 1000,
          exportTimeoutMillis: (options.timeoutMillis ?? 10_000) + 1000,
        }),
      ],
    });
    this.logger = this.provider.getLogger('apollia-desktop.activity');
  }

  /** Hands lines to the batch processor; returns at once (at most {@link EXPORT_QUEUE_ROOM} between flushes). */
  emit(lines: readonly StoredLine[]): void {
    for (const line of lines) this.logger.emit(logRecordOf(line));
  }

  /** Sends what is queued now and waits for the batches' results. */
  flush(): Promise<void> {
    return this.provider.forceFlush();
  }

  /** Sends what is queued, then stops. */
  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}
