// The result objects: decoded from what the wasm side returns, and encoded for digest(encoding).

/**
 * Bytes of one encoded result with its report (bindings/src/lib.rs): the output digest (0..20),
 * the plain SHA-1 (20..40), 1 at byte 40 for a collision, its disturbance vector's index at 41,
 * the first flagged block (48..56), the flagged block count (56..64) and the first flagged
 * block's offset in the data (64..72), little-endian. A result without a collision may also come
 * as the 20-byte digest alone.
 */
export const RESULT_LEN = 72;

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The 20 bytes of `bytes` from `start`, as 40 lowercase hex digits. */
export function hex(bytes, start) {
  let s = '';
  for (let i = start; i < start + 20; i++) s += HEX[bytes[i]];
  return s;
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
 * The decoder of one module's results: `decode(bytes)` turns an encoded result (20 or
 * RESULT_LEN bytes) into the result object. `dvName(index)` is the module's name of a
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
  return function decode(bytes) {
    const collision = bytes.length === RESULT_LEN && bytes[40] === 1 ? readCollision(bytes, name) : null;
    const result = Object.create(RESULT_PROTO);
    result.hex = hex(bytes, 0);
    // Without a collision the output is the plain SHA-1: one string serves.
    result.sha1 = collision === null ? result.hex : hex(bytes, 20);
    // Bytes of their own, never a view of a larger batch.
    result.bytes = bytes.length === 20 && bytes.buffer.byteLength === 20 ? bytes : bytes.slice(0, 20);
    result.collision = collision;
    return result;
  };
}

function readCollision(bytes, name) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    // For a git blob, in the data after the "blob <size>\0" header, as sha1dcsum --git-blob reports.
    offset: Number(view.getBigUint64(64, true)),
    block: Number(view.getBigUint64(48, true)),
    dv: name(bytes[41]),
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
