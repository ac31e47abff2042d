// The browser entry in headless Chromium: a page served with the strict Content-Security-Policy
// `script-src 'self' 'wasm-unsafe-eval'` loads the package with init() (the .wasm fetched next to
// the module), hashes, streams a Blob, and runs the package in a module Web Worker. Skipped when
// Chromium is not installed.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { DATA, PKG_DIR, haveChromium, launchChromium, sha1, skipUnlessCI } from '../shared.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';

const files = {
  '/t/page.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="/favicon.ico">
<title>sha1dc-wasm</title><script type="module" src="/t/page.mjs"></script></head><body></body></html>`,
  '/t/page.mjs': `
const violations = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective + ' ' + e.blockedURI));
const out = {};
try {
  const m = await import('/pkg/index.mjs');
  try { m.sha1dc('abc'); } catch (e) { out.beforeInit = e.message; }
  await m.init();
  out.backend = m.backend();
  out.abc = m.sha1dc('abc').hex;
  out.hasher = m.createHasher().update('a').update(new Uint8Array([98, 99])).digest().hex;
  const big = new Uint8Array(3 << 20).fill(97);
  const progress = [];
  out.blob = (await m.hashStream(new Blob([big, 'x']), null, (n) => progress.push(n))).hex;
  out.blobLast = progress.at(-1);
  out.stream = (await m.hashStream(new Blob(['abc']).stream())).hex;
  const shattered = await (await fetch('/data/shattered-1.prefix320.bin')).arrayBuffer();
  out.collision = m.sha1dc(shattered).collision;
  out.many = m.sha1dcMany(['abc', shattered, new Uint8Array(0)]).map((r) => [r.hex, r.collision && r.collision.block]);
  out.gitBlob = (await m.hashStream(new Blob(['hello\\n']), { gitBlob: true })).hex;
  try { m.sha1dc(42); } catch (e) { out.typeError = e.constructor.name + ': ' + e.message; }
  const w = new Worker('/t/worker.mjs', { type: 'module' });
  out.worker = await new Promise((resolve, reject) => {
    w.onmessage = (e) => resolve(e.data);
    w.onerror = (e) => reject(new Error('worker: ' + e.message));
    w.postMessage(new TextEncoder().encode('abc'));
  });
} catch (e) {
  out.error = String(e && e.stack || e);
}
// Violations are reported asynchronously: collect the package's, then
// check that the policy is in force with an eval of our own.
await new Promise((r) => setTimeout(r, 100));
out.violations = [...violations];
try { (0, eval)('1'); out.evalBlocked = false; } catch { out.evalBlocked = true; }
window.__result = JSON.stringify(out);
`,
  '/t/worker.mjs': `
import { init, sha1dc, sha1dcMany, backend, createHasher } from '/pkg/index.mjs';
// The handler is set at once (a message that arrives during a top-level
// await may find none); init() inside it returns the same promise each time.
self.onmessage = async (e) => {
  await init();
  self.postMessage({ hex: sha1dc(e.data).hex, hasher: createHasher().update(e.data).digest().hex, many: sha1dcMany([e.data, 'abc']).map(String), backend: backend() });
};
`,
  '/t/two.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="/favicon.ico">
<title>sha1dc-wasm, two workers</title><script type="module" src="/t/two.mjs"></script></head><body></body></html>`,
  // The package's Worker starts counted; window.m is the API once loaded.
  '/t/two.mjs': `
const Real = Worker;
window.started = [];
window.Worker = class extends Real {
  constructor(url, options) {
    super(url, options);
    window.started.push(String(url));
  }
};
// A collision, then n pseudo-random bytes; a message cut into chunks of random sizes.
const rnd = (seed) => () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8);
window.message = async (n, seed) => {
  const head = new Uint8Array(await (await fetch('/data/shattered-1.prefix320.bin')).arrayBuffer());
  const r = rnd(seed);
  const m = new Uint8Array(head.length + n);
  m.set(head);
  for (let i = head.length; i < m.length; i++) m[i] = r();
  return m;
};
window.chunks = (m, seed) => {
  const r = rnd(seed);
  const out = [];
  for (let at = 0; at < m.length; ) {
    const n = Math.min(1 + (r() % [3, 70, 5000, 300000][r() % 4]), m.length - at);
    out.push(m.subarray(at, at + n));
    at += n;
  }
  return out;
};
window.streamOf = (parts) => new ReadableStream({ start(c) { parts.forEach((x) => c.enqueue(x)); c.close(); } });
window.m = await import('/pkg/index.mjs');
await window.m.init();
window.ready = true;
`,
  // A filter worker that throws half way.
  '/t/crashing-worker.mjs': `
import '/pkg/filter-worker.mjs';
setTimeout(() => { throw new Error('worker on fire'); }, 50);
`,
};

