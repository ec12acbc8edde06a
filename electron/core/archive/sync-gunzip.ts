/**
 * gunzip driven step by step on the calling thread, into ONE output buffer that is reused.
 *
 * Why not `zlib.createGunzip()` as a stream: the stream inflates on libuv's thread pool
 * and comes back to JavaScript after every output chunk, each into a freshly allocated buffer. On
 * the bench's 74 MiB package (155 MB inflated) that costs every byte twice: the new buffers are
 * fresh memory (page faults while inflating) and garbage the worker keeps until V8's next young
 * collection (about 32 MB of peak RSS); and each round trip waits for the worker's thread, which
 * is busy hashing and scanning. Measured alone, reading + inflating the package: 180 ms and 80 MB
 * as a stream, 143 ms and 45 MB this way (`/usr/bin/time`, the reader in a bare `node`).
 *
 * How: node's public zlib API has no streaming call that writes into a caller's buffer, so this
 * drives the stream's own native handle the way node's synchronous path does (`processChunkSync`
 * in node's lib/zlib.js, which `zlib.gunzipSync` runs): `handle.writeSync(flush, in, inOff, inLen,
 * out, outOff, outLen)`, then the bytes left of each in the stream's `_writeState`
 * (`[availOutAfter, availInAfter]`). Those names have been the same since node 10 (node 20 here,
 * Electron's node alike); they are checked at construction, and every gzip read in the tests runs
 * through them. The same zlib code runs either way, multi-member streams and all: it stops at the
 * end of the last member when a zero byte follows, and treats any other byte as a next member.
 */
import { constants, createGunzip, type Gunzip } from 'node:zlib';

/** What node's lib/zlib.js itself calls on a zlib stream's handle for its synchronous path. */
interface ZlibHandle {
  writeSync(
    flush: number,
    input: Uint8Array,
    inOff: number,
    inLen: number,
    out: Uint8Array,
    outOff: number,
    outLen: number,
  ): void;
}

/** One step: the output it made (a view of the shared buffer) and the input it took. */
export interface InflateStep {
  /** Valid until the next call: the buffer is reused. */
  output: Buffer;
  consumed: number;
  /** The output buffer is full: call again, zlib may have more (even with no input left). */
  full: boolean;
}

/** A gunzip that inflates on the calling thread into one reused output buffer. */
export class SyncGunzip {
  /** Set once zlib has come to the end of the gzip stream: it takes no more input. */
  ended = false;
  /** Input bytes zlib has taken (the gzip stream's length once `ended`). */
  bytesIn = 0;
  private readonly stream: Gunzip;
  private readonly handle: ZlibHandle;
  private readonly state: Uint32Array;
  private readonly out: Buffer;

  constructor(outBytes: number) {
    // The stream's own output buffer is never used: the smallest zlib allows.
    this.stream = createGunzip({ chunkSize: constants.Z_MIN_CHUNK });
    // zlib reports an error by destroying the stream (synchronously, as `errored`) and then emitting
    // 'error' on the next tick; it is read from `errored` after each call, so the event is only heard.
    this.stream.on('error', () => undefined);
    const internals = this.stream as unknown as { _handle?: Partial<ZlibHandle>; _writeState?: unknown };
    if (typeof internals._handle?.writeSync !== 'function' || !(internals._writeState instanceof Uint32Array)) {
      throw new Error(
        `this node (${process.version}) has no zlib handle with writeSync: the archive reader cannot inflate`,
      );
    }
    this.handle = internals._handle as ZlibHandle;
    this.state = internals._writeState;
    this.out = Buffer.allocUnsafe(outBytes);
  }

  /**
   * Inflates from `input` at `offset` until the output buffer is full, the input is used up, or
   * the gzip stream ends (then `ended` is set and the rest of the input is left). Throws zlib's
   * error (with its `Z_*` code) on corrupt data.
   */
  write(input: Uint8Array, offset: number): InflateStep {
    return this.step(constants.Z_NO_FLUSH, input, offset);
  }

  /** The input has ended: throws zlib's `Z_BUF_ERROR` when the gzip stream is not complete. */
  finish(): void {
    if (this.ended) return;
    const { output } = this.step(constants.Z_FINISH, new Uint8Array(0), 0);
    // With every output drained by `write`, a complete stream has nothing left to give.
    if (output.length > 0) throw new Error('zlib produced output at the end of its input');
  }

  /** Frees zlib's memory (safe to call more than once). */
  close(): void {
    this.stream.destroy();
  }

  private step(flush: number, input: Uint8Array, offset: number): InflateStep {
    // node ABORTS the process (a native assertion, not an exception) when a closed handle is
    // written to; a stream that errored is closed too. Never reach it: throw instead.
    if (this.stream.destroyed) throw this.stream.errored ?? new Error('the gunzip was closed');
    const inLen = input.length - offset;
    this.handle.writeSync(flush, input, offset, inLen, this.out, 0, this.out.length);
    if (this.stream.errored) throw this.stream.errored;
    const availOut = this.state[0] ?? 0;
    const availIn = this.state[1] ?? 0;
    const consumed = inLen - availIn;
    this.bytesIn += consumed;
    // Output room left and input left: zlib wanted no more, the stream has ended (node's stream
    // reads the same two numbers the same way).
    if (availOut > 0 && availIn > 0) this.ended = true;
    return { output: this.out.subarray(0, this.out.length - availOut), consumed, full: availOut === 0 };
  }
}
