// Chunk sources: where the hashing worker gets the bytes of a file it hashes alone (a file of
// TWO_WORKERS_FROM bytes or more goes to two workers instead, hashing.js, unless the filter
// worker cannot start or the page asks for one worker). Each source yields Uint8Array views,
// each valid until the next is asked for, and never holds the file whole:
//   - piped: a reader worker (reader.js) drains the File's stream on its own thread into
//     buffers this worker lends it, for files large enough to pay for a second thread;
//   - byob: a BYOB reader into two buffers that take turns (one hashed while the other fills);
//   - slices: Blob slices read one at a time, where Blob streams are not byte streams.
// openChunks picks one; the consumer only sees { chunks, close }, so another stage (a worker
// that works on the chunks before they are hashed) can wrap a source without changing either.

/** Bytes per read buffer. */
export const BUFFER = 2 * 1024 * 1024;
/** Buffers lent to the reader worker: one being filled, one in flight, one being hashed. */
const PIPE_BUFFERS = 3;
/** Smaller files are read by the hashing worker itself: a second thread costs more than it saves. */
const PIPE_FROM = 8 * BUFFER;

/**
 * @typedef {{ chunks: AsyncIterable<Uint8Array>, close(): void }} ChunkSource
 *   `close` stops reading (a cancel, an error); a no-op once the chunks are all read
 */

/**
 * The BYOB read buffers, kept from one file to the next: a folder of large files reads through
 * the same two buffers instead of allocating two per file.
 */
const spares = [];
const takeBuffer = () => spares.pop() ?? new ArrayBuffer(BUFFER);
function giveBuffer(buffer) {
  if (buffer && buffer.byteLength === BUFFER && spares.length < 2) spares.push(buffer);
}

/** A BYOB reader's chunks, `size` bytes in all. */
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

/** The file's bytes as BUFFER-byte slices, the next one read while this one is hashed. */
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

/** The reader worker, started at the first large file; null where a worker cannot start one. */
let readerWorker;
/** job id -> the inbox pipedChunks reads */
const inboxes = new Map();

function getReader() {
  if (readerWorker !== undefined) return readerWorker;
  readerWorker = null;
  try {
    readerWorker = new Worker(new URL('./reader.js', import.meta.url), { type: 'module', name: 'sha1dc-reader' });
    readerWorker.onmessage = ({ data }) => inboxes.get(data.id)?.push(data);
    readerWorker.onerror = (event) => {
      event.preventDefault();
      readerWorker = null;
      for (const inbox of inboxes.values()) inbox.push({ type: 'error', name: 'ReaderError', message: 'the reader worker failed' });
    };
  } catch {
    readerWorker = null;
  }
  return readerWorker;
}

/** The chunks reader.js sends for job `id`; each buffer goes back to it once hashed. */
async function* pipedChunks(rw, id, file) {
  const inbox = [];
  let wake = null;
  inboxes.set(id, { push(msg) { inbox.push(msg); if (wake) { wake(); wake = null; } } });
  const buffers = Array.from({ length: PIPE_BUFFERS }, () => new ArrayBuffer(BUFFER));
  rw.postMessage({ type: 'read', id, file, buffers }, buffers);
  try {
    for (;;) {
      if (!inbox.length) await new Promise((resolve) => { wake = resolve; });
      const msg = inbox.shift();
      if (msg.type === 'done') return;
      if (msg.type === 'error') throw Object.assign(new Error(msg.message), { name: msg.name });
      yield new Uint8Array(msg.buffer, 0, msg.length);
      rw.postMessage({ type: 'give', id, buffer: msg.buffer }, [msg.buffer]);
    }
  } finally {
    inboxes.delete(id);
  }
}

/**
 * The best source this browser offers for `file` (job `id`).
 * @returns {ChunkSource}
 */
export function openChunks(file, id) {
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
