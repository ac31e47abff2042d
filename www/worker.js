// Module worker: hashes files with sha1dc-wasm, one job at a time, off the main thread.
//
// Protocol (messages from the page):
//   { type: 'hash', id, file, options: { gitBlob, reducedRound } }
//   { type: 'cancel', id }
// Replies:
//   { type: 'ready', backend }                 once the wasm module is instantiated
//   { type: 'failed', message }                if it could not be
//   { type: 'progress', id, done, total, ms }  at most every PROGRESS_MS while hashing
//   { type: 'result', id, result, ms, total }  result = { hex, sha1, collision }
//   { type: 'cancelled', id }
//   { type: 'error', id, message }
//
// Memory: the file is never read whole. It is read in CHUNK-byte slices; while one slice is
// being hashed the next one is already being read, so at most two slices are alive at a time
// (plus the wasm module's own copy buffer), whatever the file's size.

import { init, createHasher, backend } from './pkg/index.mjs';

const CHUNK = 4 * 1024 * 1024;
const PROGRESS_MS = 50;

const cancelled = new Set();
let queue = Promise.resolve();

class Cancelled extends Error {}

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

function readSlice(file, start) {
  return file.slice(start, Math.min(start + CHUNK, file.size)).arrayBuffer();
}

async function hashFile(id, file, options) {
  const total = file.size;
  const hasher = createHasher({
    safeHash: true,
    reducedRound: Boolean(options.reducedRound),
    gitBlob: Boolean(options.gitBlob),
    size: total,
  });
  const t0 = performance.now();
  let lastReport = t0;
  let done = 0;
  let next = total > 0 ? readSlice(file, 0) : null;
  try {
    while (next) {
      const buf = await next;
      if (cancelled.has(id)) throw new Cancelled();
      const end = done + buf.byteLength;
      // Start reading the following slice before hashing this one.
      next = end < total ? readSlice(file, end) : null;
      hasher.update(new Uint8Array(buf));
      done = end;
      const now = performance.now();
      if (now - lastReport >= PROGRESS_MS && done < total) {
        lastReport = now;
        postMessage({ type: 'progress', id, done, total, ms: now - t0 });
      }
    }
    if (done !== total) throw new Error(`read ${done} of ${total} bytes: the file changed while it was read`);
    const result = hasher.digest();
    const ms = performance.now() - t0;
    postMessage({
      type: 'result', id, total, ms,
      result: { hex: result.hex, sha1: result.sha1, collision: result.collision ? { ...result.collision } : null },
    });
  } catch (err) {
    // Let the pending read settle and finish the hasher so its wasm memory is released.
    if (next) next.catch(() => {});
    try { hasher.digest(); } catch { /* already finished or unusable */ }
    if (err instanceof Cancelled) postMessage({ type: 'cancelled', id });
    else postMessage({ type: 'error', id, message: describe(err) });
  } finally {
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
  }
};
