// Every input of the CLI (files, whatever a path opens to — devices, FIFOs — and stdin) is
// read through here, with the size cap applied while reading: at most cap + 1 bytes are
// ever read, the handle is closed (or the stream destroyed) as soon as more than the cap
// has arrived, and EOF is never waited for. An endless input (/dev/zero, a FIFO whose
// writer never stops, `yes | mesh-workbench analyze -`) is refused in well under a second
// with memory bounded by about the cap. Nothing stats a path to decide how much to read:
// a FIFO or a device reports size 0.
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { tooLargeMessage, type ModelOptions } from '../core/document/workspaceModel.ts';
import { inputLimit, type InputLimit } from './inputLimit.ts';

/**
 * The most bytes an input may have: what this machine can hold (inputLimit.ts), computed
 * once per process.
 *
 * The rule is on bytes, applied while reading. Decoding never yields more characters (UTF-16
 * code units) than there were bytes — UTF-8 gives at most one per byte (an invalid byte
 * becomes one U+FFFD), UTF-16 one per two bytes — so every input within the cap decodes to
 * a string V8 can hold. An input of more bytes is refused even when it would decode to fewer
 * characters (UTF-16, or UTF-8 with many non-ASCII characters): telling those apart would
 * mean reading up to three times the cap, which is what the cap is there to prevent.
 */
export const INPUT_LIMIT: InputLimit = inputLimit();
export const MAX_INPUT_BYTES = INPUT_LIMIT.bytes;

/** An input path that cannot be read; the message says which and why. */
export class InputError extends Error {}

/** An input over the cap. `message` names the input; `detail` is the model's message alone. */
export class InputTooLargeError extends InputError {
  readonly detail: string;
  constructor(
    /** The input as the user named it (`-` for stdin). */
    readonly input: string,
    /** Its size in bytes when known, else undefined (only known to be over the cap). */
    readonly bytes: number | undefined,
    readonly cap: number,
    /** Where the cap comes from (omitted for a cap given by the caller, as the tests do). */
    readonly why?: string,
  ) {
    const detail = tooLargeMessage(bytes, cap, why);
    super(`${input}: ${detail}`);
    this.detail = detail;
  }
}

/** A cap in bytes, or the machine's limit with its reason. */
export type Cap = number | InputLimit;

function capOf(cap: Cap): { bytes: number; why?: string } {
  return typeof cap === 'number' ? { bytes: cap } : cap;
}

/** Reads of an input of unknown size go into chunks of this size (a FIFO gives 64 KiB a read). */
const CHUNK = 1024 * 1024;

/**
 * Bytes collected into chunks, never more than cap + 1 bytes in all. Chunks rather than one
 * buffer grown by doubling: the buffers a doubling leaves behind wait for the garbage
 * collector, which would let an endless input hold about twice the cap.
 */
class Collector {
  private readonly chunks: Buffer[] = [];
  /** Bytes used in the last chunk. */
  private used = 0;
  length = 0;
  constructor(
    private readonly cap: number,
    /** A regular file's size: its first chunk holds it and one more byte, to see EOF. */
    private sizeHint: number | undefined,
  ) {}
  get over(): boolean {
    return this.length > this.cap;
  }
  /** Room for the next read: the rest of the last chunk, or a new chunk (none once over the cap). */
  room(): { buffer: Buffer; offset: number; length: number } {
    let last = this.chunks[this.chunks.length - 1];
    if (last === undefined || this.used === last.length) {
      const size = Math.min(this.cap + 1 - this.length, this.sizeHint === undefined ? CHUNK : this.sizeHint + 1);
      this.sizeHint = undefined;
      last = Buffer.allocUnsafeSlow(size);
      this.chunks.push(last);
      this.used = 0;
    }
    return { buffer: last, offset: this.used, length: last.length - this.used };
  }
  /** Counts `n` bytes read into the room given by room(). */
  advance(n: number): void {
    this.used += n;
    this.length += n;
  }
  /** Appends a chunk (a stream's), keeping at most cap + 1 bytes of it. */
  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length && !this.over) {
      const r = this.room();
      const n = Math.min(r.length, chunk.length - at);
      r.buffer.set(chunk.subarray(at, at + n), r.offset);
      this.advance(n);
      at += n;
    }
  }
  bytes(): Buffer {
    const [first] = this.chunks;
    if (first === undefined) return Buffer.alloc(0);
    if (this.chunks.length === 1) return first.subarray(0, this.length);
    return Buffer.concat(this.chunks, this.length);
  }
}

/**
 * The bytes of the file at `path` (a regular file, a device, a FIFO…), or InputTooLargeError
 * (naming it `name`) as soon as more than `cap` bytes have been read. Errors of opening or
 * reading (ENOENT, EACCES, EISDIR…) are thrown as Node gives them. Opening a FIFO waits for
 * its writer, as any reader of it would.
 */
export async function readCapped(path: string, name: string, limit: Cap = INPUT_LIMIT): Promise<Buffer> {
  const { bytes: cap, why } = capOf(limit);
  const fh = await open(path, 'r');
  try {
    // Only a hint for the first allocation and the size in the message: the reads decide.
    const st = await fh.stat();
    const regular = st.isFile();
    const c = new Collector(cap, regular ? Math.min(st.size, cap) : undefined);
    while (!c.over) {
      const r = c.room();
      const { bytesRead } = await fh.read(r.buffer, r.offset, r.length, null);
      if (bytesRead === 0) return c.bytes();
      c.advance(bytesRead);
    }
    throw new InputTooLargeError(name, regular && st.size > cap ? st.size : undefined, cap, why);
  } finally {
    await fh.close();
  }
}

/**
 * The bytes of a stream (stdin), or InputTooLargeError (naming it `name`) as soon as more
 * than `cap` bytes have arrived; the stream is then destroyed, so nothing more is read and
 * nothing keeps the process waiting for its end.
 */
export async function readCappedStream(stream: Readable, name: string, limit: Cap = INPUT_LIMIT): Promise<Buffer> {
  const { bytes: cap, why } = capOf(limit);
  const c = new Collector(cap, undefined);
  // Leaving the loop early (break or throw) destroys the stream.
  for await (const chunk of stream) {
    c.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array));
    if (c.over) break;
  }
  if (c.over) {
    stream.destroy();
    throw new InputTooLargeError(name, undefined, cap, why);
  }
  return c.bytes();
}

/** The model's limit for the CLI's analyzers: the same as the reader's, so only the reader refuses. */
export const MODEL_LIMIT: ModelOptions = { maxFileChars: MAX_INPUT_BYTES, maxFileWhy: INPUT_LIMIT.why };
