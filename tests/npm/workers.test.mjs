// The hasher's two halves (createFilter, Hasher.updateWithMasks) and hashStream on two workers
// in Node: the one-worker result on random messages, random chunkings and every mode, the
// public collisions split across chunks; clear errors for bad input; a filter worker that dies,
// a source that fails and an abort all reject and leave no worker running; 'auto' starts the
// filter worker for a large stream of known size, and only then.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { ReadableStream } from 'node:stream/web';
import { test } from 'node:test';
import workerThreads from 'node:worker_threads';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PKG_DIR } from '../shared.mjs';
import { api, bytes, data, rng } from './helpers.mjs';

const { sha1dc, createHasher, createFilter, hashStream } = api;
const FILTER_WORKER = join(PKG_DIR, 'filter-worker-node.mjs');
const MiB = 1 << 20;

/** The public collisions (each caught at the start of a message) and the reduced-round block. */
const COLLISIONS = ['shattered-1.prefix320.bin', 'shattered-2.prefix320.bin', 'sha-mbles-1.bin', 'sha-mbles-2.bin', 'sha1_reducedsha_coll.bin'].map(data);
const MODES = [{}, { safeHash: false }, { reducedRound: true }, { reducedRound: true, safeHash: false }, { gitBlob: true }];

/** A public collision (or nothing) followed by `extra` random bytes. */
function message(next, extra) {
  const pick = next(COLLISIONS.length + 1);
  const head = COLLISIONS[pick] ?? new Uint8Array(0);
  const m = new Uint8Array(head.length + extra);
  m.set(head);
  m.set(bytes(extra, next(1 << 30) + 1), head.length);
  return m;
}

/** `m` cut into chunks of random sizes, tiny ones (inside a block) among them. */
function chunking(next, m) {
  const out = [];
  for (let at = 0; at < m.length; ) {
    const most = [3, 70, 300, 5000, 300_000][next(5)];
    const n = Math.min(1 + next(most), m.length - at);
    out.push(m.subarray(at, at + n));
    at += n;
  }
  return out;
}

/** `options` with the size a git blob needs. */
const sized = (options, m) => (options.gitBlob ? { ...options, size: m.length } : options);

test('the halves: filter and updateWithMasks with random chunkings give the one-worker result in every mode', () => {
  const next = rng(0x4a1f);
  for (const options of MODES) {
    for (let round = 0; round < 12; round++) {
      const m = message(next, next(round % 4 === 0 ? 3 * MiB : 20_000));
      const want = sha1dc(m, options);
      const filter = createFilter(sized(options, m));
      const hasher = createHasher(sized(options, m));
      for (const chunk of chunking(next, m)) hasher.updateWithMasks(chunk, filter.filter(chunk));
      assert.equal(filter.bytesFiltered, m.length);
      assert.deepEqual(hasher.digest(), want, `${JSON.stringify(options)}, ${m.length} bytes`);
      filter.free();
    }
  }
});

test('the halves: masks for a chunk over the 1 MiB piece size, strings, and a hasher that took update() first', () => {
  const m = message(rng(3), 2 * MiB + 77);
  const want = sha1dc(m);
  const filter = createFilter();
  const masks = filter.filter(m);
  assert.ok(masks instanceof Uint32Array);
  assert.equal(masks.length, Math.floor(m.length / 64));
  assert.ok(masks.some((x) => x !== 0) && masks.filter((x) => x !== 0).length < masks.length / 8, 'candidates are rare');
  assert.deepEqual(createHasher().updateWithMasks(m, masks).digest(), want);
  // Strings are their UTF-8 bytes on both sides.
  const text = 'é'.repeat(100);
  assert.deepEqual(createHasher().updateWithMasks(text, createFilter().filter(text)).digest(), sha1dc(text));
  // The filter follows the message, not the calls: update() and updateWithMasks() mix.
  const f = createFilter();
  const h = createHasher();
  f.filter(m.subarray(0, 1000));
  h.update(m.subarray(0, 1000));
  h.updateWithMasks(m.subarray(1000), f.filter(m.subarray(1000)));
  assert.deepEqual(h.digest(), want);
});

