// The one-call crossing of sha1dc() and sha1dcMany(): the messages are written straight into
// buffers in wasm memory that the module keeps from call to call (RawCalls, bindings/src/lib.rs),
// and each result is read where the module wrote it, in the long form (RESULT_LEN bytes).
// Nothing is allocated on either side but the result objects.

/** Room for a string of this many UTF-16 units, in UTF-8 bytes (TextEncoder.encodeInto). */
const utf8Room = (units) => 3 * units;

/**
 * The crossing of one module: `raw` its exports (RawCalls, wasmMemory), `decodeAt(mem, at)` and
 * `decodeManyAt` its result decoders (result.mjs). Made at the first call, once the module is loaded.
 */
export function createCalls(raw, { decodeAt, decodeManyAt }) {
  const calls = new raw.RawCalls();
  const memory = raw.wasmMemory();
  let mem = new Uint8Array(memory.buffer);
  /** The memory's bytes: a view made again once the memory grew (which detaches the old one). */
  const bytes = () => (mem.byteLength === 0 ? (mem = new Uint8Array(memory.buffer)) : mem);
  const encoder = new TextEncoder();
  /** Hashes the first `len` bytes of the input: the address of the result. */
  const hash = (len, flags) => {
    const at = calls.hash(len, flags);
    if (at === 0) throw new Error(`sha1dc: internal error: ${len} bytes hashed, more than were written into wasm memory`);
    return at;
  };

  return {
    /** Hashes `input` (bytes) in one call: its result object. */
    hashBytes(input, flags) {
      const at = calls.input(input.length);
      bytes().set(input, at);
      return decodeAt(bytes(), hash(input.length, flags));
    },

    /** Hashes the UTF-8 encoding of `text` in one call: its result object. */
    hashString(text, flags) {
      const room = utf8Room(text.length);
      const at = calls.input(room);
      const { written } = encoder.encodeInto(text, bytes().subarray(at, at + room));
      return decodeAt(bytes(), hash(written, flags));
    },

    /**
     * Hashes the messages `views` (Uint8Arrays, `total` bytes in all) in one call, several at a
     * time; stores the result of views[k] at results[indices[k]].
     */
    hashMany(views, total, flags, indices, results) {
      const at = calls.input(total);
      const lengthsAt = calls.lengths(views.length);
      const m = bytes();
      const lengths = new Uint32Array(m.buffer, lengthsAt, views.length);
      let end = at;
      for (let k = 0; k < views.length; k++) {
        const v = views[k];
        m.set(v, end);
        lengths[k] = v.length;
        end += v.length;
      }
      const out = calls.hashMany(views.length, total, flags);
      // The memory's view only now: the call may have grown it.
      decodeManyAt(bytes(), out, views.length, indices, results);
    },
  };
}
