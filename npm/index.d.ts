/**
 * SHA-1 with collision detection (the Stevens-Shumow counter-cryptanalysis
 * that git uses), compiled to WebAssembly with SIMD.
 *
 * Every message block is checked for being half of a SHA-1 collision built on
 * any of the 32 known disturbance vectors. For a message that is part of such
 * a collision (SHAttered, SHA-mbles, or a new one built the same way) the
 * result reports it, and `hex` becomes a "safe hash" that differs for the two
 * colliding messages; `sha1` stays the true SHA-1.
 *
 * @example
 * ```js
 * import { init, sha1dc } from 'sha1dc-wasm';
 * await init(); // needed in browsers and workers; resolves at once in Node
 * sha1dc('abc').hex; // 'a9993e364706816aba3e25717850c26c9cd0d89d'
 * ```
 *
 * @packageDocumentation
 */

/*
 * The declarations need no DOM library: the web types they mention (Blob,
 * ReadableStream, Response, AbortSignal, WebAssembly.Module...) are taken from
 * whatever the project declares (lib "dom", @types/node, Deno's), and are
 * `never` where it declares none, so a Node-only project (`lib: ["es2022"]`,
 * `types: ["node"]`) type-checks too. They are read from each global's
 * `prototype`, not from its constructor: Deno declares `new (): never` for
 * classes that scripts cannot construct, like AbortSignal.
 */
type GlobalInstance<K extends string> = typeof globalThis extends { [P in K]: { prototype: infer T } } ? T : never;
type WasmModule = typeof globalThis extends { WebAssembly: { Module: { prototype: infer T } } } ? T : never;
type BytesSource = ArrayBuffer | SharedArrayBuffer | ArrayBufferView;

/**
 * Data to hash: bytes, or a string (hashed as its UTF-8 encoding; a lone
 * surrogate is encoded as U+FFFD). A Node `Buffer` is a `Uint8Array`; a
 * `DataView` or any other typed array is hashed as the bytes it views.
 */
export type Input = Uint8Array | ArrayBuffer | SharedArrayBuffer | ArrayBufferView | string;

/** Options shared by every hashing function. */
export interface Options {
  /**
   * When a collision is detected, output the safe hash (the flagged block is
   * compressed three times in all), so that the two messages of a collision
   * get different outputs. Default `true`. With `false`, `hex` is the plain
   * SHA-1, and the collision is still reported.
   */
  safeHash?: boolean;
  /**
   * Also flag blocks whose recompression collides in the input chaining
   * value, which catches collisions of reduced-round SHA-1. Default `false`.
   */
  reducedRound?: boolean;
  /**
   * Hash the data as a git blob object, `"blob <size>\0"` followed by the
   * data, as `git hash-object` does. Default `false`. With
   * {@link createHasher} and {@link hashStream} the header needs the size
   * up front: give {@link Options.size} (a `Blob` or `File` source gives its
   * own).
   */
  gitBlob?: boolean;
  /**
   * The message size in bytes. Required for `gitBlob` with
   * {@link createHasher} and with {@link hashStream} of a non-`Blob` source;
   * when given, {@link Hasher.digest} throws an `Error` if a different number
   * of bytes was hashed (a `RangeError`).
   */
  size?: number;
}

/**
 * Options of {@link sha1dcMany}: those of {@link sha1dc} but `size` (each
 * message has its own).
 */
export type ManyOptions = Omit<Options, 'size'>;

/** Options of {@link hashStream}: those of every function, a signal, a worker. */
export interface StreamOptions extends Options {
  /**
   * Aborts the hashing: the promise rejects with `signal.reason`, the source
   * is cancelled (a `ReadableStream`), returned (an iterator) or destroyed (a
   * Node stream), and the hasher and the filter worker, if any, are freed.
   */
  signal?: GlobalInstance<'AbortSignal'>;
  /**
   * Whether the filter half of collision detection runs in a second worker,
   * ahead of the hashing (which then runs plain SHA-1 rounds for most
   * blocks): faster where a second core is free; the result is the same.
   *
   * - `'auto'` (the default): for a stream of 16 MiB or more whose size is
   *   known (a `Blob` or `File`, or {@link Options.size}), where the entry
   *   point can start its own worker (Node, browsers and Deno unbundled,
   *   webpack 5 and Vite builds); otherwise, or if the worker fails to
   *   start, on this thread alone.
   * - `true`: always, with the entry point's own worker; the promise rejects
   *   if it has none or the worker fails to start.
   * - `false`: never.
   * - a function that starts a worker on the package's filter worker module
   *   (`sha1dc-wasm/filter-worker`) and returns it (a `Worker`, or a Node
   *   `worker_threads` `Worker`): always, on that worker. The way for bundles
   *   whose bundler does not bundle the package's own worker (esbuild).
   *
   * The worker is ended when the hashing ends, however it ends; if it fails
   * part way, the promise rejects.
   */
  worker?: boolean | 'auto' | (() => WorkerLike);
}