test('the halves: a wrong mask count is a RangeError that hashes nothing; bad types and spent objects are TypeErrors', () => {
  const m = data('shattered-1.prefix320.bin');
  const masks = createFilter().filter(m);
  const h = createHasher();
  assert.throws(() => h.updateWithMasks(m, masks.subarray(1)), { name: 'RangeError', message: /completes 5 blocks and needs a mask for each.*got 4$/ });
  assert.throws(() => h.updateWithMasks(m.subarray(0, 63), new Uint32Array(1)), { name: 'RangeError', message: /completes 0 blocks.*got 1$/ });
  assert.equal(h.bytesHashed, 0, 'nothing was hashed');
  for (const bad of [undefined, [0, 0, 0, 0, 0], new Int32Array(5), masks.buffer]) {
    assert.throws(() => h.updateWithMasks(m, bad), { name: 'TypeError', message: /masks must be the Uint32Array a filter gave/ });
  }
  assert.throws(() => h.updateWithMasks(42, masks), { name: 'TypeError', message: /chunk must be .*got number 42/ });
  assert.deepEqual(h.updateWithMasks(m, masks).digest(), sha1dc(m), 'the errors changed nothing');
  assert.throws(() => h.updateWithMasks(m, masks), { name: 'TypeError', message: /updateWithMasks\(\) after digest\(\)/ });
  const freed = createHasher();
  freed.free();
  assert.throws(() => freed.updateWithMasks(m, masks), { name: 'TypeError', message: /updateWithMasks\(\) after free\(\)/ });
  const f = createFilter();
  assert.throws(() => f.filter({}), { name: 'TypeError', message: /chunk must be/ });
  f.free();
  f.free();
  assert.throws(() => f.filter(m), { name: 'TypeError', message: /filter\(\) after free\(\)/ });
  assert.throws(() => createFilter({ gitBlob: true }), { name: 'TypeError', message: /createFilter\(\{ gitBlob: true \}\) needs options.size/ });
  assert.throws(() => createFilter({ size: -1 }), { name: 'RangeError' });
  assert.throws(() => createFilter({ worker: true }), { name: 'TypeError', message: /unknown option "worker" for createFilter/ });
});

/**
 * Starts recording the worker_threads Workers created until `stop()`: the package's Node entry
 * looks its Worker class up when it starts one.
 */
function recordWorkers() {
  const Real = workerThreads.Worker;
  const started = [];
  workerThreads.Worker = class extends Real {
    constructor(...args) {
      super(...args);
      const exited = new Promise((resolve) => this.once('exit', resolve));
      started.push({ worker: this, exited });
    }
  };
  return {
    started,
    stop() {
      workerThreads.Worker = Real;
    },
    /** Every recorded worker has exited (within `ms`). */
    async allExited(ms = 5000) {
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('a filter worker is still running')), ms).unref());
      await Promise.race([Promise.all(started.map((s) => s.exited)), timeout]);
    },
  };
}

/** `chunks` as an async generator, a tick between chunks. */
async function* generate(chunks) {
  for (const c of chunks) {
    await null;
    yield c;
  }
}

test('hashStream on two workers: random messages, sources and chunkings give the one-worker result in every mode', async () => {
  const rec = recordWorkers();
  try {
    const next = rng(0x5eed);
    let runs = 0;
    for (const options of MODES) {
      for (let round = 0; round < 4; round++) {
        const m = message(next, next([2000, 900_000, 3 * MiB][round % 3]));
        const chunks = chunking(next, m);
        const sources = {
          'async generator': () => generate(chunks),
          'Node Readable': () => Readable.from(chunks),
          ReadableStream: () => new ReadableStream({ start(c) { chunks.forEach((x) => c.enqueue(x)); c.close(); } }),
          Blob: () => new Blob(chunks),
        };
        const kind = Object.keys(sources)[round];
        const want = await hashStream(sources[kind](), { ...sized(options, m), worker: false });
        assert.deepEqual(want, sha1dc(m, options));
        const seen = [];
        const got = await hashStream(sources[kind](), { ...sized(options, m), worker: true }, (n) => seen.push(n));
        assert.deepEqual(got, want, `${kind}, ${JSON.stringify(options)}, ${m.length} bytes in ${chunks.length} chunks`);
        if (m.length > 0) assert.equal(seen.at(-1), m.length);
        for (let i = 1; i < seen.length; i++) assert.ok(seen[i] > seen[i - 1], 'progress only grows');
        runs++;
      }
    }
    assert.equal(rec.started.length, runs, 'one filter worker per two-worker hash');
    await rec.allExited();
  } finally {
    rec.stop();
  }
});

