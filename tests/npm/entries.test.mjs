// The other entry points: CommonJS, the browser/default ES module (loaded in
// Node with each form init() accepts), the exports map, a worker thread.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { PKG_DIR, ROOT } from '../shared.mjs';

const pkgUrl = pathToFileURL(PKG_DIR).href;

const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';
const require = createRequire(import.meta.url);

/** Runs an ES module snippet in a fresh Node process; returns its stdout. */
const runModule = (code) =>
  execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: PKG_DIR, encoding: 'utf8' }).trim();

test('CommonJS: require gives the API, ready at once, same instance as import', async () => {
  const cjs = require(`${PKG_DIR}/node.cjs`);
  assert.deepEqual(Object.keys(cjs).sort(), ['backend', 'createFilter', 'createHasher', 'formatChecksumLine', 'hashStream', 'init', 'initSync', 'parseChecksumLine', 'sha1dc', 'sha1dcMany']);
  assert.equal(cjs.sha1dc('abc').hex, ABC);
  assert.equal(cjs.backend(), 'simd128');
  await cjs.init();
  const esm = await import(`${PKG_DIR}/node.mjs`);
  assert.equal(esm.sha1dc, cjs.sha1dc);
  assert.equal(esm.sha1dcMany, cjs.sha1dcMany);
});

test('browser entry in Node: throws before init, then init() with bytes', () => {
  const out = runModule(`
    import { readFileSync } from 'node:fs';
    import * as m from './index.mjs';
    let before;
    try { m.sha1dc('abc'); } catch (e) { before = e.constructor.name + ': ' + e.message; }
    let hasherBefore;
    try { m.createHasher(); } catch (e) { hasherBefore = e.message; }
    const p1 = m.init(readFileSync('./wasm/sha1dc_wasm_bg.wasm'));
    const p2 = m.init();
    await p1; await p2;
    console.log(JSON.stringify({ before, hasherBefore, same: p1 === p2, hex: m.sha1dc('abc').hex, backend: m.backend() }));
  `);
  const r = JSON.parse(out);
  assert.match(r.before, /^Error: sha1dc: sha1dc\(\) was called before the WebAssembly module was loaded; await init\(\) first$/);
  assert.match(r.hasherBefore, /createHasher\(\) was called before/);
  assert.equal(r.hex, ABC);
  assert.equal(r.backend, 'simd128');
});

test('browser entry: init() with a WebAssembly.Module, a Response, a promise, wasm-bindgen form; initSync', () => {
  const forms = {
    module: `new WebAssembly.Module(bytes)`,
    response: `new Response(bytes, { headers: { 'content-type': 'application/wasm' } })`,
    promise: `Promise.resolve(new Response(bytes, { headers: { 'content-type': 'application/wasm' } }))`,
    bindgen: `{ module_or_path: bytes }`,
    arraybuffer: `bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)`,
  };
  for (const [what, expr] of Object.entries(forms)) {
    const out = runModule(`
      import { readFileSync } from 'node:fs';
      import { init, sha1dc } from './index.mjs';
      const bytes = readFileSync('./wasm/sha1dc_wasm_bg.wasm');
      await init(${expr});
      console.log(sha1dc('abc').hex);
    `);
    assert.equal(out, ABC, what);
  }
  const out = runModule(`
    import { readFileSync } from 'node:fs';
    import { initSync, sha1dc, backend } from './index.mjs';
    initSync(readFileSync('./wasm/sha1dc_wasm_bg.wasm'));
    console.log(sha1dc('abc').hex, backend());
  `);
  assert.equal(out, `${ABC} simd128`);
});

test('browser entry in Node (sha1dc-wasm/file): init() with no argument, a path or a file: URL reads the .wasm', () => {
  const url = "new URL('./wasm/sha1dc_wasm_bg.wasm', import.meta.url)";
  for (const arg of ['', "'./wasm/sha1dc_wasm_bg.wasm'", url, `${url}.href`]) {
    const out = runModule(`
      import { init, sha1dc } from './index.mjs';
      await init(${arg});
      console.log(sha1dc('abc').hex);
    `);
    assert.equal(out, ABC, arg || 'no argument');
  }
  // A file that is not there: the fs error, and init() can be tried again.
  const out = runModule(`
    import { init, sha1dc } from './index.mjs';
    let err;
    try { await init('./no-such.wasm'); } catch (e) { err = e.code; }
    await init();
    console.log(err, sha1dc('abc').hex);
  `);
  assert.equal(out, `ENOENT ${ABC}`);
});

test('browser entry: a failed init rejects and can be retried', () => {
  const out = runModule(`
    import { readFileSync } from 'node:fs';
    import { init, sha1dc } from './index.mjs';
    let err;
    try { await init(new Uint8Array([0, 1, 2, 3])); } catch (e) { err = e.constructor.name; }
    await init(readFileSync('./wasm/sha1dc_wasm_bg.wasm'));
    console.log(err, sha1dc('abc').hex);
  `);
  assert.equal(out, `CompileError ${ABC}`);
});

