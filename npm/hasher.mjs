// Feeding the wasm side's RawHasher, and the streaming Hasher that createHasher returns.
import { checkEncoding, describe, toInput } from './input.mjs';
import { encodeResult } from './result.mjs';

/**
 * Largest piece of input handed to wasm at once. Larger inputs are split, so
 * the module's memory (which never shrinks) stays small whatever the input.
 */
export const PIECE = 1 << 20;

/** Strings longer than this (in UTF-16 units) are encoded in pieces. */
export const STRING_PIECE = PIECE >> 2;

/** `bytes` as views of at most PIECE bytes. */
export function pieces(bytes) {
  const out = [];
  for (let at = 0; at < bytes.length; at += PIECE) out.push(bytes.subarray(at, at + PIECE));
  return out;
}

/** Feeds one input (already checked by toInput) to a RawHasher, in pieces. */
export function feed(h, input) {
  if (typeof input === 'string') {
    if (input.length <= STRING_PIECE) {
      h.updateString(input);
      return;
    }
    input = new TextEncoder().encode(input);
  }
  for (const piece of pieces(input)) h.update(piece);
}

/**
 * Feeds bytes and their masks (from a filter fed the same bytes) to a RawHasher, in pieces;
 * the number of masks is checked before anything is hashed.
 */
export function feedWithMasks(h, bytes, masks) {
  if (!(masks instanceof Uint32Array)) {
    throw new TypeError(`sha1dc: updateWithMasks() masks must be the Uint32Array a filter gave for the same chunk; got ${describe(masks)}`);
  }
  const want = h.masksFor(bytes.length);
  if (masks.length !== want) {
    throw new RangeError(
      `sha1dc: updateWithMasks(): the chunk completes ${want} block${want === 1 ? '' : 's'} and needs a mask for each, from a filter fed the same chunks (createFilter with the same options); got ${masks.length}`,
    );
  }
  if (bytes.length <= PIECE) {
    h.updateWithMasks(bytes, masks);
    return;
  }
  let at = 0;
  for (const piece of pieces(bytes)) {
    const n = h.masksFor(piece.length);
    h.updateWithMasks(piece, masks.subarray(at, at + n));
    at += n;
  }
}

/** The error of a size given up front that the data did not match. */
function sizeError(want, got) {
  return new RangeError(`sha1dc: the size given (options.size) was ${want} bytes, but ${got} bytes were hashed`);
}

/** Finishes a RawHasher (which is spent either way) after checking the size given; the result object. */
export function finish(h, size, decode) {
  if (size !== undefined) {
    const got = h.length();
    if (got !== size) throw sizeError(size, got);
  }
  return decode(h.finish());
}

/**
 * A hasher keeps its first bytes in JavaScript, up to this many, and hashes them in one call at
 * digest(): only a longer message gets a RawHasher in wasm memory. A hasher dropped without
 * digest() or free() then costs wasm nothing: wasm-bindgen frees a dropped RawHasher from a
 * FinalizationRegistry, whose callbacks cannot run before a synchronous loop yields, so in such
 * a loop the RawHashers would pile up.
 */
const HELD = 64 << 10;

const encoder = new TextEncoder();

/** The streaming hasher createHasher returns. */
export class Hasher {
  #wasm;
  #flags;
  #size;
  /** The RawHasher, once the message outgrew HELD; null before (and once spent). */
  #raw = null;
  /** The message while it is HELD bytes or fewer: #held[0..#length]. */
  #held = null;
  #length = 0;
  /** Why the hasher is spent: '' while live, 'digest' or 'free'. */
  #ended = '';

  /** `wasm` is { RawHasher, hashBytes, decode } of one loaded module: hashBytes(bytes, flags) gives the result object. */
  constructor(wasm, flags, size) {
    this.#wasm = wasm;
    this.#flags = flags;
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
    if (this.#ended) throw this.#spent('update()');
    let input = toInput(chunk, 'chunk');
    if (this.#raw === null) {
      if (typeof input === 'string') input = encoder.encode(input);
      if (this.#length + input.length <= HELD) {
        this.#hold(input);
        return this;
      }
      this.#toRaw();
    }
    feed(this.#raw, input);
    return this;
  }

  /**
   * Adds `chunk` to the message with the masks a filter (createFilter, same options) gave for
   * it; returns this hasher. The result is update()'s.
   */
  updateWithMasks(chunk, masks) {
    if (this.#ended) throw this.#spent('updateWithMasks()');
    let input = toInput(chunk, 'chunk');
    if (typeof input === 'string') input = encoder.encode(input);
    if (this.#raw === null) this.#toRaw();
    feedWithMasks(this.#raw, input, masks);
    return this;
  }

  /** Moves the message held in JavaScript into a new RawHasher. */
  #toRaw() {
    this.#raw = new this.#wasm.RawHasher(this.#flags, this.#size);
    if (this.#length > 0) this.#raw.update(this.#held.subarray(0, this.#length));
    this.#held = null;
  }

  /** Appends `bytes` to the held message, growing its buffer by doubling up to HELD. */
  #hold(bytes) {
    const need = this.#length + bytes.length;
    if (this.#held === null || this.#held.length < need) {
      const grown = new Uint8Array(Math.min(HELD, Math.max(need, 2 * (this.#held?.length ?? 32))));
      if (this.#length > 0) grown.set(this.#held.subarray(0, this.#length));
      this.#held = grown;
    }
    this.#held.set(bytes, this.#length);
    this.#length = need;
  }

  /** Bytes added so far. */
  get bytesHashed() {
    return this.#raw === null ? this.#length : this.#raw.length();
  }

  /**
   * Finishes the message; the hasher is spent. With no argument, the result object; with an
   * encoding, what encodeResult gives.
   */
  digest(encoding) {
    checkEncoding(encoding);
    if (this.#ended) throw this.#spent('digest()');
    const h = this.#end('digest');
    if (h === null) {
      const held = this.#held === null ? new Uint8Array(0) : this.#held.subarray(0, this.#length);
      this.#held = null;
      if (this.#size !== undefined && this.#size !== held.length) throw sizeError(this.#size, held.length);
      return encodeResult(this.#wasm.hashBytes(held, this.#flags), encoding);
    }
    try {
      return encodeResult(finish(h, this.#size, this.#wasm.decode), encoding);
    } finally {
      h.free();
    }
  }

  /** Frees the hasher without a result (also done on garbage collection). */
  free() {
    if (this.#ended) return;
    this.#held = null;
    this.#end('free')?.free();
  }

  /** Marks the hasher spent; its RawHasher, if it has one, for the caller to finish or free. */
  #end(why) {
    const h = this.#raw;
    if (h !== null) this.#length = h.length();
    this.#raw = null;
    this.#ended = why;
    return h;
  }
}