/**
 * A started worker, as {@link StreamOptions.worker} returns it: a Web Worker
 * (browsers, Deno, Bun) or a Node `worker_threads` `Worker`.
 */
export type WorkerLike =
  | {
      postMessage(message: unknown, transfer: unknown[]): void;
      addEventListener(type: string, listener: (event: any) => void): void;
      terminate(): unknown;
    }
  | {
      postMessage(message: unknown, transfer: unknown[]): void;
      on(event: string, listener: (...args: any[]) => void): unknown;
      terminate(): unknown;
    };

/** Where a collision was detected. */
export interface Collision {
  /**
   * Byte offset of the first flagged 64-byte block in the data (`block * 64`;
   * with `gitBlob`, counted in the data after the git header).
   */
  offset: number;
  /** Index of the first flagged 64-byte block (0 is the first block). */
  block: number;
  /**
   * The disturbance vector whose check matched in that block, named as in
   * the literature, like `"II(52,0)"` (the one SHAttered and SHA-mbles use).
   */
  dv: string;
  /** How many blocks were flagged in all (1 for each public collision). */
  count: number;
}

/**
 * What hashing a message found. `String(result)` and `${result}` give `hex`;
 * `JSON.stringify(result)` gives `{ hex, sha1, collision }`.
 */
export interface Result {
  /**
   * The output, 40 lowercase hex digits: the safe hash when a collision was
   * detected (unless `safeHash: false`), otherwise the plain SHA-1.
   */
  hex: string;
  /** The output's 20 bytes (the bytes `hex` spells). */
  bytes: Uint8Array;
  /** The plain SHA-1 of the message, 40 lowercase hex digits, always. */
  sha1: string;
  /** `null`, or where a collision was detected. */
  collision: Collision | null;
  /** `hex`. */
  toString(): string;
  /** `{ hex, sha1, collision }`. */
  toJSON(): { hex: string; sha1: string; collision: Collision | null };
}

/**
 * What {@link Hasher.digest} returns for an encoding: the `hex` output as
 * `node:crypto`'s `digest(encoding)` gives a digest, 40 hex digits (`"hex"`),
 * base64 (`"base64"`, `"base64url"`) or one character per byte (`"binary"`,
 * `"latin1"`); or its 20 bytes (`"bytes"`).
 */
export type Encoding = 'hex' | 'base64' | 'base64url' | 'binary' | 'latin1' | 'bytes';

/**
 * A streaming hasher from {@link createHasher}. Synchronous; chunk sizes never
 * change the result.
 */
export interface Hasher {
  /**
   * Adds `chunk` to the message and returns this hasher.
   * @throws {TypeError} when `chunk` is not an {@link Input} (or is over a
   *   detached `ArrayBuffer`), and after {@link Hasher.digest} or
   *   {@link Hasher.free}.
   */
  update(chunk: Input): this;
  /**
   * Finishes the message and returns the result. The hasher is spent: a
   * later `update` or `digest` throws a `TypeError`. With an encoding, the
   * output alone as `node:crypto` hashes give it: `digest('hex')` is
   * `result.hex` (the safe hash on a collision: call `digest()` to learn of
   * one), `digest('base64')` base64, `digest('binary')` a latin1 string;
   * `digest('bytes')` its 20 bytes.
   * @throws {RangeError} when a `size` was given and a different number of
   *   bytes was hashed.
   * @throws {TypeError} for an unknown encoding (the hasher stays usable), or
   *   when called after `digest` or `free`.
   */
  digest(): Result;
  digest(encoding: 'hex' | 'base64' | 'base64url' | 'binary' | 'latin1'): string;
  digest(encoding: 'bytes'): Uint8Array;
  digest(encoding: Encoding): string | Uint8Array;
  /**
   * Adds `chunk` to the message with the candidate masks a {@link Filter}
   * gave for the same chunk ({@link createFilter} with the same options, fed
   * the same chunks in the same order, possibly in another worker) and
   * returns this hasher: blocks without a candidate are compressed with
   * plain SHA-1 rounds. The result is that of {@link Hasher.update}.
   * @throws {RangeError} when `masks` is not one mask per block the chunk
   *   completes; nothing is hashed then.
   * @throws {TypeError} when `chunk` is not an {@link Input} or `masks` not a
   *   `Uint32Array`, and after {@link Hasher.digest} or {@link Hasher.free}.
   */
  updateWithMasks(chunk: Input, masks: Uint32Array): this;
  /** Releases the hasher without a result (garbage collection does it too). */
  free(): void;
  /** Bytes added so far (not counting a git blob header). */
  readonly bytesHashed: number;
}

