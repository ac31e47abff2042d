// What the API accepts: inputs, lists of inputs, options, encodings. Every check throws a
// TypeError (or a RangeError for a number out of range) that names the argument and says what
// was given, before anything is hashed.

/** Option bits understood by the wasm side (bindings/src/lib.rs). */
export const SAFE_HASH = 1;
export const REDUCED_ROUND = 2;
export const GIT_BLOB = 4;

const ACCEPTED = 'a Uint8Array, ArrayBuffer, DataView, another TypedArray view, a Node Buffer or a string';

const tag = (x) => Object.prototype.toString.call(x).slice(8, -1);

/** Says what `x` is, for error messages. */
export function describe(x) {
  if (x === null) return 'null';
  if (x === undefined) return 'undefined';
  switch (typeof x) {
    case 'string':
      return 'a string';
    case 'number':
    case 'bigint':
    case 'boolean':
    case 'symbol':
      return `${typeof x} ${String(x)}`;
    case 'function':
      return `a function${x.name ? ` (${x.name})` : ''}`;
    default:
      return describeObject(x);
  }
}

/**
 * A Blob or File, by what it has: not every runtime gives its Blob the "Blob" tag (workerd's
 * has none).
 */
export function isBlobLike(x) {
  return x !== null && typeof x === 'object' && typeof x.stream === 'function' && typeof x.size === 'number' && typeof x.arrayBuffer === 'function';
}

function describeObject(x) {
  if (Array.isArray(x)) return `an Array of length ${x.length}`;
  const t = tag(x);
  const name = x.constructor && x.constructor.name;
  if (isBlobLike(x)) {
    const what = t === 'File' || name === 'File' ? 'File' : 'Blob';
    return `a ${what} (use hashStream for a ${what})`;
  }
  if (t === 'ReadableStream') return 'a ReadableStream (use hashStream for a stream)';
  if (typeof x[Symbol.asyncIterator] === 'function') return 'an async iterable (use hashStream for a stream)';
  return name && name !== 'Object' ? `a ${name}` : `an object (${t})`;
}

