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
   * of bytes was hashed.
   */
  size?: number;
}

/** Where a collision was detected. */
export interface Collision {
  /** Byte offset of the first flagged 64-byte block (`block * 64`). */
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

/** What hashing a message found. */
export interface Result {
  /**
   * The output, 40 lowercase hex digits: the safe hash when a collision was
   * detected (unless `safeHash: false`), otherwise the plain SHA-1.
   */
  hex: string;
  /** The plain SHA-1 of the message, 40 lowercase hex digits, always. */
  sha1: string;
  /** `null`, or where a collision was detected. */
  collision: Collision | null;
}

/**
 * A streaming hasher from {@link createHasher}. Synchronous; chunk sizes never
 * change the result.
 */
export interface Hasher {
  /**
   * Adds `chunk` to the message and returns this hasher.
   * @throws {TypeError} when `chunk` is not an {@link Input}.
   * @throws {Error} after {@link Hasher.digest} or {@link Hasher.free}.
   */
  update(chunk: Input): this;
  /**
   * Finishes the message and returns the result. The hasher is spent: a
   * later `update` or `digest` throws.
   * @throws {Error} when a `size` was given and a different number of bytes
   *   was hashed, or when called a second time.
   */
  digest(): Result;
  /** Releases the hasher without a result (garbage collection does it too). */
  free(): void;
  /** Bytes added so far (not counting a git blob header). */
  readonly bytesHashed: number;
}

/** A source for {@link hashStream}. */
export type StreamSource =
  | ReadableStream<Input>
  | Blob
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
    | URL
    | Request
    | Response
    | BufferSource
    | WebAssembly.Module
    | Promise<Response | BufferSource | WebAssembly.Module>,
): Promise<void>;

/**
 * Loads the WebAssembly module synchronously from its bytes or a compiled
 * `WebAssembly.Module` (not needed in Node, where it is a no-op).
 */
export function initSync(module: BufferSource | WebAssembly.Module): void;

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
 * A streaming hasher: `createHasher().update(a).update(b).digest()`.
 *
 * @throws {TypeError} for a bad option, or `gitBlob` without `size`.
 */
export function createHasher(options?: Options): Hasher;

/**
 * Hashes a `ReadableStream`, a `Blob` or `File`, or an async iterable of
 * chunks (a Node stream), in constant memory. Calls `onProgress` with the
 * number of bytes hashed so far after each chunk. If the source fails part
 * way, the promise rejects with its error (and the hasher is freed).
 *
 * @example
 * ```js
 * const r = await hashStream(file, { gitBlob: true }, (done) => bar.value = done / file.size);
 * ```
 */
export function hashStream(
  source: StreamSource,
  options?: Options | null,
  onProgress?: (bytesDone: number) => void,
): Promise<Result>;
export function hashStream(source: StreamSource, onProgress: (bytesDone: number) => void): Promise<Result>;

/**
 * The name of the engine that runs: `"simd128"` for this build (the
 * collision filter on WebAssembly SIMD, four blocks per vector).
 */
export function backend(): string;
