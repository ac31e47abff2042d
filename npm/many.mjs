// sha1dcMany: many messages hashed in batches, one crossing into wasm per batch.
import { MANY_OPTION_NAMES, parseOptions, toInput, toList } from './input.mjs';

/**
 * At most this many bytes of messages go into wasm at once: a larger set goes
 * in several calls, so the module's memory stays bounded; a message larger
 * than this is hashed alone, in pieces, as sha1dc() does.
 */
const BATCH_BYTES = 8 << 20;

/** And at most this many messages at once (each result is RESULT_LEN bytes). */
const BATCH_MESSAGES = 16384;

/**
 * sha1dcMany over one module: `hashMany(views, bytes, flags, indices, results)` hashes the batch
 * `views` (`bytes` in all) in one call into wasm, the result of views[k] into
 * results[indices[k]] (calls.mjs); `hashOne(input, flags)` hashes a message too large for a batch.
 */
export function createMany(hashMany, hashOne) {
  return function sha1dcMany(messages, options) {
    const list = toList(messages);
    const { flags } = parseOptions(options, 'sha1dcMany()', MANY_OPTION_NAMES);
    // Every message is checked before any is hashed.
    const inputs = new Array(list.length);
    for (let i = 0; i < list.length; i++) inputs[i] = toInput(list[i], 'sha1dcMany() messages', i);
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
        hashMany(views, bytes, flags, indices, results);
        indices = [];
        views = [];
        bytes = 0;
      }
      indices.push(i);
      views.push(input);
      bytes += input.length;
    }
    if (indices.length > 0) hashMany(views, bytes, flags, indices, results);
    return results;
  };
}
