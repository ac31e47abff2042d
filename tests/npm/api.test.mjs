// The whole JavaScript API through the Node ES module entry (pkg/node.mjs).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { ReadableStream } from 'node:stream/web';
import { test } from 'node:test';
import { DATA, readTsv, sha1 as plainSha1 } from '../shared.mjs';
import { api, bytes, data, glue } from './helpers.mjs';

const { init, initSync, sha1dc, createHasher, hashStream, backend } = api;

const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';
const SHATTERED = data('shattered-1.pdf');
// A global from Node 20 on; node:buffer has it in Node 18.
const File = globalThis.File ?? (await import('node:buffer')).File;

test('init resolves at once (the module loads on import), repeatedly, and the simd128 backend runs', async () => {
  assert.equal(await init(), undefined);
  assert.equal(await init(new Uint8Array(3)), undefined);
  initSync();
  assert.equal(backend(), 'simd128');
});

/** A result's fields, as a plain object (results have a prototype of their own). */
const fields = (r) => ({ ...r });

test('the result object: hex, sha1, the 20 bytes, collision; String() is hex, JSON has no bytes', () => {
  const r = sha1dc('abc');
  assert.deepEqual(fields(r), { hex: ABC, sha1: ABC, bytes: new Uint8Array(Buffer.from(ABC, 'hex')), collision: null });
  assert.deepEqual(Object.keys(r), ['hex', 'sha1', 'bytes', 'collision']);
  assert.equal(r.bytes.length, 20);
  assert.equal(r.bytes.buffer.byteLength, 20, 'the bytes are a copy of their own, not a view of wasm memory');
  // Before: `${r}` was "[object Object]".
  assert.equal(`${r}`, ABC);
  assert.equal(String(r), ABC);
  assert.equal(JSON.stringify(r), `{"hex":"${ABC}","sha1":"${ABC}","collision":null}`);
  assert.deepEqual(structuredClone(r), { hex: ABC, sha1: ABC, bytes: r.bytes, collision: null });
  const c = sha1dc(data('sha-mbles-1.bin'));
  assert.deepEqual(c.collision, { offset: 576, block: 9, dv: 'II(52,0)', count: 1 });
  assert.equal(c.sha1, '8ac60ba76f1999a1ab70223f225aefdc78d4ddc0');
  assert.equal(c.hex, '4f3d9be4a472c4dae83c6314aa6c36a064c1fd14');
});

test('every public vector in every mode of the package (MANIFEST.tsv)', () => {
  const generated = {
    'ctrl-empty.bin': new Uint8Array(0),
    'ctrl-abc.bin': 'abc',
    'ctrl-nist-448bit.bin': 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
    'ctrl-million-a.bin': 'a'.repeat(1_000_000),
  };
  let n = 0;
  for (const row of readTsv('MANIFEST.tsv')) {
    const { file: name, sha1_plain_hex: sha1, collision_detected: coll, sha1dc_output_hex: out } = row;
    const { reduced_round_collision_detected: rrColl, sha1dc_partialcoll_output_hex: rrOut } = row;
    if (name === 'ctrl-splitmix64-1MiB.bin') continue; // the Rust tests cover it
    const input = generated[name] ?? data(name);
    const d = sha1dc(input);
    assert.equal(d.hex, out, name);
    assert.equal(d.sha1, sha1, name);
    assert.equal(d.collision !== null, coll === 'yes', name);
    const plain = sha1dc(input, { safeHash: false });
    assert.equal(plain.hex, sha1, `${name} safeHash:false`);
    assert.deepEqual(plain.collision, d.collision, `${name} safeHash:false`);
    const rr = sha1dc(input, { reducedRound: true });
    assert.equal(rr.hex, rrOut, `${name} reducedRound`);
    assert.equal(rr.collision !== null, rrColl === 'yes', `${name} reducedRound`);
    // The same through the streaming hasher, in two pieces.
    const bytesIn = typeof input === 'string' ? Buffer.from(input) : input;
    const h = createHasher({ reducedRound: true });
    h.update(bytesIn.subarray(0, 100)).update(bytesIn.subarray(100));
    assert.deepEqual(h.digest(), rr, `${name} hasher`);
    n++;
  }
  assert.equal(n, 11);
});

