/**
 * The local webhook listener: `POST /hooks/<trigger id>` on 127.0.0.1 only, each delivery verified
 * as Standard Webhooks v1 with the trigger's `whsec_` secret (`standard-webhooks.ts`: HMAC-SHA256
 * over `<id>.<timestamp>.<body>`, five minutes of tolerance either way, constant-time comparison,
 * checked against the `standardwebhooks` reference library), then handed to the host (replay check,
 * run file).
 *
 * The door (DESIGN.md "Triggers at run time"), in this order, each before any body is read:
 * 1. `Host` must be this listener's own (`127.0.0.1:PORT` or `localhost:PORT`): a DNS-rebinding
 *    page names its own host name, and gets the one answer below.
 * 2. A request with an `Origin` header is refused (403): a browser page sends one, a webhook
 *    sender does not.
 * 3. Anything but `POST /hooks/…` gets the one answer, `404 not found`, whatever the path or method:
 *    nothing tells an armed trigger from an unknown one.
 * 4. The three signature headers must be there and the timestamp inside the tolerance (401), so an
 *    unsigned caller is turned away before it may send a body.
 * 5. A body is read under a deadline, within the per-request and the all-connections byte bounds.
 * 6. A `/hooks/…` address with no armed trigger is verified against a throwaway key, so it fails as
 *    a wrong secret does (401 `signature does not match`): armed and unknown answer alike.
 *
 * No counter that an unauthenticated connection can hold: open connections are bounded only by
 * {@link ListenerLimits.maxConnections} (far above what a sender needs), headers and bodies have
 * deadlines, and the slots for hand-offs ({@link ListenerLimits.maxInFlight}) are taken only by
 * deliveries whose signature verified.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signatureMatches, webhookKey } from './standard-webhooks';

/** Bounds of the listener. */
export interface ListenerLimits {
  /** Largest body accepted, in bytes (256 KiB). */
  maxBodyBytes: number;
  /** Longest wait for the whole header block of a request, from the connection or the previous request (5 s). */
  headersTimeoutMs: number;
  /** Longest wait for a whole body once headers arrived (10 s). */
  bodyTimeoutMs: number;
  /** Most connections open at once; beyond it a new one is closed at once (1024). */
  maxConnections: number;
  /** Most body bytes held at once over every connection (32 MiB); beyond it: 503. */
  maxBufferedBytes: number;
  /** Most verified deliveries being handed off at once; more are answered 503 (32). */
  maxInFlight: number;
}

/** Default bounds (see {@link ListenerLimits}). */
export const LISTENER_LIMITS: ListenerLimits = {
  maxBodyBytes: 256 * 1024,
  headersTimeoutMs: 5_000,
  bodyTimeoutMs: 10_000,
  maxConnections: 1024,
  maxBufferedBytes: 32 * 1024 * 1024,
  maxInFlight: 32,
};

/** How many request paths the listener remembers the trigger id of (a sender posts to one address, again and again). */
const PATH_IDS_KEPT = 256;

/** Standard Webhooks' tolerance, either way, in seconds (the library's own). */
const TOLERANCE_S = 5 * 60;

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
  /** Seconds, sent as `Retry-After` (429 and 503). */
  retryAfter?: number;
}

/** The one answer to a foreign host, an unknown path and a wrong method alike. */
export const NOT_FOUND: DeliveryAnswer = { status: 404, reason: 'not found' };
/** The answer to a request from a browser page. */
export const ORIGIN_REFUSED: DeliveryAnswer = {
  status: 403,
  reason: 'refused: a request from a browser page (it has an Origin header)',
};

/** What the listener calls back. */
export interface ListenerHandlers {
  /** The armed webhook trigger with this id, or null. */
  target(triggerId: string): WebhookTarget | null;
  /** Replay check and hand-off of a verified delivery; the answer is sent as it is. */
  deliver(target: WebhookTarget, delivery: VerifiedDelivery): Promise<DeliveryAnswer>;
  /**
   * Every answer given before a signature verified (unauthenticated: the caller may be anyone),
   * and the 503 of a verified delivery when every hand-off slot is taken; with the armed trigger
   * the address named, or null. Never the path, a header or the body: these are counted, not kept.
   */
  refused(triggerId: string | null, answer: DeliveryAnswer): void;
}

