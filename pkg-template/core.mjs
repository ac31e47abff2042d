// The JavaScript API of sha1dc-wasm over the raw wasm-bindgen exports.
//
// One source for every entry point: index.mjs (browsers, workers, bundlers,
// other runtimes) and node.cjs / node.mjs (Node) call createApi with their
// own glue. scripts/build-pkg.sh derives core.cjs from this file for the
// CommonJS entry, so it keeps a single `export` (createApi) and imports
// nothing.

/** Option bits understood by the wasm side (src/wasm.rs). */
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

/**
 * The bytes of `data` as a Uint8Array view (no copy), or the string itself;
 * throws a TypeError for anything else.
 */
function toInput(data, where) {
  if (typeof data === 'string') return data;
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const t = tag(data);
  if (t === 'ArrayBuffer' || t === 'SharedArrayBuffer') return new Uint8Array(data);
  throw new TypeError(`sha1dc: ${where} must be ${ACCEPTED}; got ${describe(data)}`);
}

const OPTION_NAMES = ['safeHash', 'reducedRound', 'gitBlob', 'size'];

/** Checks an options object; returns { flags, size }. */
function parseOptions(options, where) {
  if (options === undefined || options === null) return { flags: SAFE_HASH, size: undefined, gitBlob: false };
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`sha1dc: ${where} options must be an object; got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) {
      throw new TypeError(
        `sha1dc: unknown option ${JSON.stringify(key)} for ${where}; the options are ${OPTION_NAMES.join(', ')}`,
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
  if (size !== undefined && !(Number.isSafeInteger(size) && size >= 0)) {
    throw new TypeError(`sha1dc: option size must be a non-negative safe integer; got ${describe(size)}`);
  }
  const flags = (safeHash ? SAFE_HASH : 0) | (reducedRound ? REDUCED_ROUND : 0) | (gitBlob ? GIT_BLOB : 0);
  return { flags, size, gitBlob };
}

/**
 * Builds the public API.
 *
 * @param {object} raw the wasm-bindgen exports (RawHasher, hashBytes,
 *   hashString, backendName, dvName) of a loaded or loading module.
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

  /** Turns the 64-byte encoded result (see src/wasm.rs) into the result object. */
  function decode(bytes) {
    let collision = null;
    if (bytes[40] === 1) {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const block = Number(view.getBigUint64(48, true));
      collision = {
        offset: block * 64,
        block,
        dv: dvName(bytes[41]),
        count: Number(view.getBigUint64(56, true)),
      };
    }
    const out = hex(bytes, 0);
    // Without a collision the output is the plain SHA-1: one string serves.
    return { hex: out, sha1: collision === null ? out : hex(bytes, 20), collision };
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
      return decode(h.finish());
    } finally {
      h.free();
    }
  }

  /** The streaming hasher createHasher returns. */
  class Hasher {
    #raw;
    #bytes = 0;

    constructor(h) {
      this.#raw = h;
    }

    /** Adds `chunk` to the message; returns this hasher. */
    update(chunk) {
      if (this.#raw === null) {
        throw new Error('sha1dc: update() after digest(): this hasher is finished; create a new one with createHasher()');
      }
      const input = toInput(chunk, 'chunk');
      feed(this.#raw, input);
      return this;
    }

    /** Bytes added so far. */
    get bytesHashed() {
      return this.#raw === null ? this.#bytes : this.#raw.length();
    }

    /** Finishes the message and returns the result; the hasher is spent. */
    digest() {
      const h = this.#raw;
      if (h === null) {
        throw new Error('sha1dc: digest() was already called: this hasher is finished; create a new one with createHasher()');
      }
      this.#bytes = h.length();
      this.#raw = null;
      try {
        return decode(h.finish());
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
      }
    }
  }

  function createHasher(options) {
    ensureReady('createHasher()');
    const { flags, size, gitBlob } = parseOptions(options, 'createHasher()');
    if (gitBlob && size === undefined) {
      throw new TypeError('sha1dc: createHasher({ gitBlob: true }) needs options.size, the total size in bytes');
    }
    return new Hasher(new raw.RawHasher(flags, size));
  }

  /** Yields the chunks of a ReadableStream, releasing it on early exit. */
  async function* readStream(stream) {
    const reader = stream.getReader();
    let done = false;
    try {
      for (;;) {
        const r = await reader.read();
        if (r.done) {
          done = true;
          return;
        }
        yield r.value;
      }
    } finally {
      if (!done) {
        // Stopped by an error of ours (a bad chunk, a throwing onProgress):
        // cancel the source; an error of the stream itself cancels nothing.
        await reader.cancel().catch(() => {});
      }
      reader.releaseLock();
    }
  }

  /**
   * Hashes a stream: a ReadableStream, a Blob or File, or an async iterable
   * of chunks (Node streams), in constant memory.
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
    let { flags, size, gitBlob } = parseOptions(options, 'hashStream()');
    let chunks;
    const t = source === null || source === undefined ? '' : tag(source);
    if ((t === 'Blob' || t === 'File') && typeof source.stream === 'function') {
      if (size === undefined) size = source.size;
      chunks = readStream(source.stream());
    } else if (source && typeof source.getReader === 'function') {
      chunks = readStream(source);
    } else if (source && typeof source[Symbol.asyncIterator] === 'function') {
      chunks = source;
    } else {
      throw new TypeError(
        `sha1dc: hashStream source must be a ReadableStream, a Blob or File, or an async iterable of chunks; got ${describe(source)}${
          typeof source === 'string' || ArrayBuffer.isView(source) ? ' (use sha1dc() for data in memory)' : ''
        }`,
      );
    }
    if (gitBlob && size === undefined) {
      throw new TypeError('sha1dc: hashStream(source, { gitBlob: true }) needs options.size unless the source is a Blob');
    }
    const h = new raw.RawHasher(flags, size);
    try {
      let done = 0;
      for await (const chunk of chunks) {
        const input = toInput(chunk, 'each chunk of the stream');
        feed(h, input);
        done = typeof input === 'string' ? h.length() : done + input.length;
        if (onProgress) onProgress(done);
      }
      return decode(h.finish());
    } finally {
      h.free();
    }
  }

  /** The name of the engine that runs, like "simd128". */
  function backend() {
    ensureReady('backend()');
    if (backendCache === undefined) backendCache = raw.backendName();
    return backendCache;
  }

  return { init, initSync, sha1dc, createHasher, hashStream, backend };
}
