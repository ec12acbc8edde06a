/**
 * The local webhook listener: `POST /hooks/<trigger id>` on 127.0.0.1 only, each delivery verified
 * as Standard Webhooks v1 with the trigger's `whsec_` secret by the `standardwebhooks` library
 * (HMAC-SHA256 over `<id>.<timestamp>.<body>`, five minutes of tolerance either way, constant-time
 * comparison), then checked against the replay store (`seen-ids.ts`).
 *
 * Answers carry nothing but the status and a short reason (text/plain):
 *
 * | Status | Reason |
 * |---|---|
 * | 202 | queued / skipped (the trigger already has its most runs waiting) |
 * | 200 | ignored: the body's `type` is not one of the trigger's `events` |
 * | 401 | missing signature headers, bad signature headers, timestamp too old / in the future, signature does not match |
 * | 404 | no armed webhook trigger at this address (unknown and disarmed are the same answer) |
 * | 405 | only POST |
 * | 408 | the body did not arrive in time |
 * | 409 | replay: this webhook-id was already delivered |
 * | 413 | body too large |
 * | 503 | too many deliveries at once / replay store full: try again |
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/** Bounds of the listener. */
export interface ListenerLimits {
  /** Largest body accepted, in bytes (256 KiB). */
  maxBodyBytes: number;
  /** Longest wait for a whole body once headers arrived (10 s). */
  bodyTimeoutMs: number;
  /** Most deliveries handled at once; more are answered 503 at once (32). */
  maxInFlight: number;
}

/** Default bounds (see {@link ListenerLimits}). */
export const LISTENER_LIMITS: ListenerLimits = { maxBodyBytes: 256 * 1024, bodyTimeoutMs: 10_000, maxInFlight: 32 };

/** An armed webhook trigger as the listener needs it. */
export interface WebhookTarget {
  triggerId: string;
  /** The `whsec_` secret, opened from the store's sealed copy. Never logged. */
  secret: string;
  events: string[] | null;
}

/** A verified delivery, handed to the host. */
export interface VerifiedDelivery {
  webhookId: string;
  /** The body's `type` when it is a JSON object with a string `type`. */
  type: string | null;
  /** Parsed JSON, or the raw text when it is not JSON. Untrusted. */
  body: unknown;
}

/** The answer of the listener to one request. */
export interface DeliveryAnswer {
  status: number;
  reason: string;
}

/** What the listener calls back. */
export interface ListenerHandlers {
  /** The armed webhook trigger with this id, or null. */
  target(triggerId: string): WebhookTarget | null;
  /** Replay check and hand-off of a verified delivery; answers 202/409/503. */
  deliver(target: WebhookTarget, delivery: VerifiedDelivery): Promise<DeliveryAnswer>;
  /** Every answer other than a hand-off, with the trigger when the address named a known one. */
  refused(triggerId: string | null, answer: DeliveryAnswer): void;
}

/** The path of a trigger's webhook: `/hooks/` then each `/`-separated part of the id, URL-encoded. */
export function webhookPath(triggerId: string): string {
  return `/hooks/${triggerId.split('/').map(encodeURIComponent).join('/')}`;
}

/** The trigger id a request path names, or null when it is not a `/hooks/…` path. */
export function triggerIdOfPath(path: string): string | null {
  const bare = path.split('?')[0] ?? '';
  if (!bare.startsWith('/hooks/')) return null;
  try {
    const id = bare.slice('/hooks/'.length).split('/').map(decodeURIComponent).join('/');
    return id === '' ? null : id;
  } catch {
    return null;
  }
}

const VERIFY_REASONS: Record<string, string> = {
  'Missing required headers': 'missing signature headers (webhook-id, webhook-timestamp, webhook-signature)',
  'Invalid Signature Headers': 'bad signature headers: webhook-timestamp is not a number',
  'Message timestamp too old': 'timestamp too old (more than 5 minutes)',
  'Message timestamp too new': 'timestamp in the future (more than 5 minutes)',
  'No matching signature found': 'signature does not match',
};

/**
 * Verifies `body` with `secret` (Standard Webhooks v1). Returns the delivery, or the 401 answer.
 * Only the three Standard Webhooks headers are read.
 */