test('every accepted input type gives the bytes it views', () => {
  const b = bytes(1000, 7);
  const want = sha1dc(b);
  assert.equal(want.hex, plainSha1(b));
  const shared = new SharedArrayBuffer(1000);
  new Uint8Array(shared).set(b);
  const padded = new Uint8Array(1016);
  padded.set(b, 8);
  const inputs = {
    Uint8Array: b,
    Buffer: Buffer.from(b),
    ArrayBuffer: b.slice().buffer,
    SharedArrayBuffer: shared,
    DataView: new DataView(padded.buffer, 8, 1000),
    'Uint8Array with offset': padded.subarray(8, 1008),
    Uint16Array: new Uint16Array(padded.buffer, 8, 500),
    Int32Array: new Int32Array(padded.buffer, 8, 250),
    Float64Array: new Float64Array(padded.buffer, 8, 125),
    BigUint64Array: new BigUint64Array(padded.buffer, 8, 125),
    Uint8ClampedArray: new Uint8ClampedArray(b),
  };
  for (const [what, input] of Object.entries(inputs)) {
    assert.deepEqual(sha1dc(input), want, what);
    assert.deepEqual(createHasher().update(input).digest(), want, `${what} hasher`);
  }
  // Strings are hashed as UTF-8; a lone surrogate as U+FFFD, like TextEncoder.
  for (const s of ['', 'abc', 'héllo wörld', '漢字', '😀 emoji', '\ud800 lone', 'x'.repeat(70_000)]) {
    assert.equal(sha1dc(s).hex, plainSha1(new TextEncoder().encode(s)), JSON.stringify(s.slice(0, 20)));
    assert.equal(createHasher().update(s).digest().hex, plainSha1(new TextEncoder().encode(s)));
  }
});

test('inputs larger than the 1 MiB piece size, one-shot and streaming', () => {
  const big = bytes(3 * 1024 * 1024 + 17, 3);
  const want = plainSha1(big);
  assert.equal(sha1dc(big).hex, want);
  const h = createHasher();
  for (let at = 0; at < big.length; at += 700_001) h.update(big.subarray(at, at + 700_001));
  assert.equal(h.digest().hex, want);
  const s = 'ü'.repeat(600_000); // longer than the string piece, 1.2 MB of UTF-8
  assert.equal(sha1dc(s).hex, plainSha1(Buffer.from(s)));
  assert.equal(sha1dc(SHATTERED, { size: SHATTERED.length }).hex, '16e96b70000dd1e7c85b8368ee197754400e58ec');
});