test('exports map: node import and require, the .wasm subpath, package.json', () => {
  const pkg = require(`${PKG_DIR}/package.json`);
  // Node itself: the file entries. Bundlers (the "module" condition) targeting Node: the inlined
  // module, as nothing is read beside a bundle. webpack and Vite ("webpack", "development",
  // "production"): the .wasm as a file they emit. Deno and Bun, before "node", which they also
  // read: inlined, as Deno reads no file without a permission (Deno's entry also names its
  // filter worker). Everything else (esbuild, Rollup): inlined.
  assert.equal(pkg.exports['.'].deno, './deno.mjs');
  assert.equal(pkg.exports['.'].bun, './inline.mjs');
  // Cloudflare's workerd compiles no wasm from bytes: the .wasm as a module import.
  assert.equal(pkg.exports['.'].workerd, './workerd.mjs');
  assert.deepEqual(pkg.exports['.'].node, { module: './inline.mjs', import: './node.mjs', require: './node.cjs' });
  assert.equal(pkg.exports['.'].webpack, './index.mjs');
  assert.equal(pkg.exports['.'].development, './index.mjs');
  assert.equal(pkg.exports['.'].production, './index.mjs');
  assert.equal(pkg.exports['.'].default, './inline.mjs');
  assert.deepEqual(Object.keys(pkg.exports['.']), ['types', 'deno', 'bun', 'workerd', 'node', 'webpack', 'development', 'production', 'default']);
  assert.equal(pkg.exports['./file'].default, './index.mjs');
  assert.equal(pkg.exports['./inline'].default, './inline.mjs');
  // The filter worker, for an app that starts it itself.
  assert.deepEqual(pkg.exports['./filter-worker'], { node: './filter-worker-node.mjs', default: './filter-worker.mjs' });
  // git-sha1dc's verifier: Node's entry reads files; elsewhere verifyGit over bytes, Blobs and handles.
  assert.deepEqual(pkg.exports['./git'], { types: './git.d.ts', node: './git.mjs', default: './git-web.mjs' });
  assert.deepEqual(pkg.bin, { 'sha1dc-wasm': './cli.mjs', 'git-sha1dc': './git-cli.mjs' });
  assert.deepEqual(pkg.exports['.'].types, { import: './index.d.ts', require: './index.d.cts' });
  assert.equal(pkg.exports['./sha1dc_wasm_bg.wasm'], './wasm/sha1dc_wasm_bg.wasm');
  for (const f of pkg.files) assert.ok(require('node:fs').existsSync(`${PKG_DIR}/${f}`), f);
});

test('the inlined entry: ready on import (no init), the same API, init() and initSync() are no-ops', () => {
  const out = runModule(`
    import * as m from './inline.mjs';
    const before = m.sha1dc('abc').hex;
    await m.init();
    m.initSync(new Uint8Array(0));
    console.log(before, m.createHasher().update('abc').digest('hex'), m.backend(), Object.keys(m).sort().join());
  `);
  assert.equal(out, `${ABC} ${ABC} simd128 backend,createFilter,createHasher,formatChecksumLine,hashStream,init,initSync,parseChecksumLine,sha1dc,sha1dcMany`);
});

test('a worker thread (the Web Worker pattern): Node entry and browser entry', async () => {
  for (const [what, code] of [
    [
      'node entry',
      `import { sha1dc, backend } from '${pkgUrl}/node.mjs';
       import { parentPort } from 'node:worker_threads';
       parentPort.on('message', (buf) => parentPort.postMessage({ hex: sha1dc(buf).hex, backend: backend() }));`,
    ],
    [
      'browser entry',
      `import { init, createHasher, backend } from '${pkgUrl}/index.mjs';
       import { readFileSync } from 'node:fs';
       import { parentPort } from 'node:worker_threads';
       await init(readFileSync('${PKG_DIR}/wasm/sha1dc_wasm_bg.wasm'));
       parentPort.on('message', (buf) => parentPort.postMessage({ hex: createHasher().update(buf).digest().hex, backend: backend() }));`,
    ],
  ]) {
    const w = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`));
    const reply = new Promise((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    });
    const buf = new TextEncoder().encode('abc');
    w.postMessage(buf, [buf.buffer]);
    assert.deepEqual(await reply, { hex: ABC, backend: 'simd128' }, what);
    await w.terminate();
  }
});

test('each module of the API has a CommonJS twin with the same exports; assemble.mjs refuses a form it cannot rewrite', async () => {
  for (const name of ['core', 'input', 'result', 'hasher', 'filter', 'many', 'stream', 'workers', 'checksums']) {
    const esm = await import(`${pkgUrl}/${name}.mjs`);
    const cjs = require(`${PKG_DIR}/${name}.cjs`);
    assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort(), name);
  }
  const work = mkdtempSync(join(tmpdir(), 'sha1dc-wasm-assemble-'));
  try {
    cpSync(join(ROOT, 'npm'), join(work, 'source'), { recursive: true });
    cpSync(join(PKG_DIR, 'wasm'), join(work, 'out', 'wasm'), { recursive: true });
    const assemble = () => spawnSync(process.execPath, [join(work, 'source', 'assemble.mjs'), join(work, 'out')], { encoding: 'utf8' });
    assert.equal(assemble().status, 0);
    appendFileSync(join(work, 'source', 'many.mjs'), 'export default 42;\n');
    const r = assemble();
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^assemble: many\.mjs:\d+: only one-line sibling imports and exported functions, classes and consts can be made CommonJS: export default 42;/);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