test("hashStream's worker option: 'auto' starts a filter worker for a stream of known size from 16 MiB, and only then", async () => {
  const rec = recordWorkers();
  try {
    const large = bytes(16 * MiB + 5, 11);
    const want = sha1dc(large);
    assert.deepEqual(await hashStream(new Blob([large])), want);
    assert.equal(rec.started.length, 1, 'a Blob of 16 MiB: the filter worker hashed it');
    assert.deepEqual(await hashStream(generate([large.subarray(0, 100), large.subarray(100)]), { size: large.length }), want);
    assert.equal(rec.started.length, 2, 'a stream with options.size: the filter worker hashed it');
    assert.deepEqual(await hashStream(generate([large])), want);
    assert.deepEqual(await hashStream(new Blob([large.subarray(0, 16 * MiB - 1)])), sha1dc(large.subarray(0, 16 * MiB - 1)));
    assert.deepEqual(await hashStream(new Blob([large]), { worker: false }), want);
    assert.equal(rec.started.length, 2, 'size unknown, below 16 MiB or worker: false: no worker');
    // A function starts the caller's own worker.
    let calls = 0;
    const own = () => {
      calls++;
      return new workerThreads.Worker(FILTER_WORKER);
    };
    assert.deepEqual(await hashStream(generate([large.subarray(0, 1000)]), { worker: own }), sha1dc(large.subarray(0, 1000)));
    assert.equal(calls, 1);
    await rec.allExited();
    await assert.rejects(hashStream(new Blob([]), { worker: 'yes' }), { name: 'TypeError', message: /option worker must be true, false, 'auto' or a function/ });
  } finally {
    rec.stop();
  }
});

