// hashStream on two workers: the filter half of detection runs ahead in a filter worker
// (filtering.mjs), and this thread hashes each chunk with the masks it sends back: plain rounds
// for the blocks without a candidate. A Blob is read by the filter worker itself; any other
// source is read here and its bytes lent to the worker in a few buffers that go back and forth
// (transferred, never shared: no cross-origin isolation needed). The result is the one-worker
// result.
import { describe, toInput } from './input.mjs';

/** Bytes per buffer lent to the filter worker. */
export const BUFFER = 1 << 20;
/** Buffers in flight: one being filtered, one coming back, one being hashed, one being filled. */
const BUFFERS = 4;
/**
 * With `worker` left to the package ('auto'), a stream of at least this many bytes (its size
 * known: a Blob, or options.size) goes through a filter worker; a smaller one is hashed here
 * alone, sooner than a worker starts.
 */
export const AUTO_MIN = 16 << 20;

/** An error of the filter worker's, as the caller sees it. */
function workerError(what) {
  return new Error(`sha1dc: the filter worker of hashStream ${what}`);
}

/**
 * The messages a worker sends, in order: take() waits for the next, poll() returns it if it is
 * here; once the worker fails, both throw its error.
 */
class Inbox {
  #messages = [];
  #waiting = null;
  #error = null;

  push(msg) {
    if (this.#waiting) {
      const { resolve } = this.#waiting;
      this.#waiting = null;
      resolve(msg);
    } else {
      this.#messages.push(msg);
    }
  }

