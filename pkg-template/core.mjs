// The JavaScript API of sha1dc-wasm over the raw wasm-bindgen exports: one source for every
// entry point. index.mjs and inline.mjs (browsers, workers, bundlers, other runtimes) and
// node.cjs / node.mjs (Node) call createApi with their own glue. The modules beside it do one
// thing each: input.mjs checks arguments, result.mjs decodes results, hasher.mjs is the
// streaming hasher, many.mjs the batches, stream.mjs hashStream. assemble.mjs derives a
// CommonJS twin (.cjs) of each for node.cjs.
import { parseOptions, toInput } from './input.mjs';
import { createDecoder } from './result.mjs';
import { Hasher, PIECE, STRING_PIECE, feed, finish } from './hasher.mjs';
import { createMany } from './many.mjs';
import { hashStream } from './stream.mjs';

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
  const loader = createLoader(load, loadSync);
  const { ensureReady } = loader;
  const decode = createDecoder((index) => raw.dvName(index));

  /** sha1dc() once the arguments are checked: `input` from toInput. */
  function hashOne(input, flags, size) {
    if (size === undefined) {
      if (typeof input === 'string' && input.length <= STRING_PIECE) return decode(raw.hashString(input, flags));
      if (typeof input !== 'string' && input.length <= PIECE) return decode(raw.hashBytes(input, flags));
    }
    // Large (or size-checked) input: a streaming hasher in pieces.
    const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
    const h = new raw.RawHasher(flags, size === undefined ? bytes.length : size);
    try {
      feed(h, bytes);
      return finish(h, size, decode);
    } finally {
      h.free();
    }
  }

  /** What a Hasher needs of the module. */
  const engine = { RawHasher: raw.RawHasher, hashBytes: (data, flags) => raw.hashBytes(data, flags), decode };
  const many = createMany((data, lengths, flags) => raw.hashMany(data, lengths, flags), decode, hashOne);
  let backendName;

  return {
    init: loader.init,
    initSync: loader.initSync,

    /** Hashes `data` in one call. */
    sha1dc(data, options) {
      ensureReady('sha1dc()');
      const input = toInput(data, 'data');
      const { flags, size } = parseOptions(options, 'sha1dc()');
      return hashOne(input, flags, size);
    },

    /** Hashes many messages, several at a time: results in input order, each what sha1dc() gives. */
    sha1dcMany(messages, options) {
      ensureReady('sha1dcMany()');
      return many(messages, options);
    },

    createHasher(options) {
      ensureReady('createHasher()');
      const { flags, size, gitBlob } = parseOptions(options, 'createHasher()');
      if (gitBlob && size === undefined) {
        throw new TypeError('sha1dc: createHasher({ gitBlob: true }) needs options.size, the total size in bytes');
      }
      return new Hasher(engine, flags, size);
    },

    async hashStream(source, options, onProgress) {
      ensureReady('hashStream()');
      return hashStream({ RawHasher: raw.RawHasher, decode }, source, options, onProgress);
    },

    /** The name of the engine that runs, like "simd128". */
    backend() {
      ensureReady('backend()');
      if (backendName === undefined) backendName = raw.backendName();
      return backendName;
    },
  };
}

/**
 * init(), initSync() and the check that the module is loaded. `load(input)` loads the module
 * from init()'s argument (null when it is loaded already, in Node); `loadSync(module)` loads it
 * synchronously.
 */
function createLoader(load, loadSync) {
  let ready = load === null;
  let loading = null;
  return {
    ensureReady(where) {
      if (!ready) {
        throw new Error(`sha1dc: ${where} was called before the WebAssembly module was loaded; await init() first`);
      }
    },

    /**
     * Loads the module once. In browsers and workers with no argument, the
     * .wasm file next to this module is fetched; an argument may give the
     * module as a URL, a path string, a Response, bytes or a
     * WebAssembly.Module (or a promise of one). In Node it resolves at once.
     */
    init(input) {
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
    },

    /** Loads the module synchronously from bytes or a WebAssembly.Module. */
    initSync(module) {
      if (ready) return;
      if (loadSync === null) throw new Error('sha1dc: initSync is not available here');
      if (module === undefined) throw new TypeError('sha1dc: initSync needs the .wasm bytes or a WebAssembly.Module');
      loadSync(module);
      ready = true;
    },
  };
}
