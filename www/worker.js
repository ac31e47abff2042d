// Module worker: the message protocol between the page's pool (pool.js) and the hashing here.
// One job at a time, off the main thread; what is done with a file is hashing.js (a large one on
// two workers: this one and the package's filter worker, which reads it), where the bytes of a
// file hashed here alone come from chunks.js.
//
// Messages from the page:
//   { type: 'hash', id, file, options: { gitBlob, reducedRound, oneWorker } }
//                                                                     a large file, streamed
//                                                                     (oneWorker: never on two)
//   { type: 'batch', jobs: [{ id, file }], options }                   small files, read whole and
//                                                                     hashed together (sha1dcMany)
//   { type: 'cancel', id }
// Replies (for a batch, one result, cancelled or error per file, as for a file alone):
//   { type: 'ready', backend }                 once the wasm module is instantiated
//   { type: 'failed', message }                if it could not be
//   { type: 'progress', id, done, total, ms }  every few tens of milliseconds while hashing
//   { type: 'result', id, result, ms, total }  result = { hex, sha1, collision }
//   { type: 'cancelled', id }
//   { type: 'error', id, message }

import { init, backend } from './pkg/index.mjs';
import { openChunks } from './chunks.js';
import { TWO_WORKERS_FROM, hashFile, hashBatch, hashOnTwoWorkers, stats } from './hashing.js';

/** Jobs cancelled by the page and not reported as such yet. */
const cancelled = new Set();
/** The jobs run one after the other: each message's work is chained onto this. */
let queue = Promise.resolve();
self.sha1dcStats = stats;

const channel = { post: (msg) => postMessage(msg), isCancelled: (id) => cancelled.has(id) };

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

/** Runs `work` once the earlier jobs are done and the module is up; `ids` fail if it is not. */
function enqueue(ids, work) {
  queue = queue.then(async () => {
    try {
      if (await ready) await work();
      else for (const id of ids) postMessage({ type: 'error', id, message: 'The WebAssembly module did not load.' });
    } finally {
      for (const id of ids) cancelled.delete(id);
    }
  });
}

self.onmessage = ({ data: msg }) => {
  if (msg.type === 'cancel') {
    cancelled.add(msg.id);
  } else if (msg.type === 'hash') {
    enqueue([msg.id], async () => {
      if (cancelled.has(msg.id)) {
        postMessage({ type: 'cancelled', id: msg.id });
        return;
      }
      const options = msg.options || {};
      const two = msg.file.size >= TWO_WORKERS_FROM && !options.oneWorker;
      if (two && (await hashOnTwoWorkers(msg.id, msg.file, options, channel))) return;
      await hashFile(msg.id, msg.file.size, openChunks(msg.file, msg.id), options, channel);
    });
  } else if (msg.type === 'batch') {
    enqueue(msg.jobs.map(({ id }) => id), () => hashBatch(msg.jobs, msg.options || {}, channel));
  }
};