/** Whether `buffer` is an ArrayBuffer whose memory was transferred away (postMessage, transfer()). */
function isDetached(buffer) {
  if (buffer.byteLength !== 0 || tag(buffer) !== 'ArrayBuffer') return false;
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/** `where`, or `where[index]` with an index. */
const named = (where, index) => (index === undefined ? where : `${where}[${index}]`);

function detachedError(where, data) {
  const what = tag(data) === 'ArrayBuffer' ? 'a detached ArrayBuffer' : `a ${tag(data)} over a detached ArrayBuffer`;
  return new TypeError(
    `sha1dc: ${where} is ${what} (its memory was transferred away, e.g. by postMessage); hash the data before transferring it`,
  );
}

/**
 * The bytes of `data` as a Uint8Array view (no copy), or the string itself;
 * throws a TypeError for anything else, naming `where` (the argument), or
 * `where[index]` with an index (its name made only for the error).
 */
export function toInput(data, where, index) {
  if (typeof data === 'string') return data;
  if (ArrayBuffer.isView(data)) {
    let view;
    try {
      view = data instanceof Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    } catch (err) {
      // A DataView over a detached buffer throws on byteLength.
      if (isDetached(data.buffer)) throw detachedError(named(where, index), data);
      throw err;
    }
    // A typed array over a detached buffer reads as empty: never hash that silently.
    if (view.length === 0 && isDetached(data.buffer)) throw detachedError(named(where, index), data);
    return view;
  }
  const t = tag(data);
  if (t === 'ArrayBuffer' || t === 'SharedArrayBuffer') {
    if (isDetached(data)) throw detachedError(named(where, index), data);
    return new Uint8Array(data);
  }
  throw new TypeError(`sha1dc: ${named(where, index)} must be ${ACCEPTED}; got ${describe(data)}`);
}

/**
 * The messages of sha1dcMany as an array: an Array as it is, another iterable
 * (a Set, a generator) copied; a TypeError for anything else.
 */
export function toList(messages) {
  if (Array.isArray(messages)) return messages;
  const one =
    typeof messages === 'string' ||
    ArrayBuffer.isView(messages) ||
    (messages !== null && typeof messages === 'object' && /^(Shared)?ArrayBuffer$/.test(tag(messages)));
  if (!one && messages !== null && typeof messages === 'object' && typeof messages[Symbol.iterator] === 'function') {
    return Array.from(messages);
  }
  throw new TypeError(
    `sha1dc: sha1dcMany() messages must be an array of inputs (each ${ACCEPTED}); got ${describe(messages)}${
      one ? ' (use sha1dc() for one message)' : ''
    }`,
  );
}

export const OPTION_NAMES = ['safeHash', 'reducedRound', 'gitBlob', 'size'];
export const STREAM_OPTION_NAMES = [...OPTION_NAMES, 'signal', 'worker'];
/** No size: each message of a batch has its own. */
export const MANY_OPTION_NAMES = ['safeHash', 'reducedRound', 'gitBlob'];

const DEFAULTS = Object.freeze({ flags: SAFE_HASH, size: undefined, gitBlob: false, signal: undefined, worker: 'auto' });

/**
 * Checks an options object; returns { flags, size, gitBlob, signal, worker }. `where`
 * names the call, like "sha1dc()"; `names` are the options it takes.
 */
export function parseOptions(options, where, names = OPTION_NAMES) {
  if (options === undefined || options === null) return DEFAULTS;
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`sha1dc: ${where} options must be an object; got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!names.includes(key)) {
      throw new TypeError(`sha1dc: unknown option ${JSON.stringify(key)} for ${where}; the options are ${names.join(', ')}`);
    }
  }
  const safeHash = flag(options, 'safeHash', true);
  const reducedRound = flag(options, 'reducedRound', false);
  const gitBlob = flag(options, 'gitBlob', false);
  const flags = (safeHash ? SAFE_HASH : 0) | (reducedRound ? REDUCED_ROUND : 0) | (gitBlob ? GIT_BLOB : 0);
  return { flags, size: checkSize(options.size), gitBlob, signal: checkSignal(options.signal), worker: checkWorker(options.worker) };
}

/** hashStream's worker option: 'auto' (the default), true, false, or a function that starts one. */
function checkWorker(worker) {
  if (worker === undefined) return 'auto';
  if (worker === true || worker === false || worker === 'auto' || typeof worker === 'function') return worker;
  throw new TypeError(`sha1dc: option worker must be true, false, 'auto' or a function that starts a worker; got ${describe(worker)}`);
}

function flag(options, name, dflt) {
  const v = options[name];
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') throw new TypeError(`sha1dc: option ${name} must be a boolean; got ${describe(v)}`);
  return v;
}

function checkSize(size) {
  if (size === undefined) return size;
  if (typeof size !== 'number') {
    throw new TypeError(`sha1dc: option size must be a non-negative safe integer; got ${describe(size)}`);
  }
  if (!(Number.isSafeInteger(size) && size >= 0)) {
    throw new RangeError(`sha1dc: option size must be a non-negative safe integer; got number ${size}`);
  }
  return size;
}

/** Any object shaped like an AbortSignal (Node's, the DOM's, Deno's, a polyfill's). */
function checkSignal(signal) {
  if (
    signal !== undefined &&
    (signal === null || typeof signal !== 'object' || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')
  ) {
    throw new TypeError(`sha1dc: option signal must be an AbortSignal; got ${describe(signal)}`);
  }
  return signal;
}

/** What `digest(encoding)` accepts. */
const ENCODINGS = ['hex', 'base64', 'base64url', 'binary', 'latin1', 'bytes'];

/** Checks digest()'s argument before anything is spent. */
export function checkEncoding(encoding) {
  if (encoding !== undefined && !ENCODINGS.includes(encoding)) {
    throw new TypeError(
      `sha1dc: digest() encoding must be ${ENCODINGS.map((e) => JSON.stringify(e)).join(', ')}, or nothing for the result object; got ${
        typeof encoding === 'string' ? JSON.stringify(encoding) : describe(encoding)
      }`,
    );
  }
}