test('anything else is a TypeError that says what was given and what is accepted', () => {
  const bad = [
    [undefined, /got undefined/],
    [null, /got null/],
    [42, /got number 42/],
    [true, /got boolean true/],
    [10n, /got bigint 10/],
    [Symbol('s'), /got symbol/],
    [[1, 2, 3], /got an Array of length 3/],
    [{}, /got an object/],
    [new Map(), /got a Map/],
    [() => 1, /got a function/],
    [new Blob(['x']), /got a Blob \(use hashStream/],
    [Readable.from(['x']), /use hashStream/],
  ];
  for (const [value, message] of bad) {
    for (const call of [() => sha1dc(value), () => createHasher().update(value)]) {
      assert.throws(call, (e) => {
        assert.ok(e instanceof TypeError, `${String(e)}`);
        assert.match(e.message, message);
        assert.match(e.message, /Uint8Array, ArrayBuffer, DataView, another TypedArray view, a Node Buffer or a string/);
        return true;
      });
    }
  }
});

test('a detached buffer, or a view of one: a TypeError naming the argument, never an empty message hashed', () => {
  const detach = (ab) => {
    structuredClone(ab, { transfer: [ab] });
    return ab;
  };
  const views = {
    ArrayBuffer: (ab) => ab,
    Uint8Array: (ab) => new Uint8Array(ab),
    Uint32Array: (ab) => new Uint32Array(ab),
    DataView: (ab) => new DataView(ab),
    'Buffer over it': (ab) => Buffer.from(ab),
  };
  for (const [what, make] of Object.entries(views)) {
    const ab = new ArrayBuffer(8);
    const input = make(ab);
    detach(ab);
    // Before: V8's "Cannot perform Construct on a detached ArrayBuffer", or the empty
    // message's SHA-1 for a typed array (which reads as empty once detached).
    const message = what === 'ArrayBuffer' ? /^sha1dc: data is a detached ArrayBuffer \(its memory was transferred away/ : /^sha1dc: data is a \w+ over a detached ArrayBuffer/;
    assert.throws(() => sha1dc(input), { name: 'TypeError', message }, what);
    assert.throws(() => createHasher().update(input), { name: 'TypeError', message: /^sha1dc: chunk is .*detached ArrayBuffer/ }, what);
  }
  // An empty input that is not detached is still the empty message.
  assert.equal(sha1dc(new Uint8Array(0)).hex, 'da39a3ee5e6b4b0d3255bfef95601890afd80709');
  assert.equal(sha1dc(new ArrayBuffer(0)).hex, 'da39a3ee5e6b4b0d3255bfef95601890afd80709');
  assert.equal(sha1dc(new DataView(new ArrayBuffer(0))).hex, 'da39a3ee5e6b4b0d3255bfef95601890afd80709');
});

test('digest(encoding), the node:crypto habit: what node:crypto gives for each of its encodings, bytes; a TypeError for anything else', () => {
  // Before: digest('hex') silently returned the result object; digest('binary') returned bytes
  // where node:crypto returns a latin1 string.
  for (const enc of ['hex', 'base64', 'base64url', 'binary', 'latin1']) {
    for (const input of ['abc', SHATTERED]) {
      const want = createHash('sha1').update(input).digest(enc);
      assert.equal(createHasher({ safeHash: false }).update(input).digest(enc), want, enc);
    }
  }
  const b = createHasher().update('abc').digest('bytes');
  assert.ok(b instanceof Uint8Array);
  assert.deepEqual([...b], [...Buffer.from(ABC, 'hex')]);
  // The output: the safe hash on a collision (digest() tells of the collision).
  assert.equal(createHasher().update(SHATTERED).digest('hex'), '16e96b70000dd1e7c85b8368ee197754400e58ec');
  assert.equal(createHasher({ safeHash: false }).update(SHATTERED).digest('hex'), '38762cf7f55934b34d179ae6a4c80cadccbb7f0a');
  const h = createHasher().update('abc');
  for (const bad of ['HEX', 'utf8', 1, null, {}]) {
    assert.throws(() => h.digest(bad), { name: 'TypeError', message: /^sha1dc: digest\(\) encoding must be "hex", "base64", "base64url", "binary", "latin1", "bytes", or nothing for the result object; got / }, String(bad));
  }
  assert.throws(() => h.digest('utf8'), { message: /got "utf8"$/ });
  // A bad encoding spends nothing.
  assert.equal(h.digest('hex'), ABC);
});

test('bad options are TypeErrors', () => {
  const bad = [
    ['yes', /options must be an object; got a string/],
    [[], /options must be an object; got an Array/],
    [{ safehash: false }, /unknown option "safehash"/],
    [{ safeHash: 'no' }, /safeHash must be a boolean; got a string/],
    [{ reducedRound: 1 }, /reducedRound must be a boolean; got number 1/],
    [{ gitBlob: null }, /gitBlob must be a boolean; got null/],
    [{ size: '3' }, /size must be a non-negative safe integer; got a string/],
    [{ signal: new AbortController().signal }, /unknown option "signal" for sha1dc\(\)|unknown option "signal" for createHasher\(\)/],
  ];
  for (const [options, message] of bad) {
    assert.throws(() => sha1dc('abc', options), { name: 'TypeError', message }, JSON.stringify(options));
    assert.throws(() => createHasher(options), { name: 'TypeError', message });
  }
  // A number out of range is a RangeError.
  for (const size of [-1, 1.5, 2 ** 53, NaN, Infinity]) {
    const message = new RegExp(`option size must be a non-negative safe integer; got number ${size}$`);
    assert.throws(() => sha1dc('abc', { size }), { name: 'RangeError', message }, String(size));
    assert.throws(() => createHasher({ size }), { name: 'RangeError', message });
  }
  assert.deepEqual(sha1dc('abc', null), sha1dc('abc'));
  assert.deepEqual(sha1dc('abc', {}), sha1dc('abc'));
  assert.throws(() => createHasher({ gitBlob: true }), { name: 'TypeError', message: /needs options.size/ });
});

test('createHasher: chaining, digest ends it, clear errors after', () => {
  const h = createHasher();
  assert.equal(h.update('a'), h);
  h.update(new Uint8Array([98])).update('c');
  assert.equal(h.bytesHashed, 3);
  assert.equal(h.digest().hex, ABC);
  assert.equal(h.bytesHashed, 3);
  assert.throws(() => h.update('x'), { name: 'TypeError', message: /^sha1dc: update\(\) after digest\(\): this hasher is finished/ });
  assert.throws(() => h.digest(), { name: 'TypeError', message: /^sha1dc: digest\(\) after digest\(\)/ });
  const freed = createHasher();
  freed.update('abc');
  freed.free();
  freed.free();
  // Before: "update() after digest()" for a hasher that was freed.
  assert.throws(() => freed.update('x'), { name: 'TypeError', message: /^sha1dc: update\(\) after free\(\): this hasher was freed; create a new one/ });
  assert.throws(() => freed.digest(), { name: 'TypeError', message: /^sha1dc: digest\(\) after free\(\)/ });
  assert.throws(() => freed.digest('hex'), { name: 'TypeError', message: /^sha1dc: digest\(\) after free\(\)/ });
  // A bad chunk leaves the hasher usable.
  const k = createHasher();
  k.update('ab');
  assert.throws(() => k.update(1), TypeError);
  assert.equal(k.update('c').digest().hex, ABC);
  // Many hashers at once, interleaved.
  const hs = Array.from({ length: 50 }, () => createHasher());
  for (const x of hs) x.update('a');
  for (const x of hs) x.update('bc');
  for (const x of hs) assert.equal(x.digest().hex, ABC);
});

test('createHasher across the 64 KiB a hasher holds in JavaScript: every size and chunking gives sha1dc()\'s result', () => {
  const cut = (n, pieces) => [0, ...Array.from({ length: pieces }, (_, i) => Math.floor((n * (i + 1)) / (pieces + 1))), n];
  for (const n of [0, 1, 65_535, 65_536, 65_537, 200_000]) {
    const b = bytes(n, n + 3);
    for (const options of [undefined, { gitBlob: true, size: n }, { reducedRound: true, safeHash: false }]) {
      const want = sha1dc(b, options && { ...options, size: undefined });
      for (const pieces of [0, 1, 7]) {
        const h = createHasher(options);
        const at = cut(n, pieces);
        for (let i = 0; i + 1 < at.length; i++) {
          h.update(b.subarray(at[i], at[i + 1]));
          assert.equal(h.bytesHashed, at[i + 1]);
        }
        assert.deepEqual(h.digest(), want, `${n} bytes in ${pieces + 1} pieces, ${JSON.stringify(options)}`);
      }
    }
  }
  // Held bytes are a copy: the caller may reuse its buffer at once.
  const buf = new Uint8Array(3).fill(0x61);
  const h = createHasher().update(buf);
  buf.fill(0x62);
  assert.equal(h.digest('hex'), plainSha1('aaa'));
  // Strings held as UTF-8; a size mismatch found at digest() when nothing went to wasm yet.
  assert.equal(createHasher().update('hé').update('llo').digest('hex'), plainSha1('héllo'));
  assert.throws(() => createHasher({ size: 4 }).update('abc').digest(), { name: 'RangeError', message: /options\.size\) was 4 bytes, but 3 bytes were hashed/ });
});

test('hashers dropped without digest() or free() in a long synchronous loop do not pile up in wasm memory', () => {
  // Before: each one held a RawHasher in wasm memory, which wasm-bindgen's FinalizationRegistry
  // frees only once the loop yields, and each next one came slower.
  const message = new Uint8Array(64);
  const before = process.memoryUsage().rss;
  for (let i = 0; i < 200_000; i++) createHasher().update(message);
  const grown = (process.memoryUsage().rss - before) / 2 ** 20;
  assert.ok(grown < 32, `the resident set grew by ${grown.toFixed(1)} MiB over 200,000 dropped hashers`);
});

test('gitBlob: git object ids (DERIVED.tsv), size given or taken', async () => {
  for (const { input: what, sha1_plain_hex: sha1, sha1dc_output_hex: out } of readTsv('DERIVED.tsv')) {
    const file = data(what.split('+ ')[1]);
    assert.equal(sha1dc(file, { gitBlob: true }).hex, out, what);
    assert.equal(sha1dc(file, { gitBlob: true }).sha1, sha1, what);
    const h = createHasher({ gitBlob: true, size: file.length });
    assert.equal(h.update(file.subarray(0, 10)).update(file.subarray(10)).digest().hex, out, what);
    assert.equal((await hashStream(new Blob([file]), { gitBlob: true })).hex, out, `${what} Blob`);
    assert.equal((await hashStream(Readable.from([file]), { gitBlob: true, size: file.length })).hex, out);
  }
  // The empty blob, as `git hash-object /dev/null` prints it.
  assert.equal(sha1dc('', { gitBlob: true }).hex, 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  assert.equal(sha1dc('hello\n', { gitBlob: true }).hex, 'ce013625030ba8dba906f756967f9e9ca394464a');
});

test('a size mismatch throws a RangeError naming options.size at digest()', async () => {
  const h = createHasher({ gitBlob: true, size: 5 });
  h.update('abc');
  assert.throws(() => h.digest(), { name: 'RangeError', message: 'sha1dc: the size given (options.size) was 5 bytes, but 3 bytes were hashed' });
  assert.throws(() => h.update('x'), { name: 'TypeError', message: /finished/ });
  assert.throws(() => sha1dc('abcd', { size: 3 }), { name: 'RangeError', message: /options.size\) was 3 bytes, but 4/ });
  assert.throws(() => createHasher({ size: 2 }).update('abc').digest('hex'), RangeError);
  assert.equal(createHasher({ size: 3 }).update('abc').digest().hex, ABC);
  await assert.rejects(hashStream(Readable.from(['abc']), { gitBlob: true, size: 4 }), { name: 'RangeError', message: /was 4 bytes, but 3/ });
  await assert.rejects(hashStream(Readable.from(['abc']), { gitBlob: true }), { name: 'TypeError', message: /needs options.size/ });
});

/** Chunks of `b` as an async generator. */
async function* pieces(b, size) {
  for (let at = 0; at < b.length; at += size) {
    await null;
    yield b.subarray(at, at + size);
  }
}

/** `data` in chunks of `n` bytes, each yielded in the one buffer the generator refills. */
async function* refilling(data, n) {
  const buffer = new Uint8Array(n);
  for (let at = 0; at < data.length; at += n) {
    const chunk = data.subarray(at, at + n);
    buffer.set(chunk);
    yield buffer.subarray(0, chunk.length);
  }
}

test('hashStream: every kind of source, with progress', async () => {
  const want = sha1dc(SHATTERED);
  const sources = {
    'Node Readable (fs)': () => createReadStream(`${DATA}/shattered-1.pdf`, { highWaterMark: 10_000 }),
    'Node Readable (Buffer chunks)': () => Readable.from(pieces(SHATTERED, 4096)),
    ReadableStream: () => Readable.toWeb(Readable.from(pieces(SHATTERED, 65_536))),
    'ReadableStream (hand-made, odd chunks)': () =>
      new ReadableStream({
        start(c) {
          for (let at = 0; at < SHATTERED.length; at += 333) c.enqueue(SHATTERED.subarray(at, at + 333));
          c.close();
        },
      }),
    Blob: () => new Blob([SHATTERED.subarray(0, 1000), SHATTERED.subarray(1000)]),
    File: () => new File([SHATTERED], 'shattered-1.pdf'),
    'async generator': () => pieces(SHATTERED, 77_777),
    'async generator refilling one buffer': () => refilling(SHATTERED, 4096),
  };
  for (const [what, make] of Object.entries(sources)) {
    const seen = [];
    const r = await hashStream(make(), {}, (n) => seen.push(n));
    assert.deepEqual(r, want, what);
    assert.ok(seen.length >= 1, what);
    assert.equal(seen.at(-1), SHATTERED.length, what);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] > seen[i - 1], `${what}: progress increases`);
  }
  // On one worker too, a chunk is hashed before the next is asked for.
  assert.deepEqual(await hashStream(refilling(SHATTERED, 4096), { worker: false }), want);
  // The two-argument form, options omitted.
  const seen = [];
  assert.deepEqual(await hashStream(pieces(SHATTERED, 50_000), (n) => seen.push(n)), want);
  assert.equal(seen.at(-1), SHATTERED.length);
  // String chunks (a Node stream with an encoding) are UTF-8.
  assert.equal((await hashStream(Readable.from(['ab', 'c']))).hex, ABC);
  assert.equal((await hashStream(Readable.from(['héllo'].values()))).hex, plainSha1(Buffer.from('héllo')));
  // Options reach it.
  assert.equal((await hashStream(new Blob([SHATTERED]), { safeHash: false })).hex, want.sha1);
  assert.equal((await hashStream(new Blob([]))).hex, 'da39a3ee5e6b4b0d3255bfef95601890afd80709');
});