/** The path of a trigger's webhook: one home, shared with the screens that show the address. */
export { webhookPath } from '../../../shared/triggers/webhook-address';

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

/** Why a delivery did not verify, told to its sender (the reference library's refusals, in words). */
const VERIFY_REASONS = {
  missing: 'missing signature headers (webhook-id, webhook-timestamp, webhook-signature)',
  notNumber: 'bad signature headers: webhook-timestamp is not a number',
  tooOld: 'timestamp too old (more than 5 minutes)',
  tooNew: 'timestamp in the future (more than 5 minutes)',
  noMatch: 'signature does not match',
} as const;

/** The three Standard Webhooks headers of a request, as given (empty when missing or repeated). */
interface SignatureHeaders {
  id: string;
  timestamp: string;
  signature: string;
}

const headerText = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

function signatureHeaders(headers: IncomingMessage['headers']): SignatureHeaders {
  return {
    id: headerText(headers['webhook-id']),
    timestamp: headerText(headers['webhook-timestamp']),
    signature: headerText(headers['webhook-signature']),
  };
}

/** What can be refused from the signature headers alone (see {@link precheckHeaders}), or null. */
function precheckSigned(signed: SignatureHeaders, nowMs: number): DeliveryAnswer | null {
  if (signed.id === '' || signed.timestamp === '' || signed.signature === '')
    return { status: 401, reason: VERIFY_REASONS.missing };
  if (!/^\d{1,12}$/.test(signed.timestamp)) return { status: 401, reason: VERIFY_REASONS.notNumber };
  const now = Math.floor(nowMs / 1000);
  const at = Number(signed.timestamp);
  if (now - at > TOLERANCE_S) return { status: 401, reason: VERIFY_REASONS.tooOld };
  if (at > now + TOLERANCE_S) return { status: 401, reason: VERIFY_REASONS.tooNew };
  return null;
}

/**
 * What can be refused from the headers alone, before a body is read: missing signature headers,
 * a timestamp that is not a number or is outside the tolerance (the words of the reference library's
 * refusals). {@link verifyDelivery} checks them again with the whole delivery.
 */
export function precheckHeaders(headers: IncomingMessage['headers'], nowMs = Date.now()): DeliveryAnswer | null {
  return precheckSigned(signatureHeaders(headers), nowMs);
}

/**
 * Verifies `body` with `secret` (Standard Webhooks v1; the `whsec_` text, or the key it decodes to). Returns the
 * delivery, or the 401 answer. Only the three Standard Webhooks headers are read.
 */
export function verifyDelivery(
  secret: string | Buffer,
  headers: IncomingMessage['headers'],
  body: Buffer,
  nowMs = Date.now(),
): VerifiedDelivery | DeliveryAnswer {
  return verifySigned(typeof secret === 'string' ? webhookKey(secret) : secret, signatureHeaders(headers), body, nowMs);
}

/** {@link verifyDelivery} with the signature headers already picked and the key decoded (the listener's path). */
function verifySigned(
  key: Buffer,
  signed: SignatureHeaders,
  body: Buffer,
  nowMs: number,
): VerifiedDelivery | DeliveryAnswer {
  const early = precheckSigned(signed, nowMs);
  if (early) return early;
  if (!signatureMatches(key, { webhookId: signed.id, timestamp: signed.timestamp, body }, signed.signature))
    return { status: 401, reason: VERIFY_REASONS.noMatch };
  const text = body.toString('utf8');
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  const type =
    isObject && Object.hasOwn(parsed as object, 'type') && typeof (parsed as { type?: unknown }).type === 'string'
      ? (parsed as { type: string }).type
      : null;
  return { webhookId: signed.id, type, body: parsed };
}

