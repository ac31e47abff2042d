// The JavaScript API of sha1dc-wasm over the raw wasm-bindgen exports.
//
// One source for every entry point: index.mjs (browsers, workers, bundlers,
// other runtimes) and node.cjs / node.mjs (Node) call createApi with their
// own glue. scripts/build-pkg.sh derives core.cjs from this file for the
// CommonJS entry, so it keeps a single `export` (createApi) and imports
// nothing.

/** Option bits understood by the wasm side (bindings/src/lib.rs). */
const SAFE_HASH = 1;
const REDUCED_ROUND = 2;
const GIT_BLOB = 4;

/**
 * Largest piece of input handed to wasm at once. Larger inputs are split, so
 * the module's memory (which never shrinks) stays small whatever the input.
 */
const PIECE = 1 << 20;

/** Strings longer than this (in UTF-16 units) are encoded in pieces. */
const STRING_PIECE = PIECE >> 2;

/**
 * sha1dcMany hands wasm at most this many bytes of messages at once: a larger
 * batch goes in several calls, so the module's memory stays bounded; a message
 * larger than this is hashed alone, in pieces, as sha1dc() does.
 */
const BATCH_BYTES = 8 << 20;

/** And at most this many messages at once (each result is 72 bytes). */
const BATCH_MESSAGES = 16384;

/** Bytes of one encoded result (see the bindings crate). */
const RESULT_LEN = 72;

const ACCEPTED =
  'a Uint8Array, ArrayBuffer, DataView, another TypedArray view, a Node Buffer or a string';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

const tag = (x) => Object.prototype.toString.call(x).slice(8, -1);

/** Says what `x` is, for error messages. */
function describe(x) {
  if (x === null) return 'null';
  if (x === undefined) return 'undefined';
  switch (typeof x) {
    case 'string':
      return 'a string';
    case 'number':
    case 'bigint':
    case 'boolean':
    case 'symbol':
      return `${typeof x} ${String(x)}`;
    case 'function':
      return `a function${x.name ? ` (${x.name})` : ''}`;
    default: {
      if (Array.isArray(x)) return `an Array of length ${x.length}`;
      const t = tag(x);
      const name = x.constructor && x.constructor.name;
      if (t === 'Blob' || t === 'File') return `a ${t} (use hashStream for a ${t})`;
      if (t === 'ReadableStream') return 'a ReadableStream (use hashStream for a stream)';
      if (typeof x[Symbol.asyncIterator] === 'function') {
        return 'an async iterable (use hashStream for a stream)';
      }
      return name && name !== 'Object' ? `a ${name}` : `an object (${t})`;
    }
  }
}

