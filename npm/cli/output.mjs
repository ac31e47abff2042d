// What leaves the process: standard output with sha1dcsum's flushing policy, the messages on
// standard error, and the words for a failed read or write. Everything is written
// synchronously to the file descriptors, in order, as the Rust command writes it.
import { writeSync } from 'node:fs';
import { getSystemErrorMap } from 'node:util';
import raw from '../wasm/sha1dcsum_cli.cjs';

/** The command's name, which its messages start with (sha1dcsum's help.rs names it). */
export const PROGRAM = raw.RawCommandLine.program();

const utf8 = new TextDecoder('utf-8');

/** Bytes as text, each ill-formed sequence a U+FFFD (as Rust's from_utf8_lossy). */
export const lossy = (bytes) => utf8.decode(bytes);

/**
 * The C library's words for the errors a read or write meets (what sha1dcsum prints); libuv's
 * (Node's) words, capitalised, for any other.
 */
const REASONS = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
  EMFILE: 'Too many open files',
  EIO: 'Input/output error',
  ENXIO: 'No such device or address',
  ENOSPC: 'No space left on device',
  EINVAL: 'Invalid argument',
  EBADF: 'Bad file descriptor',
  EFBIG: 'File too large',
  EAGAIN: 'Resource temporarily unavailable',
};

export function reason(err) {
  if (err && REASONS[err.code]) return REASONS[err.code];
  const known = err && typeof err.errno === 'number' && getSystemErrorMap().get(err.errno);
  if (known) return known[1].charAt(0).toUpperCase() + known[1].slice(1);
  return String((err && err.message) || err);
}

/** A failed write to standard output. */
export class OutputError extends Error {
  constructor(cause) {
    super(`standard output: ${reason(cause)}`);
    this.code = cause.code;
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `bytes` to `fd`, waiting out a descriptor another process left non-blocking. */
function writeAll(fd, bytes) {
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (err) {
      if (err.code !== 'EAGAIN') throw err;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

/** Writes `text` (a string or bytes) to standard output at once; throws an OutputError. */
export function print(text) {
  try {
    writeAll(1, typeof text === 'string' ? Buffer.from(text) : text);
  } catch (err) {
    throw new OutputError(err);
  }
}

/** `text` on standard error (where a failure cannot be reported anyway). */
export function stderr(text) {
  try {
    writeAll(2, Buffer.from(text));
  } catch {
    // Standard error is gone: nothing can be said.
  }
}

/** `sha1dc-wasm: <message>` on standard error. */
export const warn = (message) => stderr(`${PROGRAM}: ${message}\n`);

/**
 * Standard output buffered as sha1dcsum's is: flushed when 64 KiB are pending or 50 ms after
 * the last flush, so that lines show up as inputs finish, and before anything goes to standard
 * error, so that the two stay in order.
 */
export class Output {
  #pending = [];
  #size = 0;
  #flushed = Date.now();

  write(bytes) {
    this.#pending.push(bytes);
    this.#size += bytes.length;
    if (this.#size >= 64 << 10 || Date.now() - this.#flushed > 50) this.flush();
  }

  flush() {
    this.#flushed = Date.now();
    if (this.#size === 0) return;
    const all = Buffer.concat(this.#pending, this.#size);
    this.#pending = [];
    this.#size = 0;
    print(all);
  }

  /** `message` on standard error, after what is pending on standard output. */
  error(message) {
    this.flush();
    warn(message);
  }
}
