// The filter worker of a two-worker hashStream (workers.mjs starts it; filter-worker.mjs and
// filter-worker-node.mjs are its scripts for Web Workers and for Node's worker_threads): it runs
// the filter half of detection ahead of the hashing, on buffers it is handed or on a Blob it
// reads itself, and hands each buffer back with its masks.
//
// Messages to it:
//   { type: 'start', module, flags, size, blob?, buffers? }  instantiate the WebAssembly.Module,
//       make the filter; with a blob, read it into `buffers` (transferred), one after the other
//   { type: 'chunk', buffer, length }   filter these bytes (the buffer is transferred)
//   { type: 'give', buffer }            a buffer back, hashed, for the blob's next bytes
// Replies: { type: 'ready' }; { type: 'chunk', buffer, length, masks } (both transferred);
//   { type: 'done' } after a blob's last chunk; { type: 'error', name, message }.
// The worker is terminated when the hashing ends, however it ends.
import { RawFilter, initSync } from './wasm/sha1dc_wasm_inline.js';
import { Filter } from './filter.mjs';

/**
 * Serves the protocol: `post(message, transfer)` sends a reply; `listen(handler)` calls
 * `handler(message)` for each message received.
 */
export function serve(post, listen) {
  let filter = null;
  let blob = null;
  const filtered = (view) => {
    const masks = filter.filter(view);
    post({ type: 'chunk', buffer: view.buffer, length: view.byteLength, masks }, [view.buffer, masks.buffer]);
  };
  const fail = (err) => post({ type: 'error', name: err && err.name, message: String((err && err.message) || err) });
  listen((msg) => {
    try {
      if (msg.type === 'start') {
        initSync({ module: msg.module });
        filter = new Filter(RawFilter, msg.flags, msg.size);
        post({ type: 'ready' });
        if (msg.blob) {
          blob = blobReader(msg.blob, msg.buffers);
          blob.run(filtered).then(() => post({ type: 'done' }), fail);
        }
      } else if (msg.type === 'chunk') {
        filtered(new Uint8Array(msg.buffer, 0, msg.length));
      } else if (msg.type === 'give') {
        blob.give(msg.buffer);
      }
    } catch (err) {
      fail(err);
    }
  });
}

/**
 * Reads `blob` into `buffers`, each filled whole (but the last) before it goes to `use`; a
 * buffer is read into again once given back. A byte stream's reader where the runtime has one,
 * else slices.
 */
function blobReader(blob, buffers) {
  const free = [...buffers];
  let wake = null;
  const next = () => (free.length ? Promise.resolve(free.pop()) : new Promise((resolve) => { wake = resolve; }));
  let reader = null;
  try {
    reader = blob.stream().getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream here: slices.
  }
  return {
    give(buffer) {
      if (wake) {
        const w = wake;
        wake = null;
        w(buffer);
      } else {
        free.push(buffer);
      }
    },
    /**
     * Reads the next buffer while the one before is used, so that the runtime reads the file
     * meanwhile (reads stay one after the other, as a BYOB reader's must).
     */
    async run(use) {
      const read = async (at) => {
        const buffer = await next();
        return reader ? fill(reader, buffer) : slice(blob, at, buffer);
      };
      let ahead = blob.size > 0 ? read(0) : null;
      for (let at = 0; ahead !== null; ) {
        const view = await ahead;
        if (view.byteLength === 0) return;
        at += view.byteLength;
        ahead = at < blob.size ? read(at) : null;
        try {
          use(view);
        } catch (err) {
          // The read ahead is abandoned: its failure, if any, is not this run's.
          ahead?.catch(() => {});
          throw err;
        }
      }
    },
  };
}

/** `buffer` filled from a BYOB reader, up to its end or the stream's. */
async function fill(reader, buffer) {
  let filled = 0;
  while (filled < buffer.byteLength) {
    const { value, done } = await reader.read(new Uint8Array(buffer, filled));
    if (done) {
      if (value) buffer = value.buffer;
      break;
    }
    buffer = value.buffer;
    filled += value.byteLength;
  }
  return new Uint8Array(buffer, 0, filled);
}

/** `buffer` filled with the blob's bytes from `at`. */
async function slice(blob, at, buffer) {
  const bytes = new Uint8Array(await blob.slice(at, at + buffer.byteLength).arrayBuffer());
  const view = new Uint8Array(buffer, 0, bytes.length);
  view.set(bytes);
  return view;
}
