// sha1dcMany, the batch API: every result equal to sha1dc's for the same message and options,
// collisions flagged wherever they sit in a batch, large batches split, clear errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sha1 as plainSha1 } from '../shared.mjs';
import { ENTRY, api, bytes, data, glue, rng } from './helpers.mjs';

const { sha1dc, sha1dcMany } = api;

const MODES = [
  undefined,
  {},
  { safeHash: false },
  { reducedRound: true },
  { safeHash: false, reducedRound: true },
  { gitBlob: true },
  { gitBlob: true, reducedRound: true },
  { gitBlob: true, safeHash: false },
];

/** Messages of random lengths 0..20 KiB, some at a lane's block edges. */
function randomMessages(count, seed) {
  const next = rng(seed);
  const edges = [0, 1, 55, 56, 63, 64, 65, 119, 120, 128];
  return Array.from({ length: count }, (_, i) => bytes(i % 7 === 0 ? edges[next(edges.length)] : next(20 * 1024 + 1), seed * 100_003 + i));
}

test('random lengths 0..20 KiB: every result deep-equals sha1dc() of that message, in every mode', () => {
  const messages = randomMessages(300, 11);
  for (const options of MODES) {
    const got = sha1dcMany(messages, options);
    assert.equal(got.length, messages.length);
    messages.forEach((m, i) => assert.deepEqual(got[i], sha1dc(m, options), `message ${i} (${m.length} bytes), ${JSON.stringify(options)}`));
  }
  // The plain SHA-1 of each, from node:crypto.
  sha1dcMany(messages).forEach((r, i) => assert.equal(r.sha1, plainSha1(messages[i])));
});

test('the result objects are sha1dc()\'s: String() is hex, JSON has no bytes, the bytes are a copy of their own', () => {
  const [r] = sha1dcMany(['abc']);
  assert.equal(`${r}`, 'a9993e364706816aba3e25717850c26c9cd0d89d');
  assert.equal(JSON.stringify(r), JSON.stringify(sha1dc('abc')));
  assert.equal(r.bytes.buffer.byteLength, 20);
  assert.equal(Object.getPrototypeOf(r), Object.getPrototypeOf(sha1dc('abc')));
});

test('every accepted input type, mixed in one batch, and strings as UTF-8', () => {
  const b = bytes(1000, 7);
  const padded = new Uint8Array(1016);
  padded.set(b, 8);
  const shared = new SharedArrayBuffer(1000);
  new Uint8Array(shared).set(b);
  const inputs = [
    b,
    Buffer.from(b),
    b.slice().buffer,
    shared,
    new DataView(padded.buffer, 8, 1000),
    padded.subarray(8, 1008),
    new Uint16Array(padded.buffer, 8, 500),
    new Float64Array(padded.buffer, 8, 125),
    new Uint8ClampedArray(b),
    '',
    'abc',
    'héllo wörld',
    '😀 emoji',
    '\ud800 lone',
    'x'.repeat(70_000),
  ];
  const got = sha1dcMany(inputs);
  inputs.forEach((input, i) => assert.deepEqual(got[i], sha1dc(input), `input ${i}`));
  for (let i = 0; i < 9; i++) assert.equal(got[i].hex, plainSha1(b), `input ${i} views the same bytes`);
  assert.equal(got[11].hex, plainSha1(Buffer.from('héllo wörld')));
  // Any iterable of inputs, not only an Array.
  assert.deepEqual(sha1dcMany(new Set(['abc', b])), [sha1dc('abc'), sha1dc(b)]);
  assert.deepEqual(sha1dcMany((function* () { yield 'a'; yield 'b'; })()), [sha1dc('a'), sha1dc('b')]);
});

const COLLIDING = ['shattered-1.pdf', 'shattered-2.pdf', 'sha-mbles-1.bin', 'sha-mbles-2.bin', 'shattered-1.prefix320.bin', 'shattered-2.prefix320.bin', 'sha1_reducedsha_coll.bin'];