/** The answer to a verified delivery whose hand-off failed (the journal could not take it). */
const NOT_QUEUED: DeliveryAnswer = {
  status: 503,
  reason: 'the delivery could not be queued; try again',
  retryAfter: 5,
};

/** The listener; `start` binds 127.0.0.1:`port` (0 for a free port). */
export class WebhookListener {
  private server: Server | null = null;
  private boundPort = 0;
  private inFlight = 0;
  private buffered = 0;
  private readonly limits: ListenerLimits;
  /** What an address with no armed trigger is verified with: nobody has it, so it never matches. */
  private readonly throwaway = randomBytes(32);
  /**
   * Each armed target's key, decoded once from its `whsec_` secret. A reload makes new targets (a rotated secret is a
   * new target), so a key is never used past the reload that replaced its target.
   */
  private readonly keys = new WeakMap<WebhookTarget, Buffer>();
  /** The two `Host` values that name this listener, made once it is bound (see {@link ownHost}). */
  private ownHosts: readonly string[] = [];
  /** The trigger id of each request path seen lately (a sender posts to the same address each time); bounded. */
  private readonly pathIds = new Map<string, string | null>();
  private readonly tooLarge: DeliveryAnswer;

  constructor(
    private readonly handlers: ListenerHandlers,
    limits: Partial<ListenerLimits> = {},
  ) {
    this.limits = { ...LISTENER_LIMITS, ...limits };
    this.tooLarge = { status: 413, reason: `body too large (limit ${this.limits.maxBodyBytes} bytes)` };
  }

  /** The bound port (after `start`; 0 before and after). Kept once bound: every request's Host is checked against it. */
  get port(): number {
    return this.boundPort;
  }

