// Feeding the wasm side's RawHasher, and the streaming Hasher that createHasher returns.
import { checkEncoding, toInput } from './input.mjs';
import { encodeResult } from './result.mjs';

/**
 * Largest piece of input handed to wasm at once. Larger inputs are split, so
 * the module's memory (which never shrinks) stays small whatever the input.
 */
export const PIECE = 1 << 20;

/** Strings longer than this (in UTF-16 units) are encoded in pieces. */
export const STRING_PIECE = PIECE >> 2;

/** Feeds one input (already checked by toInput) to a RawHasher, in pieces. */
export function feed(h, input) {
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

/** The streaming hasher createHasher returns, over one RawHasher. */
export class Hasher {
  #raw;
  #size;
  #decode;
  #bytes = 0;
  /** Why the hasher is spent: '' while live, 'digest' or 'free'. */
  #ended = '';

  constructor(h, size, decode) {
    this.#raw = h;
    this.#size = size;
    this.#decode = decode;
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
    feed(this.#raw, toInput(chunk, 'chunk'));
    return this;
  }

  /** Bytes added so far. */
  get bytesHashed() {
    return this.#raw === null ? this.#bytes : this.#raw.length();
  }

  /**
   * Finishes the message; the hasher is spent. With no argument, the result object; with an
   * encoding, what encodeResult gives.
   */
  digest(encoding) {
    checkEncoding(encoding);
    const h = this.#raw;
    if (h === null) throw this.#spent('digest()');
    this.#end('digest');
    try {
      return encodeResult(finish(h, this.#size, this.#decode), encoding);
    } finally {
      h.free();
    }
  }

  /** Frees the hasher without a result (also done on garbage collection). */
  free() {
    if (this.#raw !== null) {
      const h = this.#raw;
      this.#end('free');
      h.free();
    }
  }

  #end(why) {
    this.#bytes = this.#raw.length();
    this.#raw = null;
    this.#ended = why;
  }
}
