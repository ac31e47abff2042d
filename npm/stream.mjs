// hashStream: a ReadableStream, a Blob or File, or an async iterable of chunks (Node streams),
// hashed chunk by chunk in constant memory, with progress and an AbortSignal.
import { STREAM_OPTION_NAMES, describe, isBlobLike, parseOptions, toInput } from './input.mjs';
import { feed, finish } from './hasher.mjs';

/**
 * The chunks of a source, one next(stopper) at a time: { next(stopper), stop(reason),
 * release(), ended }. next() settles with the source's next step, or rejects with the reason
 * `stopper` (a Stopper) stops for first (an abort, a failed worker); `ended` says the source
 * ended by itself (its last chunk read, or its own error). stop() ends a source we leave early
 * (a bad chunk, an abort, a throwing onProgress): a ReadableStream is cancelled, an iterator
 * returned, a Node stream destroyed; it is never awaited, so a stalled source cannot hold the
 * caller.
 */
function openSource(source) {
  let next;
  let stop;
  let release = () => {};
  if (typeof source.getReader === 'function') {
    const reader = source.getReader();
    next = () => reader.read();
    stop = (reason) => reader.cancel(reason).catch(() => {});
    release = () => {
      try {
        reader.releaseLock();
      } catch {
        // A read is still pending (a stalled source): cancel() has ended it.
      }
    };
  } else {
    const it = source[Symbol.asyncIterator]();
    next = () => it.next();
    stop = () => {
      if (typeof source.destroy === 'function' && typeof source.pipe === 'function') source.destroy();
      if (typeof it.return === 'function') Promise.resolve().then(() => it.return()).catch(() => {});
    };
  }
  const chunks = {
    ended: false,
    next(stopper) {
      const step = next().then(
        (s) => {
          if (s.done) chunks.ended = true;
          return s;
        },
        (err) => {
          chunks.ended = true;
          throw err;
        },
      );
      return stopper.wait(step);
    },
    stop,
    release,
  };
  return chunks;
}

/** hashStream's arguments checked: { source (a stream or iterable), blob, flags, size, signal, worker, onProgress }. */
function checkArguments(source, options, onProgress) {
  if (typeof options === 'function' && onProgress === undefined) {
    onProgress = options;
    options = undefined;
  }
  if (onProgress !== undefined && onProgress !== null && typeof onProgress !== 'function') {
    throw new TypeError(`sha1dc: hashStream onProgress must be a function; got ${describe(onProgress)}`);
  }
  let { flags, size, gitBlob, signal, worker } = parseOptions(options, 'hashStream()', STREAM_OPTION_NAMES);
  const isBlob = isBlobLike(source);
  if (!isBlob && !(source && (typeof source.getReader === 'function' || typeof source[Symbol.asyncIterator] === 'function'))) {
    throw new TypeError(
      `sha1dc: hashStream source must be a ReadableStream, a Blob or File, or an async iterable of chunks; got ${describe(source)}${
        typeof source === 'string' || ArrayBuffer.isView(source) ? ' (use sha1dc() for data in memory)' : ''
      }`,
    );
  }
  if (isBlob && size === undefined) size = source.size;
  if (gitBlob && size === undefined) {
    throw new TypeError('sha1dc: hashStream(source, { gitBlob: true }) needs options.size unless the source is a Blob');
  }
  return { source: isBlob ? null : source, blob: isBlob ? source : null, flags, size, signal, worker, onProgress: onProgress || null };
}

/**
 * What stops the waits of one hashStream early: an abort, or a filter worker that failed.
 * wait(promise) settles as `promise` does, or rejects with the reason once stop(reason) is
 * called; nothing is kept of a wait once it settles (a race against one long-lived promise
 * would keep every chunk it ever resolved with).
 */
export class Stopper {
  #waiting = new Set();
  #stopped = false;
  #reason;

  get stopped() {
    return this.#stopped;
  }

  stop(reason) {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#reason = reason;
    for (const reject of this.#waiting) reject(reason);
    this.#waiting.clear();
  }

  wait(promise) {
    return new Promise((resolve, reject) => {
      if (this.#stopped) {
        promise.catch(() => {});
        reject(this.#reason);
        return;
      }
      this.#waiting.add(reject);
      promise.then(
        (value) => {
          this.#waiting.delete(reject);
          resolve(value);
        },
        (err) => {
          this.#waiting.delete(reject);
          reject(err);
        },
      );
    });
  }
}

/** A Stopper that stops when `signal` aborts, and the cleanup of its listener. */
function abortion(signal) {
  const stopper = new Stopper();
  if (!signal) return { stopper, dispose() {} };
  const onAbort = () => stopper.stop(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return { stopper, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * hashStream over one module: `wasm` is { RawHasher, decode, filterWorker } of its exports, its streaming
 * hasher class, its result decoder, and what starts a filter worker (workers.mjs). The source is
 * stopped, the hasher freed and a filter worker ended, however the hashing ends.
 */
export async function hashStream(wasm, source, options, onProgress) {
  const a = checkArguments(source, options, onProgress);
  const { signal } = a;
  if (signal && signal.aborted) throw signal.reason;
  const { stopper, dispose } = abortion(signal);
  const run = {
    stopper,
    progress: a.onProgress ?? (() => {}),
    /** Throws the abort's reason once the signal has fired (an abort from onProgress). */
    check() {
      if (signal && signal.aborted) throw signal.reason;
    },
  };
  let worker = null;
  try {
    worker = await wasm.filterWorker(a, stopper);
  } catch (err) {
    dispose();
    throw err;
  }
  const chunks = worker?.readsBlob ? null : openSource(a.source ?? a.blob.stream());
  const h = new wasm.RawHasher(a.flags, a.size);
  try {
    if (worker === null) await hashHere(h, chunks, run);
    else if (chunks === null) await worker.hashBlob(h, run);
    else await worker.hashChunks(h, chunks, run);
    return finish(h, a.size, wasm.decode);
  } catch (err) {
    if (chunks && !chunks.ended) chunks.stop(signal && signal.aborted ? signal.reason : err);
    throw err;
  } finally {
    worker?.stop();
    h.free();
    chunks?.release();
    dispose();
  }
}

/** One worker: each chunk hashed here as it comes. */
async function hashHere(h, chunks, run) {
  for (;;) {
    const step = await chunks.next(run.stopper);
    if (step.done) return;
    feed(h, toInput(step.value, 'each chunk of the stream'));
    run.progress(h.length());
    run.check();
  }
}
