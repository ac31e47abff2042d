// Reading and hashing one input, a file or standard input (`-`), through one reused buffer:
// constant memory whatever the size, except --git-blob of an input that is not a regular file
// (its length comes first in the header, so it is read whole). A large regular file is streamed
// through hashStream with its filter worker, unless -j 1 asks for one thread.
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { createHasher, hashStream } from '../node.mjs';
import { reason } from './output.mjs';

/** Regular files of at least this many bytes get the filter worker (the size where it pays). */
const TWO_WORKERS_FROM = 16 << 20;

const BUFFER_SIZE = 256 << 10;
const buffer = Buffer.allocUnsafe(BUFFER_SIZE);
const STDIN = Buffer.from('-');
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Why an input gave no result: its words as sha1dcsum prints them, and whether it is missing. */
export class Failure {
  constructor(text, missing = false) {
    this.text = text;
    this.missing = missing;
  }

  toString() {
    return this.text;
  }
}

const ioFailure = (err) => new Failure(reason(err), err.code === 'ENOENT');

/** Reads into the buffer; 0 at the end. Waits out a descriptor left non-blocking (a shared pipe). */
function read(fd) {
  for (;;) {
    try {
      return readSync(fd, buffer, 0, BUFFER_SIZE, null);
    } catch (err) {
      if (err.code !== 'EAGAIN') throw err;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

/** Feeds everything left on `fd` to `h`; the byte count. */
function stream(fd, h) {
  let total = 0;
  for (let n; (n = read(fd)) > 0; total += n) h.update(buffer.subarray(0, n));
  return total;
}

function readWhole(fd) {
  const parts = [];
  for (let n; (n = read(fd)) > 0; ) parts.push(Buffer.from(buffer.subarray(0, n)));
  return Buffer.concat(parts);
}

/** Why a file's size changed while it was read. */
const sizeChanged = (size, total) => new Failure(`file size changed while reading (expected ${size} bytes, read ${total})`);

/**
 * Hashes the regular file open on `fd`, `size` bytes when it was opened, with hashStream and its
 * filter worker: the result object, or a Failure. The size is a hint, as on the one-thread path,
 * except for a git blob, whose header holds it.
 */
async function hashLarge(fd, size, flags, o) {
  let total = 0;
  async function* stream() {
    total = 0;
    for await (const chunk of createReadStream(null, { fd, start: 0, autoClose: false, highWaterMark: 1 << 20 })) {
      total += chunk.length;
      yield chunk;
    }
  }
  const options = o.gitBlob ? { ...flags, gitBlob: true, size } : flags;
  try {
    try {
      return await hashStream(stream(), { ...options, worker: true });
    } catch (err) {
      // A filter worker that could not start, or died: the file again, on this thread.
      if (!/^sha1dc: the filter worker/.test(err && err.message)) throw err;
      return await hashStream(stream(), { ...options, worker: false });
    }
  } catch (err) {
    if (o.gitBlob && err instanceof RangeError) return sizeChanged(size, total);
    return ioFailure(err);
  }
}

/**
 * Hashes the input named `name` (bytes; `-` is standard input) with the command's options:
 * the result object, or a Failure.
 */
export async function hashInput(name, o) {
  const flags = { reducedRound: o.reducedRound, safeHash: o.safeHash };
  const stdin = name.equals(STDIN);
  let fd;
  try {
    fd = stdin ? 0 : openSync(name, 'r');
  } catch (err) {
    return ioFailure(err);
  }
  let h = null;
  try {
    const size = stdin ? null : regularSize(fd);
    if (size !== null && size >= TWO_WORKERS_FROM && o.jobs !== 1) return await hashLarge(fd, size, flags, o);
    if (o.gitBlob && size === null) {
      const all = readWhole(fd);
      return createHasher({ ...flags, gitBlob: true, size: all.length }).update(all).digest();
    }
    h = createHasher(o.gitBlob ? { ...flags, gitBlob: true, size } : flags);
    const total = stream(fd, h);
    if (o.gitBlob && total !== size) return sizeChanged(size, total);
    return h.digest();
  } catch (err) {
    return ioFailure(err);
  } finally {
    h?.free(); // a no-op after digest()
    if (!stdin) closeSync(fd);
  }
}

/** The length of a regular file, which a git blob's header can trust; null for anything else. */
function regularSize(fd) {
  const st = fstatSync(fd);
  return st.isFile() ? st.size : null;
}