test("hashStream on two workers over Node's file-backed Blobs (fs.openAsBlob), which no worker can be handed: read here, filtered there", async (t) => {
  if (typeof fs.openAsBlob !== 'function') {
    // Node 18 has no file-backed Blob: nothing of this kind can reach hashStream there.
    assert.ok(process.versions.node.startsWith('18.'), 'fs.openAsBlob exists from Node 19.8');
    t.diagnostic('fs.openAsBlob: not in this Node');
    return;
  }
  const rec = recordWorkers();
  const dir = fs.mkdtempSync(join(tmpdir(), 'sha1dc-wasm-blob-'));
  try {
    const large = bytes(16 * MiB + 5, 12);
    const path = join(dir, 'large.bin');
    fs.writeFileSync(path, large);
    const want = sha1dc(large);
    assert.deepEqual(await hashStream(await fs.openAsBlob(path), { worker: true }), want);
    assert.equal(rec.started.length, 1, 'worker: true: the filter worker hashed it');
    assert.deepEqual(await hashStream(await fs.openAsBlob(path)), want);
    assert.equal(rec.started.length, 2, "'auto', 16 MiB: the filter worker hashed it");
    // 'auto' still takes a worker for the next large stream.
    assert.deepEqual(await hashStream(generate([large]), { size: large.length }), want);
    assert.equal(rec.started.length, 3, "'auto' goes on starting filter workers");
    const pdf = join(dir, 'shattered-1.pdf');
    fs.writeFileSync(pdf, data('shattered-1.pdf'));
    const got = await hashStream(await fs.openAsBlob(pdf), { worker: true });
    assert.deepEqual(got, sha1dc(data('shattered-1.pdf')));
    assert.ok(got.collision, 'the collision is found on two workers');
    await rec.allExited();
  } finally {
    rec.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('hashStream on two workers: a worker that dies, a source that fails, an abort: each rejects and no worker is left', async () => {
  const rec = recordWorkers();
  try {
    const m = bytes(4 * MiB, 5);
    /** A slow source: the worker has chunks in flight when things go wrong. */
    async function* slow(fail) {
      for (let at = 0; at < m.length; at += 256 << 10) {
        await new Promise((r) => setTimeout(r, 5));
        if (fail && at >= 2 * MiB) throw fail;
        yield m.subarray(at, at + (256 << 10));
      }
    }
    // Killed from outside half way.
    const killed = hashStream(slow(), {
      worker: () => {
        const w = new workerThreads.Worker(FILTER_WORKER);
        setTimeout(() => w.terminate(), 40);
        return w;
      },
    });
    await assert.rejects(killed, { message: /the filter worker of hashStream exited/ });
    // An uncaught error in the worker.
    const crashing = `import('${new URL(`file://${FILTER_WORKER}`).href}').then(() => setTimeout(() => { throw new Error('worker on fire'); }, 40));`;
    await assert.rejects(hashStream(slow(), { worker: () => new workerThreads.Worker(crashing, { eval: true }) }), { message: /filter worker of hashStream failed: worker on fire/ });
    // A worker that never loads: with worker: true (or a function) the promise rejects...
    await assert.rejects(hashStream(slow(), { worker: () => new workerThreads.Worker('/nonexistent/filter-worker.mjs') }), { message: /filter worker of hashStream failed/ });
    // A worker function that returns no worker: named, with what it returned.
    for (const [made, what] of [[null, /returned null/], [{}, /returned an? /]]) {
      await assert.rejects(hashStream(slow(), { worker: () => made }), { name: 'TypeError', message: new RegExp(`worker function must return a Worker.*${what.source}`) });
    }
    // A source that fails half way.
    const boom = new Error('disk on fire');
    await assert.rejects(hashStream(slow(boom), { worker: true }), (e) => e === boom);
    // An abort half way.
    const ac = new AbortController();
    const reason = new Error('stopped by the user');
    await assert.rejects(hashStream(slow(), { worker: true, signal: ac.signal }, (n) => n >= MiB && ac.abort(reason)), (e) => e === reason);
    // An abort while the worker starts.
    const early = new AbortController();
    const starting = hashStream(new Blob([m]), { worker: true, signal: early.signal });
    early.abort(reason);
    await assert.rejects(starting, (e) => e === reason);
    await rec.allExited();
    assert.ok(rec.started.length >= 6, `${rec.started.length} workers recorded`);
    // All of it left the module working.
    assert.deepEqual(await hashStream(new Blob([m]), { worker: true }), sha1dc(m));
    await rec.allExited();
  } finally {
    rec.stop();
  }
});

test("hashStream 'auto' falls back to one worker when the filter worker cannot start", async () => {
  const Real = workerThreads.Worker;
  let tried = 0;
  workerThreads.Worker = class extends Real {
    constructor() {
      tried++;
      super('/nonexistent/filter-worker.mjs');
    }
  };
  try {
    const large = bytes(16 * MiB, 2);
    assert.deepEqual(await hashStream(new Blob([large])), sha1dc(large));
    assert.equal(tried, 1);
    await assert.rejects(hashStream(new Blob([large]), { worker: true }), { message: /filter worker of hashStream failed/ });
  } finally {
    workerThreads.Worker = Real;
  }
});

test("the filter worker starts whatever Node options the program runs with (it takes none of them)", () => {
  const code = `const { hashStream } = await import(${JSON.stringify(join(PKG_DIR, 'node.mjs'))});
    console.log((await hashStream(new Blob(['abc']), { worker: true })).hex);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  assert.equal(out.trim(), sha1dc('abc').hex);
});

test('hashStream on two workers runs in constant memory over a large stream', async () => {
  const chunk = bytes(MiB, 9);
  // A new chunk each time, as a file's stream gives: nothing may keep them.
  async function* many(total) {
    for (let i = 0; i < total; i++) yield chunk.slice();
  }
  const h = createHasher();
  for (let i = 0; i < 160; i++) h.update(chunk);
  const want = h.digest();
  // A worker's heap and wasm memory once, on a short stream; then nothing may grow with one.
  await hashStream(many(2), { worker: true });
  const before = process.memoryUsage().rss;
  assert.deepEqual(await hashStream(many(160), { worker: true }), want);
  const grew = process.memoryUsage().rss - before;
  assert.ok(grew < 40 * MiB, `RSS grew by ${grew} bytes hashing 160 MiB`);
});
