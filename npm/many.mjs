// sha1dcMany: many messages hashed in batches, one crossing into wasm per batch.
import { MANY_OPTION_NAMES, parseOptions, toInput, toList } from './input.mjs';
import { RESULT_LEN } from './result.mjs';

/**
 * At most this many bytes of messages go into wasm at once: a larger set goes
 * in several calls, so the module's memory stays bounded; a message larger
 * than this is hashed alone, in pieces, as sha1dc() does.
 */
const BATCH_BYTES = 8 << 20;

/** And at most this many messages at once (each result is RESULT_LEN bytes). */
const BATCH_MESSAGES = 16384;

/**
 * sha1dcMany over one module: `hashMany` is its batch export, `decode` its result decoder,
 * `hashOne(input, flags)` hashes a message too large for a batch.
 */
export function createMany(hashMany, decode, hashOne) {
  /** The buffer batches are assembled in, kept from call to call (at most BATCH_BYTES). */
  let buffer = null;

  /** Hashes the batch `views` (messages `indices`) into `results`. */
  function flush(indices, views, bytes, flags, results) {
    if (buffer === null || buffer.length < bytes) {
      buffer = null; // the old one can go before the new one is allocated
      buffer = new Uint8Array(Math.max(bytes, Math.min(BATCH_BYTES, 64 * 1024)));
    }
    const data = buffer.subarray(0, bytes);
    const lengths = new Uint32Array(views.length);
    let at = 0;
    for (let k = 0; k < views.length; k++) {
      data.set(views[k], at);
      lengths[k] = views[k].length;
      at += views[k].length;
    }
    const out = hashMany(data, lengths, flags);
    for (let k = 0; k < indices.length; k++) {
      results[indices[k]] = decode(out.subarray(k * RESULT_LEN, (k + 1) * RESULT_LEN));
    }
  }

  return function sha1dcMany(messages, options) {
    const list = toList(messages);
    const { flags } = parseOptions(options, 'sha1dcMany()', MANY_OPTION_NAMES);
    // Every message is checked before any is hashed.
    const inputs = new Array(list.length);
    for (let i = 0; i < list.length; i++) inputs[i] = toInput(list[i], `sha1dcMany() messages[${i}]`);
    const results = new Array(inputs.length);
    let encoder = null;
    let indices = [];
    let views = [];
    let bytes = 0;
    for (let i = 0; i < inputs.length; i++) {
      let input = inputs[i];
      // Longer than BATCH_BYTES in UTF-16 units is longer in UTF-8 too: hashed alone.
      if (typeof input === 'string' && input.length <= BATCH_BYTES) {
        if (encoder === null) encoder = new TextEncoder();
        input = encoder.encode(input);
      }
      if (input.length > BATCH_BYTES) {
        results[i] = hashOne(input, flags);
        continue;
      }
      if (bytes + input.length > BATCH_BYTES || indices.length === BATCH_MESSAGES) {
        flush(indices, views, bytes, flags, results);
        indices = [];
        views = [];
        bytes = 0;
      }
      indices.push(i);
      views.push(input);
      bytes += input.length;
    }
    if (indices.length > 0) flush(indices, views, bytes, flags, results);
    return results;
  };
}