  fail(err) {
    if (this.#error) return;
    this.#error = err;
    this.#waiting?.reject(err);
    this.#waiting = null;
  }

  poll() {
    if (this.#error) throw this.#error;
    return this.#messages.shift();
  }

  take() {
    if (this.#error) return Promise.reject(this.#error);
    if (this.#messages.length) return Promise.resolve(this.#messages.shift());
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }
}

/**
 * `worker` (a Web Worker, or a Node worker_threads Worker) as { post(message, transfer), inbox,
 * attach(stopper), stop() }: its messages go to the inbox; its failure (an error message, an
 * uncaught error, an exit) fails the inbox and, once attached (the worker is up), stops
 * `stopper`, which ends every other wait of the hashing.
 */
function connect(worker) {
  const isWorker = (w) => w !== null && typeof w === 'object' && (typeof w.addEventListener === 'function' || typeof w.on === 'function');
  if (!isWorker(worker)) {
    throw new TypeError(`sha1dc: hashStream()'s worker function must return a Worker (a Web Worker or a worker_threads Worker); it returned ${describe(worker)}`);
  }
  const inbox = new Inbox();
  let failure = null;
  let attached = null;
  const fail = (err) => {
    failure ??= err;
    inbox.fail(err);
    attached?.stop(err);
  };
  const onMessage = (msg) => {
    if (msg && msg.type === 'error') fail(Object.assign(workerError(`failed: ${msg.message}`), { name: msg.name || 'Error' }));
    else inbox.push(msg);
  };
  let stopped = false;
  if (typeof worker.addEventListener === 'function') {
    worker.addEventListener('message', (event) => onMessage(event.data));
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      fail(workerError(`failed${event.message ? `: ${event.message}` : ' to load or run'}`));
    });
    worker.addEventListener('messageerror', () => fail(workerError('sent a message that could not be read')));
  } else {
    worker.on('message', onMessage);
    worker.on('error', (err) => fail(workerError(`failed: ${err && err.message}`)));
    worker.on('exit', (code) => {
      if (!stopped) fail(workerError(`exited (code ${code})`));
    });
  }
  return {
    post: (msg, transfer) => worker.postMessage(msg, transfer),
    inbox,
    attach(stopper) {
      attached = stopper;
      if (failure) stopper.stop(failure);
    },
    stop() {
      stopped = true;
      inbox.fail(workerError('was stopped'));
      worker.terminate();
    },
  };
}

/** A buffer the filter worker sent back: its bytes hashed with its masks, the progress told. */
function hashReply(h, msg, run) {
  h.updateWithMasks(new Uint8Array(msg.buffer, 0, msg.length), msg.masks);
  run.progress(h.length());
  run.check();
}

/**
 * The hashing side of a started filter worker (`conn`): { hashBlob, hashChunks, stop } (and
 * readsBlob, from filterWorker: whether the worker reads the Blob itself).
 * hashBlob hashes what the worker reads from the Blob it was given; hashChunks reads `chunks`
 * here into the buffers `free`, lends each to the worker to filter, and hashes it when it comes
 * back.
 */
function hashingSide(conn, free) {
  const { inbox, post } = conn;
  const next = (run) => run.stopper.wait(inbox.take());
  return {
    stop: conn.stop,

    async hashBlob(h, run) {
      for (;;) {
        const msg = await next(run);
        if (msg.type === 'done') return;
        hashReply(h, msg, run);
        post({ type: 'give', buffer: msg.buffer }, [msg.buffer]);
      }
    },

    async hashChunks(h, chunks, run) {
      let inFlight = 0;
      let buffer = null;
      let filled = 0;
      const back = (msg) => {
        inFlight--;
        hashReply(h, msg, run);
        free.push(msg.buffer);
      };
      const send = () => {
        post({ type: 'chunk', buffer, length: filled }, [buffer]);
        inFlight++;
        buffer = null;
        filled = 0;
      };
      for (;;) {
        const step = await chunks.next(run.stopper);
        if (step.done) break;
        let bytes = toBytes(step.value);
        while (bytes.length > 0) {
          while (buffer === null && free.length === 0) back(await next(run));
          buffer ??= free.pop();
          const n = Math.min(bytes.length, BUFFER - filled);
          new Uint8Array(buffer, filled, n).set(bytes.subarray(0, n));
          filled += n;
          bytes = bytes.subarray(n);
          if (filled === BUFFER) send();
        }
        // Whatever the worker has sent back by now is hashed before the next read.
        for (let msg; (msg = inbox.poll()); ) back(msg);
      }
      if (filled > 0) send();
      while (inFlight > 0) back(await next(run));
    },
  };
}

const encoder = new TextEncoder();

/** A chunk of the stream as bytes (checked as the one-worker path checks it). */
function toBytes(value) {
  const input = toInput(value, 'each chunk of the stream');
  return typeof input === 'string' ? encoder.encode(input) : input;
}

/**
 * What starts filter workers for one module: `filterWorker(args, stopper)` for hashStream, which
 * resolves with the hashing side of a worker that is up (hashingSide), or null to hash on this
 * thread alone. `module()` is the module's WebAssembly.Module; `start()` starts a worker on the
 * package's filter worker script, or is null where this entry has none (then only a `worker`
 * function given by the caller starts one).
 */
export function createFilterWorkers(module, start) {
  /** Set once the package's own worker failed to start: 'auto' stops trying. */
  let broken = false;

  return async function filterWorker(a, stopper) {
    const auto = a.worker === 'auto';
    const factory = typeof a.worker === 'function' ? a.worker : start;
    if (a.worker === false || (auto && (broken || start === null || !(a.size >= AUTO_MIN)))) return null;
    if (factory === null) {
      throw new TypeError('sha1dc: hashStream({ worker: true }) cannot start a filter worker from this entry point (a bundle, or a runtime without workers); pass worker: a function that starts one on sha1dc-wasm/filter-worker');
    }
    const buffers = () => Array.from({ length: BUFFERS }, () => new ArrayBuffer(BUFFER));
    let free = buffers();
    let conn = null;
    try {
      conn = connect(factory());
      const hello = { type: 'start', module: module(), flags: a.flags, size: a.size };
      let readsBlob = false;
      if (a.blob) {
        try {
          conn.post({ ...hello, blob: a.blob, buffers: free }, free);
          readsBlob = true;
        } catch {
          // A Blob the runtime cannot hand to a worker (Node's file-backed ones, from
          // fs.openAsBlob): read here, as a stream, and lend the worker its bytes, in new
          // buffers (the failed post may have detached them).
          free = buffers();
        }
      }
      if (!readsBlob) conn.post(hello);
      // Until the worker is up, its failure ends only this wait ('auto' then goes on alone).
      const msg = await stopper.wait(conn.inbox.take());
      if (msg.type !== 'ready') throw workerError(`sent ${msg.type} before it was ready`);
      conn.attach(stopper);
      return { ...hashingSide(conn, free), readsBlob };
    } catch (err) {
      conn?.stop();
      if (auto && !stopper.stopped) {
        broken = true;
        return null;
      }
      throw err;
    }
  };
}
