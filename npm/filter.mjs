// The filter half of collision detection, to run apart from the hashing (another worker):
// createFilter's Filter gives the candidate masks of the blocks each chunk completes, which
// Hasher.updateWithMasks takes with the same chunk.
import { toInput } from './input.mjs';
import { PIECE, pieces } from './hasher.mjs';

const encoder = new TextEncoder();

/** The filter createFilter returns. */
export class Filter {
  /** The RawFilter; null once freed. */
  #raw;
  #length = 0;

  /** `RawFilter` is the module's filter class; `flags` and `size` those of the hasher it feeds. */
  constructor(RawFilter, flags, size) {
    this.#raw = new RawFilter(flags, size);
  }

  /**
   * The candidate masks of the blocks `chunk` completes, in order (a Uint32Array, zeros for
   * most blocks), for Hasher.updateWithMasks with the same chunk.
   */
  filter(chunk) {
    if (this.#raw === null) throw new TypeError('sha1dc: filter() after free(): this filter was freed; create a new one with createFilter()');
    let input = toInput(chunk, 'chunk');
    if (typeof input === 'string') input = encoder.encode(input);
    this.#length += input.length;
    if (input.length <= PIECE) return this.#raw.filter(input);
    const parts = pieces(input).map((piece) => this.#raw.filter(piece));
    const masks = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      masks.set(p, at);
      at += p.length;
    }
    return masks;
  }

  /** Bytes filtered so far. */
  get bytesFiltered() {
    return this.#length;
  }

  /** Frees the filter (also done on garbage collection). */
  free() {
    this.#raw?.free();
    this.#raw = null;
  }
}
