// The page's worker pool (www/pool.js) and collision grouping (www/groups.js), in Node: neither
// needs the DOM, so the pool runs against fake workers that reply as the test tells them to.

import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { WorkerPool, BATCH_FILE_MAX, BATCH_FILES, BATCH_BYTES } from '../../www/pool.js';
import { collisionGroups } from '../../www/groups.js';

let workers;
class FakeWorker {
  constructor(url, options) {
    this.url = String(url);
    this.name = options.name;
    this.sent = [];
    this.terminated = false;
    workers.push(this);
  }
  postMessage(msg) { this.sent.push(msg); }
  terminate() { this.terminated = true; }
  reply(msg) { this.onmessage({ data: msg }); }
}
globalThis.Worker = FakeWorker;

const tick = () => new Promise((resolve) => setImmediate(resolve));

function makePool(size, cancelGraceMs) {
  const events = [];
  const log = (type) => (...args) => events.push([type, ...args]);
  const pool = new WorkerPool({
    size,
    url: new URL('http://localhost/worker.js'),
    cancelGraceMs,
    listener: Object.fromEntries(['ready', 'failed', 'started', 'progress', 'result', 'cancelled', 'error']
      .map((type) => [type, log(type)])),
  });
  return { pool, events };
}

const hashes = (w) => w.sent.filter((m) => m.type === 'hash').map((m) => m.id);