/**
 * The filter half of collision detection, from {@link createFilter}: it
 * reads only the message, never the hash state, so it can run ahead in
 * another worker. Chunks may have any length; it carries the start of a
 * block a chunk leaves unfinished into the next.
 */
export interface Filter {
  /**
   * The candidate masks of the blocks `chunk` completes, in order, one
   * 32-bit mask per 64-byte block (bit i: disturbance vector i is a
   * candidate; 0 for most blocks), for {@link Hasher.updateWithMasks} with
   * the same chunk. A `Uint32Array` of its own, which may be transferred.
   * @throws {TypeError} when `chunk` is not an {@link Input}, and after
   *   {@link Filter.free}.
   */
  filter(chunk: Input): Uint32Array;
  /** Releases the filter (garbage collection does it too). */
  free(): void;
  /** Bytes filtered so far. */
  readonly bytesFiltered: number;
}

/** A source for {@link hashStream}. */
export type StreamSource =
  | GlobalInstance<'ReadableStream'>
  | GlobalInstance<'Blob'>
  | AsyncIterable<Input>;

/**
 * Loads the WebAssembly module; call it (once is enough, later calls return
 * the same promise) before anything else in browsers and workers.
 *
 * With no argument it fetches `sha1dc_wasm_bg.wasm` next to the package's
 * JavaScript (`new URL(..., import.meta.url)`, which bundlers understand).
 * Give the module yourself where fetching does not fit: a URL or path, a
 * `Response` (or a promise of one), the bytes, or a compiled
 * `WebAssembly.Module` (edge runtimes that import `.wasm` files).
 *
 * In Node the module is loaded on import; `init()` resolves at once.
 */
export function init(
  input?:
    | string
    | GlobalInstance<'URL'>
    | GlobalInstance<'Request'>
    | GlobalInstance<'Response'>
    | BytesSource
    | WasmModule
    | Promise<GlobalInstance<'Response'> | BytesSource | WasmModule>,
): Promise<void>;

/**
 * Loads the WebAssembly module synchronously from its bytes or a compiled
 * `WebAssembly.Module` (not needed in Node, where it is a no-op).
 */
export function initSync(module: BytesSource | WasmModule): void;

/**
 * Hashes `data` in one call.
 *
 * @example
 * ```js
 * const r = sha1dc(await file.arrayBuffer());
 * if (r.collision) console.warn(`collision block at byte ${r.collision.offset} (${r.collision.dv})`);
 * ```
 * @throws {TypeError} when `data` is not an {@link Input} or an option has
 *   the wrong type.
 * @throws {Error} before {@link init} has resolved (browsers, workers).
 */
export function sha1dc(data: Input, options?: Options): Result;

/**
 * Hashes many messages in one call and returns their results in the same
 * order: `results[i]` is exactly what `sha1dc(messages[i], options)` returns,
 * collisions included. An empty batch gives `[]`.
 *
 * Several messages are hashed at a time, one per lane of a WebAssembly SIMD
 * vector, and the batch crosses into WebAssembly once (in parts of up to
 * 8 MiB, so the module's memory stays bounded; a message larger than that is
 * hashed alone). Worth it for many small messages (a folder of files, git
 * objects): the cost of each call into WebAssembly is paid once per batch
 * rather than once per message.
 *
 * @example
 * ```js
 * const results = sha1dcMany(files.map((f) => f.bytes), { gitBlob: true });
 * results.forEach((r, i) => r.collision && console.warn(`${files[i].name}: collision at byte ${r.collision.offset}`));
 * ```
 * @param messages an array (or any iterable) of {@link Input}s.
 * @throws {TypeError} when `messages` is not an array or iterable of inputs
 *   (the message names the index of the first bad element), or an option is
 *   bad; nothing is hashed then.
 * @throws {Error} before {@link init} has resolved (browsers, workers).
 */
export function sha1dcMany(messages: readonly Input[] | Iterable<Input>, options?: ManyOptions): Result[];

/**
 * A streaming hasher: `createHasher().update(a).update(b).digest()`.
 *
 * @throws {TypeError} for a bad option, or `gitBlob` without `size`.
 */
export function createHasher(options?: Options): Hasher;

