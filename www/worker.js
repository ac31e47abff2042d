// Module worker: hashes files with sha1dc-wasm, one job at a time, off the main thread.
//
// Protocol (messages from the page):
//   { type: 'hash', id, file, options: { gitBlob, reducedRound } }    a large file, streamed
//   { type: 'batch', jobs: [{ id, file }], options }                   small files, read whole and
//                                                                     hashed together (sha1dcMany)
//   { type: 'cancel', id }
// Replies (for a batch, one result, cancelled or error per file, as for a file alone):
//   { type: 'ready', backend }                 once the wasm module is instantiated
//   { type: 'failed', message }                if it could not be
//   { type: 'progress', id, done, total, ms }  at most every PROGRESS_MS while hashing
//   { type: 'result', id, result, ms, total }  result = { hex, sha1, collision }
//   { type: 'cancelled', id }
//   { type: 'error', id, message }
//
// Memory: a large file is never read whole. Where the browser can (Blob streams are byte
// streams), it is read with a BYOB reader into two fixed BUFFER-byte buffers that take turns: one
// is hashed while the other is being filled, so the worker allocates nothing per chunk and its
// memory stays flat whatever the file's size; the buffers serve the next file too. Elsewhere it
// falls back to reading BUFFER-byte slices (still at most two alive at a time, the rest left to
// the garbage collector). Small files come in batches (pool.js keeps one to BATCH_BYTES): a
// batch is read whole, hashed in one sha1dcMany call that runs several files at a time on the
// SIMD lanes, and let go, so memory is bounded by a batch (a folder of 1,000 files of 1 to 63
// KiB: worker heap peak about 18 MiB, at about four times the files per second of one file at
// a time).

import { init, createHasher, sha1dcMany, backend } from './pkg/index.mjs';

const BUFFER = 2 * 1024 * 1024;
const PROGRESS_MS = 50;

const cancelled = new Set();
let queue = Promise.resolve();

class Cancelled extends Error {}

// Lets queued messages (a 'cancel') run: when the file's bytes are already buffered, reads
// resolve as microtasks and the hashing loop would otherwise never give the event loop a turn.
const tick = new MessageChannel();
function nextTask() {
  return new Promise((resolve) => {
    tick.port1.onmessage = () => resolve();
    tick.port2.postMessage(0);
  });
}

const ready = init().then(
  () => {
    postMessage({ type: 'ready', backend: backend() });
    return true;
  },
  (err) => {
    postMessage({ type: 'failed', message: String(err && err.message || err) });
    return false;
  },
);

/**
 * The read buffers, BUFFER bytes each, kept from one file to the next: a folder of a thousand
 * small files reads through the same two buffers instead of allocating two per file.
 */
const spares = [];
const takeBuffer = () => spares.pop() ?? new ArrayBuffer(BUFFER);
function giveBuffer(buffer) {
  if (buffer && buffer.byteLength === BUFFER && spares.length < 2) spares.push(buffer);
}

/** Yields the file's bytes as Uint8Array views; each view is valid until the next is asked for. */
async function* byobChunks(reader, size) {
  let spare = takeBuffer();
  let pending = reader.read(new Uint8Array(takeBuffer()));
  let got = 0;
  try {
    for (;;) {
      const { value, done } = await pending;
      pending = null;
      if (done || !value) {
        if (value) giveBuffer(value.buffer);
        return;
      }
      got += value.byteLength;
      // Ask for the next bytes into the spare buffer before handing this one out.
      if (got < size) {
        pending = reader.read(new Uint8Array(spare));
        spare = null;
      }
      yield value;
      // The consumer is done with `value`: its buffer becomes the spare (or goes back).
      giveBuffer(spare);
      spare = value.buffer;
      if (!pending) return;
    }
  } finally {
    // A read still pending (a cancel) keeps its buffer; the others are reused.
    giveBuffer(spare);
  }
}