test('the public collisions at random positions in a batch are flagged exactly as sha1dc() flags them', () => {
  const files = COLLIDING.map((name) => [name, data(name)]);
  for (let trial = 0; trial < 4; trial++) {
    const next = rng(trial + 1);
    const batch = randomMessages(60, 40 + trial).map((m) => ['random', m]);
    for (const file of files) batch.splice(next(batch.length + 1), 0, file);
    const messages = batch.map(([, m]) => m);
    for (const options of MODES) {
      const got = sha1dcMany(messages, options);
      const flagged = [];
      batch.forEach(([name, m], i) => {
        const want = sha1dc(m, options);
        assert.deepEqual(got[i], want, `${name} at ${i}, trial ${trial}, ${JSON.stringify(options)}`);
        if (got[i].collision) flagged.push(name);
      });
      // SHAttered and SHA-mbles always; the reduced-round example only with reducedRound. As git
      // blobs none collides (the header moves the colliding blocks off their 64-byte boundaries).
      const want = options?.gitBlob ? [] : COLLIDING.filter((n) => n !== 'sha1_reducedsha_coll.bin' || options?.reducedRound);
      assert.deepEqual(flagged.sort(), want.sort(), JSON.stringify(options));
    }
  }
  // The figures of the pair, as sha1dc gives them.
  const [a, b] = sha1dcMany([data('shattered-1.pdf'), data('shattered-2.pdf')]);
  assert.deepEqual(a.collision, { offset: 256, block: 4, dv: 'II(52,0)', count: 1 });
  assert.equal(a.sha1, b.sha1);
  assert.notEqual(a.hex, b.hex);
  const [blob] = sha1dcMany([data('sha-mbles-1.bin')], { gitBlob: true });
  assert.deepEqual(blob, sha1dc(data('sha-mbles-1.bin'), { gitBlob: true }));
});

test('an empty batch is an empty array', () => {
  assert.deepEqual(sha1dcMany([]), []);
  assert.deepEqual(sha1dcMany([], { gitBlob: true }), []);
  assert.deepEqual(sha1dcMany(new Set()), []);
  // Empty messages are messages.
  assert.deepEqual(sha1dcMany(['', new Uint8Array(0)]).map(String), ['da39a3ee5e6b4b0d3255bfef95601890afd80709', 'da39a3ee5e6b4b0d3255bfef95601890afd80709']);
});

test('wrong types: a TypeError naming the bad element\'s index, or saying what the batch must be', () => {
  const ok = new Uint8Array(3);
  for (const [bad, message] of [
    [42, /got number 42$/],
    [null, /got null$/],
    [undefined, /got undefined$/],
    [{}, /got an object/],
    ['abc', /got a string \(use sha1dc\(\) for one message\)$/],
    [new Uint8Array(3), /got a Uint8Array \(use sha1dc\(\) for one message\)$/],
    [new ArrayBuffer(3), /ArrayBuffer \(use sha1dc\(\) for one message\)$/],
  ]) {
    assert.throws(() => sha1dcMany(bad), (e) => {
      assert.ok(e instanceof TypeError, String(e));
      assert.match(e.message, /^sha1dc: sha1dcMany\(\) messages must be an array of inputs \(each a Uint8Array, ArrayBuffer, DataView, another TypedArray view, a Node Buffer or a string\); /);
      assert.match(e.message, message);
      return true;
    }, String(bad));
  }
  for (const [value, what] of [[42, 'number 42'], [null, 'null'], [undefined, 'undefined'], [[1], 'an Array of length 1'], [new Blob(['x']), 'a Blob \\(use hashStream']]) {
    const batch = [ok, 'x', ok, value, ok];
    assert.throws(() => sha1dcMany(batch), {
      name: 'TypeError',
      message: new RegExp(`^sha1dc: sha1dcMany\\(\\) messages\\[3\\] must be a Uint8Array, .*; got ${what}`),
    });
  }
  // A hole in a sparse array is undefined.
  assert.throws(() => sha1dcMany([ok, , ok]), { name: 'TypeError', message: /messages\[1\] must be .* got undefined$/ }); // eslint-disable-line no-sparse-arrays
  // A detached buffer is never hashed as the empty message.
  const ab = new ArrayBuffer(8);
  const view = new Uint8Array(ab);
  structuredClone(ab, { transfer: [ab] });
  assert.throws(() => sha1dcMany([ok, view]), { name: 'TypeError', message: /^sha1dc: sha1dcMany\(\) messages\[1\] is a Uint8Array over a detached ArrayBuffer/ });
  assert.throws(() => sha1dcMany([ab]), { name: 'TypeError', message: /^sha1dc: sha1dcMany\(\) messages\[0\] is a detached ArrayBuffer/ });
  // Options: sha1dc's, without size (each message has its own).
  assert.throws(() => sha1dcMany([ok], { size: 3 }), { name: 'TypeError', message: /unknown option "size" for sha1dcMany\(\); the options are safeHash, reducedRound, gitBlob$/ });
  assert.throws(() => sha1dcMany([ok], { gitBlob: 'yes' }), { name: 'TypeError', message: /gitBlob must be a boolean/ });
  assert.throws(() => sha1dcMany([ok], 'fast'), { name: 'TypeError', message: /sha1dcMany\(\) options must be an object/ });
  assert.deepEqual(sha1dcMany([ok], null), [sha1dc(ok)]);
});

