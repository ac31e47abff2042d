// Reading and hashing one input, a file or standard input (`-`), through one reused buffer:
// constant memory whatever the size, except --git-blob of an input that is not a regular file
// (its length comes first in the header, so it is read whole).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createHasher } from '../node.mjs';
import { reason } from './output.mjs';

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

/**
 * Hashes the input named `name` (bytes; `-` is standard input) with the command's options:
 * the result object, or a Failure.
 */
export function hashInput(name, o) {
  const flags = { reducedRound: o.reducedRound, safeHash: !o.noSafeHash };
  const stdin = name.equals(STDIN);
  let fd;
  try {
    fd = stdin ? 0 : openSync(name, 'r');
  } catch (err) {
    return ioFailure(err);
  }
  let h = null;
  try {
    const size = o.gitBlob && !stdin ? regularSize(fd) : null;
    if (o.gitBlob && size === null) {
      const all = readWhole(fd);
      return createHasher({ ...flags, gitBlob: true, size: all.length }).update(all).digest();
    }
    h = createHasher(o.gitBlob ? { ...flags, gitBlob: true, size } : flags);
    const total = stream(fd, h);
    if (size !== null && total !== size) {
      return new Failure(`file size changed while reading (expected ${size} bytes, read ${total})`);
    }
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
