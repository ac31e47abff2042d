// The JavaScript API of sha1dc-wasm over the raw wasm-bindgen exports: one source for every
// entry point. index.mjs, inline.mjs and deno.mjs (browsers, workers, bundlers, other runtimes)
// call createWebApi, and node.cjs / node.mjs (Node) and workerd.mjs createApi, with their own
// glue. The modules beside it do one thing each: input.mjs checks arguments, result.mjs decodes
// results, calls.mjs crosses into wasm for one call, hasher.mjs is the streaming hasher, filter.mjs its filter half, many.mjs the batches,
// stream.mjs hashStream, workers.mjs its filter worker, checksums.mjs the checksum lines.
// assemble.mjs derives a CommonJS twin (.cjs) of each for node.cjs.
import { parseOptions, toInput } from './input.mjs';
import { createDecoder } from './result.mjs';
import { createCalls } from './calls.mjs';
import { Hasher, PIECE, STRING_PIECE, feed, finish } from './hasher.mjs';
import { Filter } from './filter.mjs';
import { createMany } from './many.mjs';
import { hashStream } from './stream.mjs';
import { createFilterWorkers } from './workers.mjs';
import { createChecksumLines } from './checksums.mjs';

/**
 * The API over wasm-bindgen's web glue (index.mjs, inline.mjs, deno.mjs): init(input) hands the
 * glue's loader `input`, or `defaultInput()` when there is none. `startWorker` as for createApi.
 */
export function createWebApi(glue, defaultInput, startWorker) {
  const moduleArg = (input) => {
    if (input === undefined) return undefined;
    // Already in wasm-bindgen's own form.
    if (input !== null && Object.getPrototypeOf(input) === Object.prototype && 'module_or_path' in input) return input;
    return { module_or_path: input };
  };
  return createApi(
    glue,
    async (input) => {
      await glue.default(moduleArg(await readNodeFile(input === undefined ? defaultInput() : input)));
    },
    (module) => {
      glue.initSync({ module });
    },
    startWorker,
  );
}

/** Node itself (not Deno or Bun, which read files with fetch). */
export function isNode() {
  const versions = globalThis.process?.versions;
  return typeof versions?.node === 'string' && versions.deno === undefined && versions.bun === undefined;
}

/**
 * In Node, whose fetch reads no file: URL, a file: URL or a path given to init() is read with its
 * fs (found through process.getBuiltinModule: no import for a browser bundler to resolve);
 * anything else, and everywhere else, `input` as it is.
 */
async function readNodeFile(input) {
  if (!isNode()) return input;
  // A file: URL given as a string is a URL to fs, not a relative path.
  if (typeof input === 'string' && /^file:/i.test(input)) input = new URL(input);
  const isPath = typeof input === 'string' && !/^(https?|data|blob):/i.test(input);
  if (!isPath && !(input instanceof URL && input.protocol === 'file:')) return input;
  const fs = globalThis.process.getBuiltinModule?.('node:fs/promises');
  if (fs === undefined) {
    throw new TypeError(`sha1dc: init() cannot read ${String(input)} in this Node (before 20.16): import 'sha1dc-wasm', which loads on import, or pass init() the bytes`);
  }
  return fs.readFile(input);
}

/**
 * Builds the public API.
 *
 * @param {object} raw the wasm-bindgen exports (RawHasher, RawFilter, RawCalls, wasmMemory,
 *   backendName, dvName, parseChecksumLine, formatChecksumLine) of a loaded or loading module.
 * @param {((input: unknown) => Promise<void>) | null} load loads the module
 *   from init()'s argument; null when it is loaded already (Node).
 * @param {((input: unknown) => void) | null} loadSync loads it synchronously.
 * @param {(() => object) | null} startWorker starts a worker (a Web Worker or a Node
 *   worker_threads Worker) on the package's filter worker script; null where this entry has none.
 */
export function createApi(raw, load, loadSync, startWorker = null) {
  const loader = createLoader(load, loadSync);
  const { ensureReady } = loader;
  const decoder = createDecoder((index) => raw.dvName(index));
  const { decode } = decoder;
  /** The one-call crossing (calls.mjs), made at the first call: the module is loaded by then. */
  let oneCall = null;
  const calls = () => (oneCall ??= createCalls(raw, decoder));

  /** sha1dc() once the arguments are checked: `input` from toInput. */
  function hashOne(input, flags, size) {
    if (size === undefined) {
      if (typeof input === 'string' && input.length <= STRING_PIECE) return calls().hashString(input, flags);
      if (typeof input !== 'string' && input.length <= PIECE) return calls().hashBytes(input, flags);
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

  /** The options of createHasher and createFilter (`name`), checked: a git blob needs its size up front. */
  function streamingOptions(options, name) {
    ensureReady(`${name}()`);
    const parsed = parseOptions(options, `${name}()`);
    if (parsed.gitBlob && parsed.size === undefined) {
      throw new TypeError(`sha1dc: ${name}({ gitBlob: true }) needs options.size, the total size in bytes`);
    }
    return parsed;
  }

  /** What a Hasher needs of the module's exports. */
  const wasm = { RawHasher: raw.RawHasher, hashBytes: (data, flags) => calls().hashBytes(data, flags), decode };
  const many = createMany((views, bytes, flags, indices, results) => calls().hashMany(views, bytes, flags, indices, results), hashOne);
  const streamWasm = { RawHasher: raw.RawHasher, decode, filterWorker: createFilterWorkers(() => raw.compiledModule(), startWorker) };
  const checksumLines = createChecksumLines(raw, ensureReady);
  let backendName;

  return {
    init: loader.init,
    initSync: loader.initSync,
    ...checksumLines,

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
      const { flags, size } = streamingOptions(options, 'createHasher');
      return new Hasher(wasm, flags, size);
    },

    /** The filter half of a hasher with the same options, to run in another worker. */
    createFilter(options) {
      const { flags, size } = streamingOptions(options, 'createFilter');
      return new Filter(raw.RawFilter, flags, size);
    },

    async hashStream(source, options, onProgress) {
      ensureReady('hashStream()');
      return hashStream(streamWasm, source, options, onProgress);
    },

    /** The name of the backend that runs, like "simd128". */
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