async function* sliceChunks(file) {
  const read = (at) => file.slice(at, Math.min(at + BUFFER, file.size)).arrayBuffer();
  let at = 0;
  let pending = file.size > 0 ? read(0) : null;
  while (pending) {
    const buf = await pending;
    at += buf.byteLength;
    pending = at < file.size && buf.byteLength > 0 ? read(at) : null;
    yield new Uint8Array(buf);
  }
}

/**
 * The reader worker (reader.js), started at the first large file: it drains the File's stream
 * on its own thread while this one hashes. Null where a worker cannot start one.
 */
let readerWorker;
const piped = new Map(); // job id -> the chunk queue pipedChunks reads
const PIPE_BUFFERS = 3;
const PIPE_FROM = 8 * BUFFER; // smaller files are read here: a second thread costs more than it saves

function getReader() {
  if (readerWorker === undefined) {
    readerWorker = null;
    try {
      readerWorker = new Worker(new URL('./reader.js', import.meta.url), { type: 'module', name: 'sha1dc-reader' });
      readerWorker.onmessage = ({ data }) => piped.get(data.id)?.push(data);
      readerWorker.onerror = (event) => {
        event.preventDefault();
        readerWorker = null;
        for (const q of piped.values()) q.push({ type: 'error', name: 'ReaderError', message: 'the reader worker failed' });
      };
    } catch {
      readerWorker = null;
    }
  }
  return readerWorker;
}

/** Yields the chunks reader.js sends for job `id`; each view is valid until the next is asked for. */
async function* pipedChunks(rw, id, file) {
  const inbox = [];
  let wake = null;
  piped.set(id, { push(msg) { inbox.push(msg); if (wake) { wake(); wake = null; } } });
  const buffers = Array.from({ length: PIPE_BUFFERS }, () => new ArrayBuffer(BUFFER));
  rw.postMessage({ type: 'read', id, file, buffers }, buffers);
  try {
    for (;;) {
      if (!inbox.length) await new Promise((resolve) => { wake = resolve; });
      const msg = inbox.shift();
      if (msg.type === 'done') return;
      if (msg.type === 'error') {
        const err = new Error(msg.message);
        err.name = msg.name;
        throw err;
      }
      yield new Uint8Array(msg.buffer, 0, msg.length);
      rw.postMessage({ type: 'give', id, buffer: msg.buffer }, [msg.buffer]);
    }
  } finally {
    piped.delete(id);
  }
}

function openChunks(file, id) {
  const rw = file.size >= PIPE_FROM ? getReader() : null;
  if (rw) {
    let finished = false;
    const chunks = pipedChunks(rw, id, file);
    return {
      chunks: (async function* () { yield* chunks; finished = true; })(),
      close() { if (!finished) rw.postMessage({ type: 'cancel', id }); },
    };
  }
  let reader = null;
  try {
    reader = file.stream().getReader({ mode: 'byob' });
  } catch {
    return { chunks: sliceChunks(file), close() {} };
  }
  return {
    chunks: byobChunks(reader, file.size),
    close() { reader.cancel().catch(() => {}); },
  };
}

/** How the files went (read by the page tests through the worker's global). */
const stats = { batches: 0, batchedFiles: 0, streamedFiles: 0 };
self.sha1dcStats = stats;

/** A result as the page gets it: a plain object. */
const plain = (result) => ({ hex: result.hex, sha1: result.sha1, collision: result.collision ? { ...result.collision } : null });

/**
 * Hashes a batch of small files: each is read whole (all at once), then every file still wanted
 * is hashed in one sha1dcMany call. Each file is reported on its own: a file that cannot be read
 * gets its error and the others go on; a cancelled one its 'cancelled'. The time a file took is
 * its share, by size, of the batch's.
 */