/** Records the calls into wasm's batch hashing, RawCalls.hashMany (spied on in the Node entry's glue). */
function spyHashMany(run) {
  const proto = glue.RawCalls.prototype;
  const real = proto.hashMany;
  const calls = [];
  proto.hashMany = function (count, len, flags) {
    calls.push({ bytes: len, messages: count });
    return real.call(this, count, len, flags);
  };
  try {
    return { result: run(), calls };
  } finally {
    proto.hashMany = real;
  }
}

test('one call into wasm for a batch that fits; a larger one split, a message over the limit hashed alone', {
  skip: ENTRY !== 'node.mjs' && `${ENTRY}'s glue is an ES module, whose exports cannot be spied on (the batching is the same JavaScript for every entry)`,
}, () => {
  const small = randomMessages(50, 3);
  const one = spyHashMany(() => sha1dcMany(small));
  assert.equal(one.calls.length, 1, 'one crossing for the whole batch');
  assert.equal(one.calls[0].messages, 50);

  const LIMIT = 8 << 20;
  const next = rng(99);
  const messages = [];
  for (let i = 0; i < 40; i++) messages.push(bytes(200_000 + next(400_000), 500 + i)); // ~16 MB
  const huge = bytes(LIMIT + 4097, 77);
  messages.splice(17, 0, huge, data('shattered-2.pdf'));
  messages.push(data('sha-mbles-1.bin'), 'ü'.repeat(100));
  const { result, calls } = spyHashMany(() => sha1dcMany(messages));
  assert.ok(calls.length >= 2, `${calls.length} calls`);
  for (const c of calls) assert.ok(c.bytes <= LIMIT, `a call of ${c.bytes} bytes`);
  assert.equal(calls.reduce((n, c) => n + c.messages, 0), messages.length - 1, 'all but the huge message went in batches');
  messages.forEach((m, i) => assert.deepEqual(result[i], sha1dc(m), `message ${i}`));
  assert.equal(result[17].hex, plainSha1(huge));
  assert.ok(result[18].collision && result[42].collision);

  // Many tiny messages: split by count too.
  const tiny = Array.from({ length: 40_000 }, (_, i) => `m${i}`);
  const t = spyHashMany(() => sha1dcMany(tiny));
  assert.ok(t.calls.length >= 3, `${t.calls.length} calls for 40,000 messages`);
  for (const i of [0, 1, 16_383, 16_384, 39_999]) assert.deepEqual(t.result[i], sha1dc(tiny[i]), `message ${i}`);
});

test('results read from wasm memory stay right when the memory grows between and within calls', () => {
  // Each call writes its input into wasm memory and reads the results there: a batch larger
  // than any before grows the memory, which detaches the views made before it.
  const small = bytes(64, 5);
  const text = 'grow ü '.repeat(9);
  const first = sha1dc(small);
  assert.equal(first.hex, plainSha1(small));
  for (let mib = 1; mib <= 8; mib *= 2) {
    const batch = [bytes(mib << 20, mib), small, text, bytes(100, mib)];
    const results = sha1dcMany(batch);
    batch.forEach((m, i) => assert.equal(results[i].hex, plainSha1(m), `message ${i} of the ${mib} MiB batch`));
    assert.equal(sha1dc(small).hex, first.hex);
    assert.equal(sha1dc(text).hex, plainSha1(text));
    // The bytes of a result are its own copy, not a view of wasm memory.
    assert.equal(results[1].bytes.buffer.byteLength, 20);
  }
  assert.deepEqual([...first.bytes], [...Buffer.from(plainSha1(small), 'hex')]);
});