describe('WorkerPool', () => {
  beforeEach(() => { workers = []; });

  it('starts named workers and hands out jobs once they are ready, in order', async () => {
    const { pool, events } = makePool(2);
    assert.deepEqual(workers.map((w) => w.name), ['sha1dc-0', 'sha1dc-1']);
    const ids = [1, 2, 3].map((n) => pool.submit({ name: `f${n}` }, { gitBlob: false }));
    assert.deepEqual(ids, [1, 2, 3]);
    await tick();
    assert.deepEqual(events, [], 'nothing starts before a worker is ready');
    workers[0].reply({ type: 'ready', backend: 'simd128' });
    workers[1].reply({ type: 'ready', backend: 'simd128' });
    assert.equal(pool.backend, 'simd128');
    assert.deepEqual(events, [['ready', 'simd128'], ['started', 1], ['started', 2]], 'ready is reported once');
    assert.deepEqual(hashes(workers[0]), [1]);
    assert.deepEqual(hashes(workers[1]), [2]);
    assert.deepEqual(workers[0].sent[0], { type: 'hash', id: 1, file: { name: 'f1' }, options: { gitBlob: false } });

    workers[1].reply({ type: 'progress', id: 2, done: 5, total: 10, ms: 3 });
    workers[1].reply({ type: 'result', id: 2, result: { hex: 'ab' }, total: 10, ms: 7 });
    assert.deepEqual(events.slice(3), [['progress', 2, 5, 10, 3], ['result', 2, { hex: 'ab' }, 10, 7], ['started', 3]]);
    assert.deepEqual(hashes(workers[1]), [2, 3], 'the freed worker takes the next job');
  });

  it('drops a queued job at once and asks a running one to stop', async () => {
    const { pool, events } = makePool(1);
    workers[0].reply({ type: 'ready', backend: 'scalar' });
    const running = pool.submit({}, {});
    const queued = pool.submit({}, {});
    await tick();
    assert.equal(pool.cancel(queued), 'dropped');
    assert.deepEqual(events.at(-1), ['cancelled', queued]);
    assert.equal(pool.cancel(running), 'asked');
    assert.deepEqual(workers[0].sent.at(-1), { type: 'cancel', id: running });
    assert.deepEqual(events.at(-1), ['cancelled', queued], 'not cancelled before the worker says so');
    workers[0].reply({ type: 'cancelled', id: running });
    assert.deepEqual(events.at(-1), ['cancelled', running]);
    assert.equal(pool.cancel(running), false, 'an ended job is unknown');
    assert.deepEqual(hashes(workers[0]), [running], 'the dropped job never reached the worker');
  });

  it('replaces a worker that does not acknowledge a cancel in time', async () => {
    const { pool, events } = makePool(1, 40);
    workers[0].reply({ type: 'ready', backend: 'scalar' });
    const stuck = pool.submit({}, {});
    const next = pool.submit({}, {});
    await tick();
    pool.cancel(stuck);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(workers.length, 1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    assert.ok(workers[0].terminated);
    assert.equal(workers.length, 2, 'a fresh worker in the same slot');
    assert.equal(workers[1].name, 'sha1dc-0');
    assert.deepEqual(events.at(-1), ['cancelled', stuck]);
    workers[1].reply({ type: 'ready', backend: 'scalar' });
    assert.deepEqual(hashes(workers[1]), [next]);
    assert.deepEqual(events.filter(([e]) => e === 'ready').length, 1);
  });

  it('hands small files out in batches (by options, shared between workers), large files alone', async () => {
    const { pool, events } = makePool(2);
    for (const w of workers) w.reply({ type: 'ready', backend: 'simd128' });
    const small = (n) => ({ name: `s${n}`, size: 1000 * n });
    const plain = { gitBlob: false, reducedRound: false };
    const git = { gitBlob: true, reducedRound: false };
    const a = [1, 2, 3, 4, 5, 6].map((n) => pool.submit(small(n), plain));
    const big = pool.submit({ name: 'big', size: BATCH_FILE_MAX + 1 }, plain);
    const b = [7, 8].map((n) => pool.submit(small(n), git));
    await tick();
    // 9 jobs, 2 workers: at most 5 in the first batch; then the rest of the run.
    const sent = workers.map((w) => w.sent.filter((m) => m.type !== 'cancel'));
    assert.deepEqual(sent[0], [{ type: 'batch', jobs: a.slice(0, 5).map((id, i) => ({ id, file: small(i + 1) })), options: plain }]);
    assert.deepEqual(sent[1], [{ type: 'batch', jobs: [{ id: a[5], file: small(6) }], options: plain }]);
    assert.deepEqual(events.filter(([e]) => e === 'started').map(([, id]) => id), a);
    // A worker is free once every file of its batch is over, whatever the order.
    workers[1].reply({ type: 'result', id: a[5], result: { hex: 'f6' }, total: 6000, ms: 1 });
    assert.deepEqual(workers[1].sent.at(-1), { type: 'hash', id: big, file: { name: 'big', size: BATCH_FILE_MAX + 1 }, options: plain });
    for (const id of [a[3], a[0], a[1]]) workers[0].reply({ type: 'result', id, result: {}, total: 1, ms: 1 });
    workers[0].reply({ type: 'error', id: a[2], message: 'unreadable' });
    assert.equal(workers[0].sent.length, 1, 'busy until its last file is over');
    workers[0].reply({ type: 'cancelled', id: a[4] });
    // Two files left for two workers: one each (the other worker takes its file once free).
    assert.deepEqual(workers[0].sent.at(-1), { type: 'batch', jobs: [{ id: b[0], file: small(7) }], options: git });
    workers[1].reply({ type: 'result', id: big, result: {}, total: 1, ms: 1 });
    assert.deepEqual(workers[1].sent.at(-1), { type: 'batch', jobs: [{ id: b[1], file: small(8) }], options: git });
    assert.deepEqual(events.filter(([e]) => e === 'error'), [['error', a[2], 'unreadable']]);
    assert.deepEqual(events.filter(([e]) => e === 'cancelled'), [['cancelled', a[4]]]);
  });

  it('keeps a batch to BATCH_FILES files and BATCH_BYTES bytes', async () => {
    const { pool } = makePool(1);
    workers[0].reply({ type: 'ready', backend: 'simd128' });
    for (let i = 0; i < BATCH_FILES + 10; i++) pool.submit({ size: 10 }, {});
    await tick();
    assert.equal(workers[0].sent[0].jobs.length, BATCH_FILES);
    const { pool: p2 } = makePool(1);
    workers[1].reply({ type: 'ready', backend: 'simd128' });
    const size = BATCH_FILE_MAX;
    for (let i = 0; i < 10; i++) p2.submit({ size }, {});
    await tick();
    assert.equal(workers[1].sent[0].jobs.length, Math.floor(BATCH_BYTES / size));
  });

  it('a cancel a batch does not acknowledge replaces its worker; the batch\'s other files are hashed again', async () => {
    const { pool, events } = makePool(1, 40);
    workers[0].reply({ type: 'ready', backend: 'scalar' });
    const ids = [1, 2, 3].map((n) => pool.submit({ name: `f${n}`, size: n }, {}));
    await tick();
    assert.equal(workers[0].sent[0].jobs.length, 3);
    workers[0].reply({ type: 'result', id: ids[0], result: {}, total: 1, ms: 1 });
    assert.equal(pool.cancel(ids[1]), 'asked');
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.ok(workers[0].terminated);
    assert.deepEqual(events.at(-1), ['cancelled', ids[1]]);
    workers[1].reply({ type: 'ready', backend: 'scalar' });
    assert.deepEqual(workers[1].sent, [{ type: 'batch', jobs: [{ id: ids[2], file: { name: 'f3', size: 3 } }], options: {} }]);
    assert.deepEqual(events.filter(([e, id]) => e === 'started' && id === ids[2]).length, 2);
  });

  it('fails queued and later jobs when the module does not load', async () => {
    const { pool, events } = makePool(1);
    const id = pool.submit({}, {});
    workers[0].reply({ type: 'failed', message: 'no WebAssembly' });
    assert.equal(pool.broken, 'no WebAssembly');
    assert.deepEqual(events, [['failed', 'no WebAssembly'], ['error', id, 'The WebAssembly module did not load.']]);
    const late = pool.submit({}, {});
    await tick();
    assert.deepEqual(events.at(-1), ['error', late, 'The WebAssembly module did not load.']);
    assert.deepEqual(hashes(workers[0]), []);
  });
});

describe('collisionGroups', () => {
  const file = (id, sha1, hex, gitBlob = false) => ({ id, name: `f${id}`, anchor: `file-${id}`, gitBlob, sha1, hex });

  it('groups files with one SHA-1 and different safe hashes, and nothing else', () => {
    const groups = collisionGroups([
      file(1, '38762cf7', 'aaaa'), // shattered-1
      file(2, 'f00d', 'f00d'), // clean, alone
      file(3, '38762cf7', 'bbbb'), // shattered-2
      file(4, 'f00d', 'f00d'), // the same clean file twice: same content, no collision
      file(5, '38762cf7', 'cccc', true), // a git blob id equal to a SHA-1 does not pair up
    ]);
    assert.equal(groups.length, 1);
    assert.equal(groups[0].sha1, '38762cf7');
    assert.equal(groups[0].gitBlob, false);
    assert.deepEqual(groups[0].files.map((f) => f.id), [1, 3]);
    assert.deepEqual(collisionGroups([]), []);
  });
});