/** Whether `buffer` is an ArrayBuffer whose memory was transferred away (postMessage, transfer()). */
function isDetached(buffer) {
  if (buffer.byteLength !== 0 || tag(buffer) !== 'ArrayBuffer') return false;
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

function detachedError(where, data) {
  const what = tag(data) === 'ArrayBuffer' ? 'a detached ArrayBuffer' : `a ${tag(data)} over a detached ArrayBuffer`;
  return new TypeError(
    `sha1dc: ${where} is ${what} (its memory was transferred away, e.g. by postMessage); hash the data before transferring it`,
  );
}

/**
 * The bytes of `data` as a Uint8Array view (no copy), or the string itself;
 * throws a TypeError for anything else, naming `where` (the argument).
 */
function toInput(data, where) {
  if (typeof data === 'string') return data;
  if (ArrayBuffer.isView(data)) {
    let view;
    try {
      view = data instanceof Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    } catch (err) {
      // A DataView over a detached buffer throws on byteLength.
      if (isDetached(data.buffer)) throw detachedError(where, data);
      throw err;
    }
    // A typed array over a detached buffer reads as empty: never hash that silently.
    if (view.length === 0 && isDetached(data.buffer)) throw detachedError(where, data);
    return view;
  }
  const t = tag(data);
  if (t === 'ArrayBuffer' || t === 'SharedArrayBuffer') {
    if (isDetached(data)) throw detachedError(where, data);
    return new Uint8Array(data);
  }
  throw new TypeError(`sha1dc: ${where} must be ${ACCEPTED}; got ${describe(data)}`);
}

const OPTION_NAMES = ['safeHash', 'reducedRound', 'gitBlob', 'size'];
const STREAM_OPTION_NAMES = [...OPTION_NAMES, 'signal'];
// No size: each message of a batch has its own.
const MANY_OPTION_NAMES = ['safeHash', 'reducedRound', 'gitBlob'];

/**
 * The messages of sha1dcMany as an array: an Array as it is, another iterable
 * (a Set, a generator) copied; a TypeError for anything else.
 */
function toList(messages) {
  if (Array.isArray(messages)) return messages;
  const one = typeof messages === 'string' || ArrayBuffer.isView(messages) ||
    (messages !== null && typeof messages === 'object' && /^(Shared)?ArrayBuffer$/.test(tag(messages)));
  if (!one && messages !== null && typeof messages === 'object' && typeof messages[Symbol.iterator] === 'function') {
    return Array.from(messages);
  }
  throw new TypeError(
    `sha1dc: sha1dcMany() messages must be an array of inputs (each ${ACCEPTED}); got ${describe(messages)}${
      one ? ' (use sha1dc() for one message)' : ''
    }`,
  );
}

/**
 * Checks an options object; returns { flags, size, gitBlob, signal }. `where`
 * names the call, like "sha1dc()"; `names` are the options it takes.
 */
function parseOptions(options, where, names = OPTION_NAMES) {
  if (options === undefined || options === null) return { flags: SAFE_HASH, size: undefined, gitBlob: false, signal: undefined };
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`sha1dc: ${where} options must be an object; got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!names.includes(key)) {
      throw new TypeError(
        `sha1dc: unknown option ${JSON.stringify(key)} for ${where}; the options are ${names.join(', ')}`,
      );
    }
  }
  const flag = (name, dflt) => {
    const v = options[name];
    if (v === undefined) return dflt;
    if (typeof v !== 'boolean') {
      throw new TypeError(`sha1dc: option ${name} must be a boolean; got ${describe(v)}`);
    }
    return v;
  };
  const safeHash = flag('safeHash', true);
  const reducedRound = flag('reducedRound', false);
  const gitBlob = flag('gitBlob', false);
  const size = options.size;
  if (size !== undefined) {
    if (typeof size !== 'number') {
      throw new TypeError(`sha1dc: option size must be a non-negative safe integer; got ${describe(size)}`);
    }
    if (!(Number.isSafeInteger(size) && size >= 0)) {
      throw new RangeError(`sha1dc: option size must be a non-negative safe integer; got number ${size}`);
    }
  }
  const signal = options.signal;
  if (
    signal !== undefined &&
    (signal === null || typeof signal !== 'object' || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')
  ) {
    throw new TypeError(`sha1dc: option signal must be an AbortSignal; got ${describe(signal)}`);
  }
  const flags = (safeHash ? SAFE_HASH : 0) | (reducedRound ? REDUCED_ROUND : 0) | (gitBlob ? GIT_BLOB : 0);
  return { flags, size, gitBlob, signal };
}

/** What `digest(encoding)` accepts. */
const ENCODINGS = ['hex', 'base64', 'base64url', 'binary', 'bytes'];

/** Checks digest()'s argument before anything is spent. */
function checkEncoding(encoding) {
  if (encoding !== undefined && !ENCODINGS.includes(encoding)) {
    throw new TypeError(
      `sha1dc: digest() encoding must be ${ENCODINGS.map((e) => JSON.stringify(e)).join(', ')}, or nothing for the result object; got ${
        typeof encoding === 'string' ? JSON.stringify(encoding) : describe(encoding)
      }`,
    );
  }
}

function base64(bytes, url) {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  const b64 = btoa(bin);
  return url ? b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : b64;
}

/** The result in the form digest(encoding) asks for. */
function encodeResult(result, encoding) {
  switch (encoding) {
    case undefined:
      return result;
    case 'hex':
      return result.hex;
    case 'base64':
    case 'base64url':
      return base64(result.bytes, encoding === 'base64url');
    default: // 'binary', 'bytes'
      return result.bytes;
  }
}

/**
 * The prototype of every result: `${result}` and String(result) give the hex
 * output; JSON.stringify gives { hex, sha1, collision }.
 */
const RESULT_PROTO = {
  toString() {
    return this.hex;
  },
  toJSON() {
    return { hex: this.hex, sha1: this.sha1, collision: this.collision };
  },
};
Object.defineProperties(RESULT_PROTO, {
  toString: { enumerable: false },
  toJSON: { enumerable: false },
});

/** The error of a size given up front that the data did not match. */
function sizeError(want, got) {
  return new RangeError(`sha1dc: the size given (options.size) was ${want} bytes, but ${got} bytes were hashed`);
}

/**
 * Builds the public API.
 *
 * @param {object} raw the wasm-bindgen exports (RawHasher, hashBytes,
 *   hashString, hashMany, backendName, dvName) of a loaded or loading module.
 * @param {((input: unknown) => Promise<void>) | null} load loads the module
 *   from init()'s argument; null when it is loaded already (Node).
 * @param {((input: unknown) => void) | null} loadSync loads it synchronously.
 */
export function createApi(raw, load, loadSync) {
  let ready = load === null;
  let loading = null;
  let backendCache;
  const dvNames = new Map();

  function ensureReady(where) {
    if (!ready) {
      throw new Error(`sha1dc: ${where} was called before the WebAssembly module was loaded; await init() first`);
    }
  }

  /**
   * Loads the module once. In browsers and workers with no argument, the
   * .wasm file next to this module is fetched; an argument may give the
   * module as a URL, a path string, a Response, bytes or a
   * WebAssembly.Module (or a promise of one). In Node it resolves at once.
   */
  function init(input) {
    if (ready) return Promise.resolve();
    if (loading === null) {
      loading = load(input).then(
        () => {
          ready = true;
        },
        (err) => {
          loading = null;
          throw err;
        },
      );
    }
    return loading;
  }

  /** Loads the module synchronously from bytes or a WebAssembly.Module. */
  function initSync(module) {
    if (ready) return;
    if (loadSync === null) throw new Error('sha1dc: initSync is not available here');
    if (module === undefined) throw new TypeError('sha1dc: initSync needs the .wasm bytes or a WebAssembly.Module');
    loadSync(module);
    ready = true;
  }

  function dvName(index) {
    let name = dvNames.get(index);
    if (name === undefined) {
      name = raw.dvName(index);
      dvNames.set(index, name);
    }
    return name;
  }

  function hex(bytes, start) {
    let s = '';
    for (let i = start; i < start + 20; i++) s += HEX[bytes[i]];
    return s;
  }

  /** Turns the encoded result (20 or 72 bytes, see the bindings crate) into the result object. */
  function decode(bytes) {
    if (bytes.length === 20) {
      // No collision: the module sends the digest alone (see bindings/src/lib.rs).
      const out = hex(bytes, 0);
      const result = Object.create(RESULT_PROTO);
      result.hex = out;
      result.sha1 = out;
      result.bytes = bytes;
      result.collision = null;
      return result;
    }
    let collision = null;
    if (bytes[40] === 1) {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const block = Number(view.getBigUint64(48, true));
      collision = {
        // Bytes 64..72, where the module gives them: the offset in the data itself (for a git
        // blob, in the content after the "blob <size>\0" header, as sha1dcsum --git-blob reports).
        offset: bytes.length >= 72 ? Number(view.getBigUint64(64, true)) : block * 64,
        block,
        dv: dvName(bytes[41]),
        count: Number(view.getBigUint64(56, true)),
      };
    }
    const out = hex(bytes, 0);
    const result = Object.create(RESULT_PROTO);
    result.hex = out;
    // Without a collision the output is the plain SHA-1: one string serves.
    result.sha1 = collision === null ? out : hex(bytes, 20);
    result.bytes = bytes.slice(0, 20);
    result.collision = collision;
    return result;
  }

  /** Finishes a RawHasher (which is spent either way) after checking the size given. */
  function finish(h, size) {
    if (size !== undefined) {
      const got = h.length();
      if (got !== size) throw sizeError(size, got);
    }
    return decode(h.finish());
  }

  /** Feeds one input (already checked) to a RawHasher, in pieces. */
  function feed(h, input) {
    if (typeof input === 'string') {
      if (input.length <= STRING_PIECE) {
        h.updateString(input);
        return;
      }
      input = new TextEncoder().encode(input);
    }
    for (let at = 0; at < input.length; at += PIECE) {
      h.update(input.subarray(at, at + PIECE));
    }
  }

  /**
   * Hashes `data` in one call.
   */
  function sha1dc(data, options) {
    ensureReady('sha1dc()');
    const input = toInput(data, 'data');
    const { flags, size } = parseOptions(options, 'sha1dc()');
    return hashOne(input, flags, size);
  }

  /** sha1dc() once the arguments are checked: `input` from toInput. */
  function hashOne(input, flags, size) {
    if (size === undefined) {
      if (typeof input === 'string' && input.length <= STRING_PIECE) return decode(raw.hashString(input, flags));
      if (typeof input !== 'string' && input.length <= PIECE) return decode(raw.hashBytes(input, flags));
    }
    // Large (or size-checked) input: a streaming hasher in pieces.
    let bytes = input;
    if (typeof bytes === 'string') bytes = new TextEncoder().encode(bytes);
    const h = new raw.RawHasher(flags, size === undefined ? bytes.length : size);
    try {
      feed(h, bytes);
      return finish(h, size);
    } finally {
      h.free();
    }
  }

  /** The buffer sha1dcMany assembles batches in, kept from call to call (at most BATCH_BYTES). */
  let batchBuffer = null;

  /**
   * Hashes many messages, several at a time (one per SIMD lane), crossing
   * into wasm once per batch of up to BATCH_BYTES: results in input order,
   * each what sha1dc(message, options) gives.
   */
  function sha1dcMany(messages, options) {
    ensureReady('sha1dcMany()');
    const list = toList(messages);
    const { flags } = parseOptions(options, 'sha1dcMany()', MANY_OPTION_NAMES);
    // Every message is checked before any is hashed.
    const inputs = new Array(list.length);
    for (let i = 0; i < list.length; i++) inputs[i] = toInput(list[i], `sha1dcMany() messages[${i}]`);
    const results = new Array(inputs.length);
    let encoder = null;
    /** The batch being assembled: message indices, their bytes, their total size. */
    let batch = [];
    let views = [];
    let bytes = 0;
    const flush = () => {
      if (batch.length === 0) return;
      if (batchBuffer === null || batchBuffer.length < bytes) {
        batchBuffer = null; // the old one can go before the new one is allocated
        batchBuffer = new Uint8Array(Math.max(bytes, Math.min(BATCH_BYTES, 64 * 1024)));
      }
      const data = batchBuffer.subarray(0, bytes);
      const lengths = new Uint32Array(batch.length);
      let at = 0;
      for (let k = 0; k < views.length; k++) {
        data.set(views[k], at);
        lengths[k] = views[k].length;
        at += views[k].length;
      }
      const out = raw.hashMany(data, lengths, flags);
      for (let k = 0; k < batch.length; k++) {
        results[batch[k]] = decode(out.subarray(k * RESULT_LEN, (k + 1) * RESULT_LEN));
      }
      batch = [];
      views = [];
      bytes = 0;
    };
    for (let i = 0; i < inputs.length; i++) {
      let input = inputs[i];
      if (typeof input === 'string') {
        // Longer than BATCH_BYTES in UTF-16 units is longer in UTF-8 too: hashed alone.
        if (input.length > BATCH_BYTES) {
          results[i] = hashOne(input, flags, undefined);
          continue;
        }
        if (encoder === null) encoder = new TextEncoder();
        input = encoder.encode(input);
      }
      if (input.length > BATCH_BYTES) {
        results[i] = hashOne(input, flags, undefined);
        continue;
      }
      if (bytes + input.length > BATCH_BYTES || batch.length === BATCH_MESSAGES) flush();
      batch.push(i);
      views.push(input);
      bytes += input.length;
    }
    flush();
    return results;
  }

  /** The streaming hasher createHasher returns. */
  class Hasher {
    #raw;
    #size;
    #bytes = 0;
    /** Why the hasher is spent: '' while live, 'digest' or 'free'. */
    #ended = '';

    constructor(h, size) {
      this.#raw = h;
      this.#size = size;
    }

    #spent(method) {
      return new TypeError(
        this.#ended === 'free'
          ? `sha1dc: ${method} after free(): this hasher was freed; create a new one with createHasher()`
          : `sha1dc: ${method} after digest(): this hasher is finished; create a new one with createHasher()`,
      );
    }

    /** Adds `chunk` to the message; returns this hasher. */
    update(chunk) {
      if (this.#raw === null) throw this.#spent('update()');
      const input = toInput(chunk, 'chunk');
      feed(this.#raw, input);
      return this;
    }

    /** Bytes added so far. */
    get bytesHashed() {
      return this.#raw === null ? this.#bytes : this.#raw.length();
    }

    /**
     * Finishes the message; the hasher is spent. With no argument, the
     * result object; 'hex' or 'base64'/'base64url', a string; 'bytes' or
     * 'binary', the 20 bytes.
     */
    digest(encoding) {
      checkEncoding(encoding);
      const h = this.#raw;
      if (h === null) throw this.#spent('digest()');
      this.#bytes = h.length();
      this.#raw = null;
      this.#ended = 'digest';
      try {
        return encodeResult(finish(h, this.#size), encoding);
      } finally {
        h.free();
      }
    }

    /** Frees the hasher without a result (also done on garbage collection). */
    free() {
      if (this.#raw !== null) {
        this.#bytes = this.#raw.length();
        this.#raw.free();
        this.#raw = null;
        this.#ended = 'free';
      }
    }
  }

  function createHasher(options) {
    ensureReady('createHasher()');
    const { flags, size, gitBlob } = parseOptions(options, 'createHasher()');
    if (gitBlob && size === undefined) {
      throw new TypeError('sha1dc: createHasher({ gitBlob: true }) needs options.size, the total size in bytes');
    }
    return new Hasher(new raw.RawHasher(flags, size), size);
  }

  /**
   * The chunks of a source, one next() at a time: { next(), stop(reason) }.
   * stop() ends a source we leave early (a bad chunk, an abort, a throwing
   * onProgress): a ReadableStream is cancelled, an iterator returned, a Node
   * stream destroyed; it is never awaited, so a stalled source cannot hold
   * the caller.
   */
  function openSource(source) {
    if (source && typeof source.getReader === 'function') {
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

  /**
   * Hashes a stream: a ReadableStream, a Blob or File, or an async iterable
   * of chunks (Node streams), in constant memory; `options.signal` aborts it.
   */
  async function hashStream(source, options, onProgress) {
    ensureReady('hashStream()');
    if (typeof options === 'function' && onProgress === undefined) {
      onProgress = options;
      options = undefined;
    }
    if (onProgress !== undefined && onProgress !== null && typeof onProgress !== 'function') {
      throw new TypeError(`sha1dc: hashStream onProgress must be a function; got ${describe(onProgress)}`);
    }
    let { flags, size, gitBlob, signal } = parseOptions(options, 'hashStream()', STREAM_OPTION_NAMES);
    const t = source === null || source === undefined ? '' : tag(source);
    const isBlob = (t === 'Blob' || t === 'File') && typeof source.stream === 'function';
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
    if (signal && signal.aborted) throw signal.reason;
    const chunks = openSource(isBlob ? source.stream() : source);
    let aborted = null;
    let onAbort = null;
    if (signal) {
      aborted = new Promise((_, reject) => {
        onAbort = () => reject(signal.reason);
      });
      aborted.catch(() => {});
      signal.addEventListener('abort', onAbort, { once: true });
    }
    const h = new raw.RawHasher(flags, size);
    let open = true; // the source may need stopping
    try {
      let done = 0;
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
          break;
        }
        const input = toInput(step.value, 'each chunk of the stream');
        feed(h, input);
        done = typeof input === 'string' ? h.length() : done + input.length;
        if (onProgress) onProgress(done);
        if (signal && signal.aborted) throw signal.reason;
      }
      return finish(h, size);
    } catch (err) {
      if (open) chunks.stop(signal && signal.aborted ? signal.reason : err);
      throw err;
    } finally {
      h.free();
      chunks.release();
      if (signal) signal.removeEventListener('abort', onAbort);
    }
  }

  /** The name of the engine that runs, like "simd128". */
  function backend() {
    ensureReady('backend()');
    if (backendCache === undefined) backendCache = raw.backendName();
    return backendCache;
  }

  return { init, initSync, sha1dc, sha1dcMany, createHasher, hashStream, backend };
}
