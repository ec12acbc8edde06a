/**
 * An OTLP/HTTP logs receiver on loopback for tests: takes `POST /v1/logs` in the protocol's JSON
 * encoding (ExportLogsServiceRequest), keeps every request's log records with their attributes
 * flattened, and answers from a script: a status per request (200 when the script is empty), or
 * holds a request unanswered until `release()`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One log record as received: its attributes flattened to plain values. */
export interface ReceivedRecord {
  eventName: string | undefined;
  severityText: string | undefined;
  timeUnixNano: string | undefined;
  body: unknown;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
}

/** One request as received. */
export interface ReceivedRequest {
  path: string;
  contentType: string | undefined;
  status: number;
  records: ReceivedRecord[];
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };

function plain(value: AnyValue | undefined): string | number | boolean {
  if (value?.stringValue !== undefined) return value.stringValue;
  if (value?.intValue !== undefined) return Number(value.intValue);
  if (value?.doubleValue !== undefined) return value.doubleValue;
  if (value?.boolValue !== undefined) return value.boolValue;
  return '';
}

function flatten(list: { key: string; value: AnyValue }[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, plain(a.value)]));
}

/** Parses an ExportLogsServiceRequest in JSON into its records. */
export function recordsOf(body: string): ReceivedRecord[] {
  const doc = JSON.parse(body) as {
    resourceLogs?: {
      resource?: { attributes?: { key: string; value: AnyValue }[] };
      scopeLogs?: {
        logRecords?: {
          eventName?: string;
          severityText?: string;
          timeUnixNano?: string;
          body?: AnyValue;
          attributes?: { key: string; value: AnyValue }[];
        }[];
      }[];
    }[];
  };
  const out: ReceivedRecord[] = [];
  for (const rl of doc.resourceLogs ?? [])
    for (const sl of rl.scopeLogs ?? [])
      for (const r of sl.logRecords ?? [])
        out.push({
          eventName: r.eventName,
          severityText: r.severityText,
          timeUnixNano: r.timeUnixNano,
          body: r.body ? plain(r.body) : undefined,
          attributes: flatten(r.attributes),
          resource: flatten(rl.resource?.attributes),
        });
  return out;
}

/** A receiver listening on 127.0.0.1. */
export interface OtlpReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** The statuses to answer next, in order ('hold': keep the request open until {@link release}). */
  script: (number | 'hold')[];
  /** Resolves when the receiver has taken `n` requests in all. */
  taken(n: number): Promise<void>;
  /** Answers every held request with `status`. */
  release(status: number): void;
  close(): Promise<void>;
}

/** Starts a receiver on a free loopback port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: ReceivedRequest[] = [];
  const held: ServerResponse[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const receiver = {
    url: '',
    requests,
    script: [] as (number | 'hold')[],
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const next = receiver.script.shift() ?? 200;
      const status = next === 'hold' ? 0 : next;
      requests.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'],
        status,
        records: recordsOf(Buffer.concat(chunks).toString('utf8')),
      });
      for (const w of waiters.filter((w) => requests.length >= w.n)) w.resolve();
      if (next === 'hold') held.push(res);
      else {
        res.writeHead(status, {
          'content-type': 'application/json',
          ...(status === 503 ? { 'retry-after': '0' } : {}),
        });
        res.end(status === 200 ? '{}' : '{"code":14,"message":"unavailable"}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/logs`;
  return Object.assign(receiver, {
    taken: (n: number) =>
      requests.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    release: (status: number) => {
      for (const res of held.splice(0)) {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end('{}');
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** An address on loopback where nothing listens (a receiver started and closed). */
export async function deadOtlpUrl(): Promise<string> {
  const receiver = await startOtlpReceiver();
  await receiver.close();
  return receiver.url;
}
