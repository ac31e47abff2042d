// Hashing: a large file on two workers (the package's hashStream: its filter worker reads the
// file and runs the filter half of detection ahead of the hashing here), a file from a chunk
// source (chunks.js) through one streaming hasher, or a batch of small files read whole and
// hashed together with sha1dcMany. None knows where its messages go or how a cancel arrives:
// the protocol (worker.js) passes `post` and `isCancelled`.

import { createHasher, hashStream, sha1dcMany } from './pkg/index.mjs';

/** Progress is reported at most this often, in milliseconds. */
const PROGRESS_MS = 50;

/**
 * Files of at least this many bytes are hashed on two workers; below, a second worker costs
 * more than it saves.
 */
export const TWO_WORKERS_FROM = 16 * 1024 * 1024;

/**
 * @typedef {{ gitBlob?: boolean, reducedRound?: boolean }} Options
 * @typedef {{ post: (msg: object) => void, isCancelled: (id: number) => boolean }} Channel
 */

/**
 * How the files went (the page tests read it through the worker's global): streamedFiles on
 * one worker, filteredFiles on two.
 */
export const stats = { batches: 0, batchedFiles: 0, streamedFiles: 0, filteredFiles: 0 };

class Cancelled extends Error {}

/** The library's options for the page's: the safe hash always, as sha1dcsum prints it. */
const libraryOptions = (options) => ({
  safeHash: true,
  reducedRound: Boolean(options.reducedRound),
  gitBlob: Boolean(options.gitBlob),
});

/** A result as the page gets it: a plain object. */
const plain = (result) => ({ hex: result.hex, sha1: result.sha1, collision: result.collision ? { ...result.collision } : null });

const changedWhileRead = (got, size) => `read ${got} of ${size} bytes: the file changed while it was read`;

/**
 * Lets queued messages (a 'cancel') run: when the file's bytes are already buffered, reads
 * resolve as microtasks and the hashing loop would otherwise never give the event loop a turn.
 */
const tick = new MessageChannel();
function nextTask() {
  return new Promise((resolve) => {
    tick.port1.onmessage = () => resolve();
    tick.port2.postMessage(0);
  });
}

/** What the page shows for a read that failed. */
export function describe(err) {
  if (err && err.name === 'NotReadableError') return 'The file could not be read (was it moved, deleted or is it a folder?).';
  if (err && err.name === 'NotFoundError') return 'The file is gone (moved or deleted since it was chosen).';
  return String(err && err.message || err);
}

/**
 * Hashes job `id`, `total` bytes from `source` (closed at the end, whatever happens); posts
 * progress, then its result, 'cancelled' or error.
 * @param {import('./chunks.js').ChunkSource} source
 * @param {Channel} channel
 */
export async function hashFile(id, total, source, options, { post, isCancelled }) {
  const hasher = createHasher({ ...libraryOptions(options), size: total });
  const t0 = performance.now();
  let lastReport = t0;
  let done = 0;
  try {
    for await (const chunk of source.chunks) {
      if (isCancelled(id)) throw new Cancelled();
      hasher.update(chunk);
      done += chunk.byteLength;
      const now = performance.now();
      if (now - lastReport >= PROGRESS_MS && done < total) {
        lastReport = now;
        post({ type: 'progress', id, done, total, ms: now - t0 });
        await nextTask();
      }
    }
    if (done !== total) throw new Error(changedWhileRead(done, total));
    const result = hasher.digest();
    stats.streamedFiles++;
    post({ type: 'result', id, total, ms: performance.now() - t0, result: plain(result) });
  } catch (err) {
    // Release the hasher's wasm memory (a no-op if digest() already ran).
    hasher.free();
    post(err instanceof Cancelled ? { type: 'cancelled', id } : { type: 'error', id, message: describe(err) });
  } finally {
    source.close();
  }
}

/** Set once the filter worker failed to start: the next large files go on one worker. */
let noFilterWorker = false;

/**
 * Hashes job `id`, a large `file`, on two workers; posts progress, then its result, 'cancelled'
 * or error. Returns false, having posted nothing, when the filter worker cannot start (the file
 * is then for the one-worker path).
 * @param {File} file
 * @param {Channel} channel
 */
export async function hashOnTwoWorkers(id, file, options, { post, isCancelled }) {
  if (noFilterWorker) return false;
  const stop = new AbortController();
  const t0 = performance.now();
  let lastReport = t0;
  let hashed = 0;
  const progress = (done) => {
    hashed = done;
    if (isCancelled(id)) stop.abort(new Cancelled());
    const now = performance.now();
    if (now - lastReport >= PROGRESS_MS && done < file.size) {
      lastReport = now;
      post({ type: 'progress', id, done, total: file.size, ms: now - t0 });
    }
  };
  try {
    const result = await hashStream(file, { ...libraryOptions(options), worker: true, signal: stop.signal }, progress);
    stats.filteredFiles++;
    post({ type: 'result', id, total: file.size, ms: performance.now() - t0, result: plain(result) });
  } catch (err) {
    if (hashed === 0 && /^sha1dc: the filter worker/.test(err && err.message)) {
      noFilterWorker = true;
      return false;
    }
    if (err instanceof Cancelled) post({ type: 'cancelled', id });
    // The bytes read were not the size the file had when it was chosen.
    else if (err instanceof RangeError) post({ type: 'error', id, message: changedWhileRead(hashed, file.size) });
    else post({ type: 'error', id, message: describe(err) });
  }
  return true;
}

/**
 * Reads a batch's files whole, at once. Returns the ones to hash; every other file (cancelled,
 * unreadable, changed) is reported here.
 */
async function readBatch(jobs, { post, isCancelled }) {
  // A file cancelled before its batch started is not read.
  const reads = await Promise.allSettled(jobs.map(({ id, file }) => (isCancelled(id) ? null : file.arrayBuffer())));
  const todo = [];
  jobs.forEach(({ id, file }, i) => {
    const read = reads[i];
    if (isCancelled(id)) post({ type: 'cancelled', id });
    else if (read.status === 'rejected') post({ type: 'error', id, message: describe(read.reason) });
    else if (read.value.byteLength !== file.size) post({ type: 'error', id, message: changedWhileRead(read.value.byteLength, file.size) });
    else todo.push({ id, bytes: new Uint8Array(read.value) });
  });
  return todo;
}

/**
 * Hashes a batch of small files in one sha1dcMany call, which runs several at a time on the
 * SIMD lanes. Each file is reported on its own, with its share (by size) of the batch's time;
 * should the library throw, every file not reported yet gets the error.
 * @param {{ id: number, file: File }[]} jobs
 * @param {Channel} channel
 */
export async function hashBatch(jobs, options, { post, isCancelled }) {
  const t0 = performance.now();
  stats.batches++;
  const open = new Set(jobs.map(({ id }) => id));
  const report = (msg) => {
    open.delete(msg.id);
    post(msg);
  };
  try {
    const todo = await readBatch(jobs, { post: report, isCancelled });
    if (!todo.length) return;
    const results = sha1dcMany(todo.map((t) => t.bytes), libraryOptions(options));
    stats.batchedFiles += todo.length;
    const ms = performance.now() - t0;
    const bytes = todo.reduce((n, t) => n + t.bytes.length, 0);
    todo.forEach(({ id, bytes: b }, k) => {
      const share = bytes ? b.length / bytes : 1 / todo.length;
      report({ type: 'result', id, total: b.length, ms: ms * share, result: plain(results[k]) });
    });
  } catch (err) {
    for (const id of open) post({ type: 'error', id, message: describe(err) });
  }
}