test('hashStream: a source that fails half-way rejects with its error', async () => {
  const boom = new Error('disk on fire');
  async function* failing() {
    yield bytes(100_000);
    throw boom;
  }
  await assert.rejects(hashStream(failing()), (e) => e === boom);
  let cancelled = null;
  const rs = new ReadableStream({
    pull(c) {
      c.enqueue(bytes(1000));
      if (!this.n) this.n = 0;
      if (++this.n === 3) c.error(boom);
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  await assert.rejects(hashStream(rs), (e) => e === boom);
  // A bad chunk: a TypeError, and the stream is cancelled.
  const bad = new ReadableStream({
    pull(c) {
      c.enqueue(42);
    },
    cancel(reason) {
      cancelled = reason ?? 'cancelled';
    },
  });
  await assert.rejects(hashStream(bad), { name: 'TypeError', message: /each chunk of the stream must be .*got number 42/ });
  assert.ok(cancelled);
  // onProgress throwing stops it with that error.
  const stop = new Error('stop');
  await assert.rejects(
    hashStream(pieces(bytes(10_000), 1000), {}, () => {
      throw stop;
    }),
    (e) => e === stop,
  );
  // Errors leave the module working.
  assert.equal(sha1dc('abc').hex, ABC);
});

test('hashStream: bad sources and callbacks are TypeErrors', async () => {
  for (const source of [undefined, null, 'text', new Uint8Array(3), [new Uint8Array(3)], {}]) {
    await assert.rejects(hashStream(source), { name: 'TypeError', message: /hashStream source must be a ReadableStream, a Blob or File, or an async iterable/ });
  }
  await assert.rejects(hashStream(new Uint8Array(3)), /use sha1dc\(\) for data in memory/);
  await assert.rejects(hashStream(new Blob([]), {}, 'no'), { name: 'TypeError', message: /onProgress must be a function/ });
  await assert.rejects(hashStream(new Blob([]), { bogus: 1 }), { name: 'TypeError', message: /unknown option/ });
});

/** Counts RawHasher frees. */
async function countFrees(run) {
  const free = glue.RawHasher.prototype.free;
  let frees = 0;
  glue.RawHasher.prototype.free = function () {
    frees++;
    return free.call(this);
  };
  try {
    await run();
  } finally {
    glue.RawHasher.prototype.free = free;
  }
  return frees;
}

test('hashStream: an AbortSignal rejects with its reason, stops the source, frees the hasher', async () => {
  // Already aborted: nothing is read.
  const early = new AbortController();
  early.abort(new Error('not wanted'));
  let pulled = 0;
  const lazy = new ReadableStream({ pull(c) { pulled++; c.enqueue(bytes(10)); } }, { highWaterMark: 0 });
  await assert.rejects(hashStream(lazy, { signal: early.signal }), { message: 'not wanted' });
  assert.equal(pulled, 0);

  // Aborted while the source stalls: the promise rejects at once, the stream is cancelled with
  // the reason, the hasher is freed.
  for (const kind of ['ReadableStream', 'async generator', 'Node Readable']) {
    const ac = new AbortController();
    let cancelled = null;
    let returned = false;
    const never = new Promise(() => {});
    const sources = {
      ReadableStream: () =>
        new ReadableStream({
          start(c) { c.enqueue(bytes(1000)); },
          cancel(reason) { cancelled = reason; },
        }),
      'async generator': () =>
        (async function* () {
          try {
            yield bytes(1000);
            await never;
          } finally {
            returned = true;
          }
        })(),
      'Node Readable': () => new Readable({ read() { if (!this.sent) { this.sent = true; this.push(bytes(1000)); } } }),
    };
    const source = sources[kind]();
    const reason = new DOMException('stopped by the user', 'AbortError');
    const seen = [];
    const frees = await countFrees(async () => {
      const p = hashStream(source, { signal: ac.signal }, (n) => {
        seen.push(n);
        setTimeout(() => ac.abort(reason), 20);
      });
      await assert.rejects(p, (e) => e === reason, kind);
    });
    assert.deepEqual(seen, [1000], kind);
    assert.equal(frees, 1, `${kind}: the hasher was freed`);
    if (kind === 'ReadableStream') assert.equal(cancelled, reason);
    if (kind === 'Node Readable') assert.ok(source.destroyed, 'the Node stream is destroyed');
    if (kind === 'async generator') {
      // Its return() runs once the pending next() settles, which never happens: it was asked.
      assert.equal(returned, false);
    }
  }

  // Aborted from onProgress (between chunks): the same.
  const ac = new AbortController();
  await assert.rejects(
    hashStream(pieces(bytes(10_000), 1000), { signal: ac.signal }, (n) => n >= 3000 && ac.abort()),
    { name: 'AbortError' },
  );
  // A signal that never fires changes nothing; a listener is not left behind.
  const quiet = new AbortController();
  assert.equal((await hashStream(new Blob(['abc']), { signal: quiet.signal })).hex, ABC);
  assert.equal((await hashStream(new Blob(['abc']), { signal: AbortSignal.timeout(60_000) })).hex, ABC);
  // Not a signal: a TypeError naming it.
  await assert.rejects(hashStream(new Blob([]), { signal: 'stop' }), { name: 'TypeError', message: /option signal must be an AbortSignal; got a string/ });
  await assert.rejects(hashStream(new Blob([]), { signal: null }), { name: 'TypeError', message: /option signal must be an AbortSignal; got null/ });
  assert.equal(sha1dc('abc').hex, ABC);
});

test('every way a hashStream ends frees its hasher', async () => {
  const frees = await countFrees(async () => {
    await hashStream(new Blob(['abc']));
    await assert.rejects(hashStream(Readable.from(['abc']), { gitBlob: true, size: 4 }));
    await assert.rejects(hashStream((async function* () { yield 'a'; throw new Error('x'); })()));
    await assert.rejects(hashStream(Readable.from([42])));
  });
  assert.equal(frees, 4);
});

test('hashStream runs in constant memory over a large stream', async () => {
  const chunk = bytes(1 << 20, 9);
  const total = 64;
  async function* many() {
    for (let i = 0; i < total; i++) yield chunk;
  }
  const before = process.memoryUsage().rss;
  const r = await hashStream(many());
  const grew = process.memoryUsage().rss - before;
  const h = createHasher();
  for (let i = 0; i < total; i++) h.update(chunk);
  assert.deepEqual(r, h.digest());
  assert.ok(grew < 32 * 1024 * 1024, `RSS grew by ${grew} bytes hashing 64 MiB`);
});
