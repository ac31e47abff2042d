// The result objects: decoded from what the wasm side returns, and encoded for digest(encoding).

/**
 * Bytes of one encoded result with its report (bindings/src/lib.rs): the output digest (0..20),
 * the plain SHA-1 (20..40), 1 at byte 40 for a collision, its disturbance vector's index at 41,
 * the first flagged block (48..56), the flagged block count (56..64) and the first flagged
 * block's offset in the data (64..72), little-endian. A result without a collision may also come
 * as the 20-byte digest alone.
 */
export const RESULT_LEN = 72;

/** The character codes of the hex digits of each byte value: high digit at 2b, low at 2b + 1. */
const HEX_CODES = new Uint16Array(512);
for (let b = 0; b < 256; b++) {
  const digits = b.toString(16).padStart(2, '0');
  HEX_CODES[2 * b] = digits.charCodeAt(0);
  HEX_CODES[2 * b + 1] = digits.charCodeAt(1);
}
/** Decodes the hex digits wasm writes (ASCII, so UTF-8, the one encoding every runtime has). */
const ascii = new TextDecoder();

/** The 40 character codes of one digest, filled by hex() and read by String.fromCharCode. */
const hexCodes = new Array(40).fill(0);

/**
 * The 20 bytes of `bytes` from `start`, as 40 lowercase hex digits: one string made at once from
 * its character codes (20 concatenations would make a rope V8 flattens later, at twice the cost).
 */
export function hex(bytes, start) {
  for (let i = 0; i < 20; i++) {
    const b = bytes[start + i];
    hexCodes[2 * i] = HEX_CODES[2 * b];
    hexCodes[2 * i + 1] = HEX_CODES[2 * b + 1];
  }
  return String.fromCharCode.apply(null, hexCodes);
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

/**
 * The decoders of one module's results: `decode(bytes)` turns an encoded result (20 or
 * RESULT_LEN bytes) into the result object, `decodeAt(mem, at)` the result in the long form at
 * `mem[at]` (in wasm memory: its bytes are copied out). `dvName(index)` is the module's name of a
 * disturbance vector, asked once per index.
 */
export function createDecoder(dvName) {
  const names = new Map();
  const name = (index) => {
    let n = names.get(index);
    if (n === undefined) {
      n = dvName(index);
      names.set(index, n);
    }
    return n;
  };
  /**
   * The result whose digest is mem[at..at + 20], `full` if the long form follows it; `digits`
   * its hex when already made.
   */
  const read = (mem, at, full, own, digits = hex(mem, at)) => {
    const collision = full && mem[at + 40] === 1 ? readCollision(mem, at, name) : null;
    const result = Object.create(RESULT_PROTO);
    result.hex = digits;
    // Without a collision the output is the plain SHA-1: one string serves.
    result.sha1 = collision === null ? result.hex : hex(mem, at + 20);
    // Bytes of their own, never a view of wasm memory or of a larger result.
    result.bytes = own ? mem : mem.slice(at, at + 20);
    result.collision = collision;
    return result;
  };
  return {
    decode: (bytes) => read(bytes, 0, bytes.length === RESULT_LEN, bytes.length === 20 && bytes.buffer.byteLength === 20),
    decodeAt: (mem, at) => read(mem, at, true, false),
    /**
     * The `count` results in the long form at `mem[at]`, their hex digits after them (as
     * RawCalls.hashMany writes them), to `results[indices[k]]`: the digits decoded in one call,
     * each result's a substring of them.
     */
    decodeManyAt(mem, at, count, indices, results) {
      const hexAt = at + count * RESULT_LEN;
      const digits = ascii.decode(mem.subarray(hexAt, hexAt + count * 40));
      for (let k = 0; k < count; k++) {
        results[indices[k]] = read(mem, at + k * RESULT_LEN, true, false, digits.substring(40 * k, 40 * k + 40));
      }
    },
  };
}

function readCollision(mem, at, name) {
  const view = new DataView(mem.buffer, mem.byteOffset + at, RESULT_LEN);
  return {
    // For a git blob, in the data after the "blob <size>\0" header, as sha1dcsum --git-blob reports.
    offset: Number(view.getBigUint64(64, true)),
    block: Number(view.getBigUint64(48, true)),
    dv: name(mem[at + 41]),
    count: Number(view.getBigUint64(56, true)),
  };
}

function latin1(bytes) {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

function base64(bytes, url) {
  const b64 = btoa(latin1(bytes));
  return url ? b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : b64;
}

/**
 * The result in the form digest(encoding) asks for: as node:crypto's digest gives it for 'hex',
 * 'base64', 'base64url' and 'binary' or 'latin1' (a string of one character per byte);
 * 'bytes', the 20 bytes; no encoding, the result object.
 */
export function encodeResult(result, encoding) {
  switch (encoding) {
    case undefined:
      return result;
    case 'hex':
      return result.hex;
    case 'base64':
    case 'base64url':
      return base64(result.bytes, encoding === 'base64url');
    case 'binary':
    case 'latin1':
      return latin1(result.bytes);
    default: // 'bytes'
      return result.bytes;
  }
}
