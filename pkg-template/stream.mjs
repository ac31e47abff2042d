// hashStream: a ReadableStream, a Blob or File, or an async iterable of chunks (Node streams),
// hashed chunk by chunk in constant memory, with progress and an AbortSignal.
import { STREAM_OPTION_NAMES, describe, isBlobLike, parseOptions, toInput } from './input.mjs';
import { feed, finish } from './hasher.mjs';

/**
 * The chunks of a source, one next() at a time: { next(), stop(reason), release() }.
 * stop() ends a source we leave early (a bad chunk, an abort, a throwing
 * onProgress): a ReadableStream is cancelled, an iterator returned, a Node
 * stream destroyed; it is never awaited, so a stalled source cannot hold
 * the caller.
 */
function openSource(source) {
  if (typeof source.getReader === 'function') {
    const reader = source.getReader();
    return {
      next: () => reader.read(),
      stop(reason) {
        reader.cancel(reason).catch(() => {});
      },
      release() {
        try {
          reader.releaseLock();
        } catch {
          // A read is still pending (a stalled source): cancel() has ended it.
        }
      },
    };
  }
  const it = source[Symbol.asyncIterator]();
  return {
    next: () => it.next(),
    stop() {
      if (typeof source.destroy === 'function' && typeof source.pipe === 'function') source.destroy();
      if (typeof it.return === 'function') Promise.resolve().then(() => it.return()).catch(() => {});
    },
    release() {},
  };
}

/** hashStream's arguments checked: { source (a stream or iterable), flags, size, signal, onProgress }. */
function checkArguments(source, options, onProgress) {
  if (typeof options === 'function' && onProgress === undefined) {
    onProgress = options;
    options = undefined;
  }
  if (onProgress !== undefined && onProgress !== null && typeof onProgress !== 'function') {
    throw new TypeError(`sha1dc: hashStream onProgress must be a function; got ${describe(onProgress)}`);
  }
  let { flags, size, gitBlob, signal } = parseOptions(options, 'hashStream()', STREAM_OPTION_NAMES);
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
  return { source: isBlob ? source.stream() : source, flags, size, signal, onProgress: onProgress || null };
}

/** A promise that rejects with the signal's reason when it aborts (never, without a signal), and its cleanup. */
function abortion(signal) {
  if (!signal) return { aborted: null, dispose() {} };
  let onAbort;
  const aborted = new Promise((_, reject) => {
    onAbort = () => reject(signal.reason);
  });
  aborted.catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  return { aborted, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * hashStream over one module: `RawHasher` is its streaming hasher class, `decode` its result
 * decoder. The source is stopped, and the hasher freed, however the hashing ends.
 */
export async function hashStream({ RawHasher, decode }, source, options, onProgress) {
  const a = checkArguments(source, options, onProgress);
  const { signal } = a;
  if (signal && signal.aborted) throw signal.reason;
  const chunks = openSource(a.source);
  const { aborted, dispose } = abortion(signal);
  const h = new RawHasher(a.flags, a.size);
  let open = true; // the source may need stopping
  try {
    for (;;) {
      let step;
      try {
        step = await (aborted ? Promise.race([chunks.next(), aborted]) : chunks.next());
      } catch (err) {
        // The source's own failure ends it; an abort must still stop it.
        if (!(signal && signal.aborted)) open = false;
        throw err;
      }
      if (step.done) {
        open = false;
        return finish(h, a.size, decode);
      }
      feed(h, toInput(step.value, 'each chunk of the stream'));
      if (a.onProgress) a.onProgress(h.length());
      if (signal && signal.aborted) throw signal.reason;
    }
  } catch (err) {
    if (open) chunks.stop(signal && signal.aborted ? signal.reason : err);
    throw err;
  } finally {
    h.free();
    chunks.release();
    dispose();
  }
}