async function hashBatch(jobs, options) {
  const t0 = performance.now();
  stats.batches++;
  const open = new Set(jobs.map(({ id }) => id)); // not reported yet
  const post = (msg) => {
    open.delete(msg.id);
    postMessage(msg);
  };
  try {
    // A file cancelled before its batch started is not read.
    const reads = await Promise.allSettled(jobs.map(({ id, file }) => (cancelled.has(id) ? null : file.arrayBuffer())));
    const todo = [];
    jobs.forEach(({ id, file }, i) => {
      const read = reads[i];
      if (cancelled.has(id)) post({ type: 'cancelled', id });
      else if (read.status === 'rejected') post({ type: 'error', id, message: describe(read.reason) });
      else if (read.value.byteLength !== file.size) {
        post({ type: 'error', id, message: `read ${read.value.byteLength} of ${file.size} bytes: the file changed while it was read` });
      } else todo.push({ id, bytes: new Uint8Array(read.value) });
    });
    if (!todo.length) return;
    const results = sha1dcMany(todo.map((t) => t.bytes), {
      safeHash: true,
      reducedRound: Boolean(options.reducedRound),
      gitBlob: Boolean(options.gitBlob),
    });
    stats.batchedFiles += todo.length;
    const ms = performance.now() - t0;
    const bytes = todo.reduce((n, t) => n + t.bytes.length, 0);
    todo.forEach(({ id, bytes: b }, k) => {
      const share = bytes ? b.length / bytes : 1 / todo.length;
      post({ type: 'result', id, total: b.length, ms: ms * share, result: plain(results[k]) });
    });
  } catch (err) {
    // Should the engine throw, every file of the batch not reported yet gets the error.
    for (const id of open) postMessage({ type: 'error', id, message: describe(err) });
  } finally {
    for (const { id } of jobs) cancelled.delete(id);
  }
}

async function hashFile(id, file, options) {
  const total = file.size;
  const hasher = createHasher({
    safeHash: true,
    reducedRound: Boolean(options.reducedRound),
    gitBlob: Boolean(options.gitBlob),
    size: total,
  });
  const source = openChunks(file, id);
  const t0 = performance.now();
  let lastReport = t0;
  let done = 0;
  try {
    for await (const chunk of source.chunks) {
      if (cancelled.has(id)) throw new Cancelled();
      hasher.update(chunk);
      done += chunk.byteLength;
      const now = performance.now();
      if (now - lastReport >= PROGRESS_MS && done < total) {
        lastReport = now;
        postMessage({ type: 'progress', id, done, total, ms: now - t0 });
        await nextTask();
      }
    }
    if (done !== total) throw new Error(`read ${done} of ${total} bytes: the file changed while it was read`);
    const result = hasher.digest();
    const ms = performance.now() - t0;
    stats.streamedFiles++;
    postMessage({ type: 'result', id, total, ms, result: plain(result) });
  } catch (err) {
    // Release the hasher's wasm memory (a no-op if digest() already ran).
    hasher.free();
    if (err instanceof Cancelled) postMessage({ type: 'cancelled', id });
    else postMessage({ type: 'error', id, message: describe(err) });
  } finally {
    source.close();
    cancelled.delete(id);
  }
}

function describe(err) {
  if (err && err.name === 'NotReadableError') return 'The file could not be read (was it moved, deleted or is it a folder?).';
  if (err && err.name === 'NotFoundError') return 'The file is gone (moved or deleted since it was chosen).';
  return String(err && err.message || err);
}

self.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === 'cancel') {
    cancelled.add(msg.id);
  } else if (msg.type === 'hash') {
    queue = queue.then(async () => {
      if (!(await ready)) {
        postMessage({ type: 'error', id: msg.id, message: 'The hashing engine did not load.' });
        return;
      }
      if (cancelled.has(msg.id)) {
        cancelled.delete(msg.id);
        postMessage({ type: 'cancelled', id: msg.id });
        return;
      }
      await hashFile(msg.id, msg.file, msg.options || {});
    });
  } else if (msg.type === 'batch') {
    queue = queue.then(async () => {
      if (!(await ready)) {
        for (const { id } of msg.jobs) postMessage({ type: 'error', id, message: 'The hashing engine did not load.' });
        return;
      }
      await hashBatch(msg.jobs, msg.options || {});
    });
  }
};