  /** The base URL, e.g. `http://127.0.0.1:8787`. */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Binds to 127.0.0.1 only. Rejects with the socket error (e.g. EADDRINUSE). */
  async start(port: number): Promise<void> {
    const { headersTimeoutMs, bodyTimeoutMs } = this.limits;
    const server = createServer(
      {
        headersTimeout: headersTimeoutMs,
        requestTimeout: headersTimeoutMs + bodyTimeoutMs,
        // How often Node checks the two deadlines above (its default, 30 s, would let a trickle live that long).
        connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeoutMs / 4))),
        maxHeaderSize: 16 * 1024,
      },
      (req, res) => this.handle(req, res),
    );
    // A sender's connection is kept between deliveries as long as a new one may wait for its headers, no longer: an
    // idle one holds nothing a silent new connection could not. (Shorter, Node's clients reuse nothing: they read
    // `Keep-Alive: timeout=1` as too short and close each connection after one delivery.)
    server.keepAliveTimeout = headersTimeoutMs;
    server.maxConnections = this.limits.maxConnections;
    // A connection that never sends a whole request is closed after the header deadline, even one that sends nothing.
    server.on('connection', (socket) => {
      socket.setTimeout(headersTimeoutMs + bodyTimeoutMs, () => socket.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.boundPort = (server.address() as AddressInfo).port;
    this.ownHosts = [`127.0.0.1:${this.boundPort}`, `localhost:${this.boundPort}`];
  }

  /** Stops listening and ends open connections. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.boundPort = 0;
    this.ownHosts = [];
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private answer(res: ServerResponse, answer: DeliveryAnswer, close = false): void {
    if (res.headersSent) return;
    const headers: Record<string, string> = {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
    };
    if (answer.retryAfter !== undefined) headers['retry-after'] = String(answer.retryAfter);
    if (close) headers.connection = 'close';
    res.writeHead(answer.status, headers);
    res.end(`${answer.reason}\n`);
  }

  private refuse(
    req: IncomingMessage,
    res: ServerResponse,
    triggerId: string | null,
    answer: DeliveryAnswer,
    close = false,
  ): void {
    this.handlers.refused(triggerId, answer);
    this.answer(res, answer, close);
    if (close) res.once('finish', () => req.destroy());
  }

  /** The key of `target`'s secret (decoded at its first delivery, see {@link keys}). */
  private keyOf(target: WebhookTarget): Buffer {
    let key = this.keys.get(target);
    if (key === undefined) {
      key = webhookKey(target.secret);
      this.keys.set(target, key);
    }
    return key;
  }

  /** Whether `Host` names this listener: `127.0.0.1:PORT` or `localhost:PORT`, nothing else. */
  private ownHost(host: string | undefined): boolean {
    if (host === undefined) return false;
    const [ip, name] = this.ownHosts;
    if (host === ip || host === name) return true;
    const lower = host.toLowerCase();
    return lower === ip || lower === name;
  }

  /** {@link triggerIdOfPath}, remembered for the paths seen lately (at most {@link PATH_IDS_KEPT}). */
  private triggerIdOf(path: string): string | null {
    let id = this.pathIds.get(path);
    if (id === undefined) {
      id = triggerIdOfPath(path);
      if (this.pathIds.size >= PATH_IDS_KEPT) this.pathIds.clear();
      this.pathIds.set(path, id);
    }
    return id;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (!this.ownHost(req.headers.host)) {
      this.refuse(req, res, null, NOT_FOUND, true);
      return;
    }
    if (req.headers.origin !== undefined) {
      this.refuse(req, res, null, ORIGIN_REFUSED, true);
      return;
    }
    const triggerId = req.method === 'POST' ? this.triggerIdOf(req.url ?? '') : null;
    if (triggerId === null) {
      this.refuse(req, res, null, NOT_FOUND, true);
      return;
    }
    // Looked up only to name an armed trigger in what is counted; the answers below never depend on it.
    const armed = this.handlers.target(triggerId) === null ? null : triggerId;
    const signed = signatureHeaders(req.headers);
    const early = precheckSigned(signed, Date.now());
    if (early) {
      this.refuse(req, res, armed, early, true);
      return;
    }
    const tooLarge = this.tooLarge;
    const declared = Number(req.headers['content-length'] ?? '0');
    if (Number.isFinite(declared) && declared > this.limits.maxBodyBytes) {
      this.refuse(req, res, armed, tooLarge, true);
      return;
    }
    let done = false;
    let held = 0;
    const chunks: Buffer[] = [];
    const finish = () => {
      if (done) return false;
      done = true;
      clearTimeout(timer);
      this.buffered -= held;
      held = 0;
      return true;
    };
    const timer = setTimeout(() => {
      if (finish()) this.refuse(req, res, armed, { status: 408, reason: 'the body did not arrive in time' }, true);
    }, this.limits.bodyTimeoutMs);
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      if (held + chunk.length > this.limits.maxBodyBytes) {
        if (finish()) this.refuse(req, res, armed, tooLarge, true);
        return;
      }
      if (this.buffered + chunk.length > this.limits.maxBufferedBytes) {
        if (finish())
          this.refuse(
            req,
            res,
            armed,
            { status: 503, reason: 'too many deliveries at once; try again', retryAfter: 1 },
            true,
          );
        return;
      }
      held += chunk.length;
      this.buffered += chunk.length;
      chunks.push(chunk);
    });
    // An aborted request, or one whose connection closed: what its body held is given back.
    const stop = () => void finish();
    req.on('error', stop);
    req.on('close', stop);
    req.on('end', () => {
      if (done) return;
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      finish();
      const target = this.handlers.target(triggerId);
      const verified = verifySigned(target ? this.keyOf(target) : this.throwaway, signed, body, Date.now());
      if ('status' in verified || target === null) {
        this.refuse(req, res, armed, 'status' in verified ? verified : { status: 401, reason: VERIFY_REASONS.noMatch });
        return;
      }
      if (this.inFlight >= this.limits.maxInFlight) {
        this.refuse(req, res, target.triggerId, {
          status: 503,
          reason: 'too many deliveries at once; try again',
          retryAfter: 1,
        });
        return;
      }
      this.inFlight++;
      this.handlers.deliver(target, verified).then(
        (answer) => {
          this.inFlight--;
          this.answer(res, answer);
        },
        () => {
          this.inFlight--;
          this.answer(res, NOT_QUEUED);
        },
      );
    });
  }
}