export function verifyDelivery(secret: string, headers: IncomingMessage['headers'], body: Buffer): VerifiedDelivery | DeliveryAnswer {
  const pick = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' ? value : '';
  };
  const signed = { 'webhook-id': pick('webhook-id'), 'webhook-timestamp': pick('webhook-timestamp'), 'webhook-signature': pick('webhook-signature') };
  if (!/^\d{1,12}$/.test(signed['webhook-timestamp']) && signed['webhook-timestamp'] !== '') {
    return { status: 401, reason: VERIFY_REASONS['Invalid Signature Headers'] as string };
  }
  try {
    new Webhook(secret).verify(body.toString('utf8'), signed, { jsonParse: false });
  } catch (error) {
    const reason = error instanceof WebhookVerificationError ? (VERIFY_REASONS[error.message] ?? 'signature does not verify') : 'signature does not verify';
    return { status: 401, reason };
  }
  const text = body.toString('utf8');
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  const type = isObject && Object.hasOwn(parsed as object, 'type') && typeof (parsed as { type?: unknown }).type === 'string' ? (parsed as { type: string }).type : null;
  return { webhookId: signed['webhook-id'], type, body: parsed };
}

/** The listener; `start` binds 127.0.0.1:`port` (0 for a free port). */
export class WebhookListener {
  private server: Server | null = null;
  private inFlight = 0;
  private readonly limits: ListenerLimits;

  constructor(
    private readonly handlers: ListenerHandlers,
    limits: Partial<ListenerLimits> = {},
  ) {
    this.limits = { ...LISTENER_LIMITS, ...limits };
  }

  /** The bound port (after `start`). */
  get port(): number {
    const address = this.server?.address() as AddressInfo | null | undefined;
    return address?.port ?? 0;
  }

  /** The base URL, e.g. `http://127.0.0.1:8787`. */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Binds to 127.0.0.1 only. Rejects with the socket error (e.g. EADDRINUSE). */
  async start(port: number): Promise<void> {
    const server = createServer((req, res) => this.handle(req, res));
    server.headersTimeout = this.limits.bodyTimeoutMs;
    server.requestTimeout = this.limits.bodyTimeoutMs * 2;
    server.keepAliveTimeout = 1_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  /** Stops listening and ends open connections. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private answer(res: ServerResponse, answer: DeliveryAnswer, close = false): void {
    if (res.headersSent) return;
    res.writeHead(answer.status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...(close ? { connection: 'close' } : {}) });
    res.end(`${answer.reason}\n`);
  }

  private refuse(req: IncomingMessage, res: ServerResponse, triggerId: string | null, answer: DeliveryAnswer, close = false): void {
    this.handlers.refused(triggerId, answer);
    this.answer(res, answer, close);
    if (close) res.once('finish', () => req.destroy());
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const triggerId = triggerIdOfPath(req.url ?? '');
    const target = triggerId === null ? null : this.handlers.target(triggerId);
    if (target === null) {
      this.refuse(req, res, triggerId, { status: 404, reason: 'no armed webhook trigger at this address' }, true);
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      this.refuse(req, res, target.triggerId, { status: 405, reason: 'only POST is accepted' }, true);
      return;
    }
    const declared = Number(req.headers['content-length'] ?? '0');
    if (Number.isFinite(declared) && declared > this.limits.maxBodyBytes) {
      this.refuse(req, res, target.triggerId, { status: 413, reason: `body too large (limit ${this.limits.maxBodyBytes} bytes)` }, true);
      return;
    }
    if (this.inFlight >= this.limits.maxInFlight) {
      this.refuse(req, res, target.triggerId, { status: 503, reason: 'too many deliveries at once; try again' }, true);
      return;
    }
    this.inFlight++;
    let done = false;
    const finish = () => {
      if (done) return false;
      done = true;
      clearTimeout(timer);
      this.inFlight--;
      return true;
    };
    const timer = setTimeout(() => {
      if (finish()) this.refuse(req, res, target.triggerId, { status: 408, reason: 'the body did not arrive in time' }, true);
    }, this.limits.bodyTimeoutMs);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > this.limits.maxBodyBytes) {
        if (finish()) this.refuse(req, res, target.triggerId, { status: 413, reason: `body too large (limit ${this.limits.maxBodyBytes} bytes)` }, true);
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => {
      finish();
    });
    req.on('end', () => {
      if (done) return;
      const verified = verifyDelivery(target.secret, req.headers, Buffer.concat(chunks));
      if ('status' in verified) {
        finish();
        this.refuse(req, res, target.triggerId, verified);
        return;
      }
      this.handlers
        .deliver(target, verified)
        .then((answer) => {
          finish();
          this.answer(res, answer);
        })
        .catch(() => {
          finish();
          this.refuse(req, res, target.triggerId, { status: 503, reason: 'the delivery could not be queued; try again' });
        });
    });
  }
}