/**
 * The filter half of collision detection for a hasher created with the same
 * options ({@link createHasher}), to run in another worker:
 * `hasher.updateWithMasks(chunk, filter.filter(chunk))` for each chunk gives
 * the result of `hasher.update(chunk)`. Only `gitBlob` and `size` matter to
 * the filter (the git header is filtered too).
 *
 * @example
 * ```js
 * // In a worker: filter each chunk, hand chunk and masks on (transferred).
 * const filter = createFilter();
 * onmessage = ({ data: chunk }) => {
 *   const masks = filter.filter(chunk);
 *   postMessage({ chunk, masks }, [chunk.buffer, masks.buffer]);
 * };
 * // Where the hash is wanted:
 * const hasher = createHasher();
 * filterWorker.onmessage = ({ data }) => hasher.updateWithMasks(data.chunk, data.masks);
 * ```
 * @throws {TypeError} for a bad option, or `gitBlob` without `size`.
 */
export function createFilter(options?: Options): Filter;

/**
 * Hashes a `ReadableStream`, a `Blob` or `File`, or an async iterable of
 * chunks (a Node stream), in constant memory, with the filter half of
 * detection in a second worker when {@link StreamOptions.worker} says so.
 * Calls `onProgress` with the number of bytes hashed so far after each
 * chunk. If the source or the filter worker fails part way, the promise
 * rejects with its error; `options.signal` aborts (the promise rejects with
 * the signal's reason). Either way the hasher is freed and the worker ended.
 *
 * @example
 * ```js
 * const r = await hashStream(file, { gitBlob: true }, (done) => bar.value = done / file.size);
 * ```
 */
export function hashStream(
  source: StreamSource,
  options?: StreamOptions | null,
  onProgress?: (bytesDone: number) => void,
): Promise<Result>;
export function hashStream(source: StreamSource, onProgress: (bytesDone: number) => void): Promise<Result>;

/**
 * The name of the backend that runs: `"simd128"` for this build (the
 * collision filter on WebAssembly SIMD, four blocks per vector).
 */
export function backend(): string;

/** How a checksum line names its file: `<hex>  <name>`, `<hex> *<name>`, `SHA1 (<name>) = <hex>`. */
export type ChecksumStyle = 'text' | 'binary' | 'tag';

/**
 * One line of a checksum list, as `sha1dcsum -c` reads it (and GNU
 * `sha1sum -c`, but for the flagged lines GNU does not know).
 *
 * - `'checksum'`: a file's checksum: `hex` in lowercase, `name` unescaped,
 *   `flagged` for the `*coll*` lines of sha1dcsum, of the original C tool
 *   and of Debian's sha1cdsum (the file was half of a collision when the
 *   list was made). `<hex> *coll* <name>` is read as flagged; it is also
 *   GNU's binary-mode line for a file named `coll* <name>`, which
 *   `sha1dcsum -c` reads it as when only that file exists.
 * - `'unreadable'`: `SHA1 (<name>) = ` and a checksum in no form known here:
 *   it names a file all the same.
 * - `'improper'`: not a checksum line.
 * - `'ignored'`: a comment (`#` first) or an empty line.
 */
export type ChecksumLine =
  | { type: 'checksum'; name: Uint8Array; hex: string; flagged: boolean; style: ChecksumStyle }
  | { type: 'unreadable'; name: Uint8Array }
  | { type: 'improper' }
  | { type: 'ignored' };

/**
 * Parses one line of a checksum list (with or without its newline; a
 * string is read as UTF-8): GNU `sha1sum`'s text and binary lines, BSD
 * lines (`--tag`, and OpenSSL's `SHA1(<name>)= <hex>`), escaped names (a
 * line starting with `\`), and the flagged lines.
 */
export function parseChecksumLine(line: Input): ChecksumLine;

/** Options of {@link formatChecksumLine}. */
export interface ChecksumLineOptions {
  /** Default `'text'`. */
  style?: ChecksumStyle;
  /** End the line with NUL, not newline, and leave the name unescaped (`sha1sum -z`). Default `false`. */
  zero?: boolean;
}

/**
 * The line `sha1dcsum` prints for `result` and the file `name` (a string is
 * written as UTF-8), newline included: GNU `sha1sum`'s line, or for a result
 * with a collision `<hex> *coll* <name>` (`SHA1 (<name>) = <hex> *coll*`
 * with `style: 'tag'`). A name with a newline, carriage return or backslash
 * is escaped and the line starts with `\`, as GNU does.
 *
 * @example
 * ```js
 * new TextDecoder().decode(formatChecksumLine(sha1dc('abc'), 'abc.txt'));
 * // 'a9993e364706816aba3e25717850c26c9cd0d89d  abc.txt\n'
 * ```
 */
export function formatChecksumLine(
  result: Pick<Result, 'hex' | 'collision'>,
  name: Input,
  options?: ChecksumLineOptions | null,
): Uint8Array;
export {};