const EMPTY_ICON = '/favicon.ico';
const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html', '.bin': 'application/octet-stream' };

function serve() {
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    let body = path === EMPTY_ICON ? '' : files[path];
    if (body === undefined) {
      const [base, rest] = path.startsWith('/pkg/') ? [PKG_DIR, path.slice(5)] : path.startsWith('/data/') ? [DATA, path.slice(6)] : [null, null];
      const file = base && normalize(join(base, rest));
      if (!file || !file.startsWith(normalize(base)) || !existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      body = readFileSync(file);
    }
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'content-security-policy': CSP });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Serves the files, opens `path` in headless Chromium and runs `use(page)`; closes both after. */
async function withPage(path, use) {
  const server = await serve();
  let browser = null;
  try {
    browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}${path}`);
    await use(page);
  } finally {
    await browser?.close();
    server.close();
  }
}

const noChromium = !haveChromium && skipUnlessCI('Chromium is not installed');

test('headless Chromium: strict CSP page and a module Web Worker', { skip: noChromium }, () => withPage('/t/page.html', async (page) => {
  const raw = await page.waitForFunction(() => window.__result, null, { timeout: 60_000 }).then((h) => h.jsonValue());
  assert.ok(raw, 'the page finished');
  const out = JSON.parse(raw);
  assert.equal(out.error, undefined, out.error);
  assert.equal(out.evalBlocked, true, 'the CSP is in force');
  assert.deepEqual(out.violations, []);
  assert.match(out.beforeInit, /await init\(\) first/);
  assert.equal(out.backend, 'simd128');
  assert.equal(out.abc, ABC);
  assert.equal(out.hasher, ABC);
  assert.equal(out.blobLast, (3 << 20) + 1);
  assert.equal(out.stream, ABC);
  assert.deepEqual(out.collision, { offset: 256, block: 4, dv: 'II(52,0)', count: 1 });
  assert.equal(out.gitBlob, 'ce013625030ba8dba906f756967f9e9ca394464a');
  assert.match(out.typeError, /^TypeError: sha1dc: data must be .* got number 42$/);
  assert.deepEqual(out.worker, { hex: ABC, hasher: ABC, many: [ABC, ABC], backend: 'simd128' });
  assert.deepEqual(out.many, [[ABC, null], ['7117b3cb9225aaf0d8ef1a40e493957b0bf8693d', 4], ['da39a3ee5e6b4b0d3255bfef95601890afd80709', null]]);
  assert.equal(out.blob, sha1(Buffer.concat([Buffer.alloc(3 << 20, 97), Buffer.from('x')])));
}));

test('headless Chromium: hashStream on two workers (module Web Workers), every mode; failures and aborts end the worker', { skip: noChromium }, () => withPage('/t/two.html', async (page) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.waitForFunction(() => window.ready, null, { timeout: 60_000 });
  const filterWorkers = () => page.workers().filter((w) => /filter-worker|crashing-worker/.test(w.url())).length;
  const equal = await page.evaluate(async () => {
    const { m, message, chunks, streamOf } = window;
    const out = [];
    const modes = [{}, { safeHash: false }, { reducedRound: true }, { gitBlob: true }];
    let seed = 1;
    for (const options of modes) {
      for (const n of [1000, 1_500_000, 3_000_000]) {
        const msg = await message(n, seed++);
        const parts = chunks(msg, seed++);
        const sized = options.gitBlob ? { ...options, size: msg.length } : options;
        const want = JSON.stringify(m.sha1dc(msg, options));
        const one = JSON.stringify(await m.hashStream(streamOf(parts), { ...sized, worker: false }));
        const fromStream = JSON.stringify(await m.hashStream(streamOf(parts), { ...sized, worker: true }));
        const fromBlob = JSON.stringify(await m.hashStream(new Blob(parts), { ...options, worker: true }));
        out.push({ what: JSON.stringify(options) + ' ' + msg.length, ok: one === want && fromStream === want && fromBlob === want, want, fromStream, fromBlob });
      }
    }
    return { out, started: window.started.length, collision: m.sha1dc(await message(0, 1)).collision };
  });
  for (const r of equal.out) assert.ok(r.ok, `${r.what}: ${r.want} ${r.fromStream} ${r.fromBlob}`);
  assert.equal(equal.started, 2 * equal.out.length, 'one filter worker per two-worker hash');
  assert.equal(equal.collision.block, 4);

  // 'auto': a Blob of 16 MiB goes through the filter worker; one of 1 MiB does not.
  const auto = await page.evaluate(async () => {
    const { m } = window;
    const before = window.started.length;
    const big = new Uint8Array(16 << 20).map((_, i) => i >> 9);
    const same = JSON.stringify(await m.hashStream(new Blob([big]))) === JSON.stringify(m.sha1dc(big));
    const afterLarge = window.started.length - before;
    await m.hashStream(new Blob([big.subarray(0, 1 << 20)]));
    return { same, afterLarge, afterSmall: window.started.length - before };
  });
  assert.deepEqual(auto, { same: true, afterLarge: 1, afterSmall: 1 });

  // A worker that throws half way, a stream that fails, an abort: each rejects; the worker ends.
  const failures = await page.evaluate(async () => {
    const { m, message } = window;
    const msg = await message(8 << 20, 9);
    const slow = (failAt) => new ReadableStream({
      start() { this.at = 0; },
      async pull(c) {
        await new Promise((r) => setTimeout(r, 5));
        if (this.at >= failAt) { c.error(new Error('disk on fire')); return; }
        c.enqueue(msg.slice(this.at, this.at + (256 << 10)));
        this.at += 256 << 10;
        if (this.at >= msg.length) c.close();
      },
    });
    const reason = (p) => p.then(() => 'resolved', (e) => e.message);
    const crashed = await reason(m.hashStream(slow(Infinity), { worker: () => new Worker('/t/crashing-worker.mjs', { type: 'module' }) }));
    const failed = await reason(m.hashStream(slow(2 << 20), { worker: true }));
    const ac = new AbortController();
    const aborted = await reason(m.hashStream(slow(Infinity), { worker: true, signal: ac.signal }, (n) => n > (1 << 20) && ac.abort(new Error('stopped'))));
    const missing = await reason(m.hashStream(slow(Infinity), { worker: () => new Worker('/t/missing.mjs', { type: 'module' }) }));
    return { crashed, failed, aborted, missing };
  });
  assert.match(failures.crashed, /filter worker of hashStream failed.*worker on fire/);
  assert.equal(failures.failed, 'disk on fire');
  assert.equal(failures.aborted, 'stopped');
  assert.match(failures.missing, /filter worker of hashStream failed/);
  for (let i = 0; i < 50 && filterWorkers() > 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(filterWorkers(), 0, 'no filter worker is left running');
  assert.deepEqual(errors, []);
}));
