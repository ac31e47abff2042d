// The packed package in each tool's default settings: no loader flags, no plugins, no copying of
// the .wasm by hand. esbuild (browser, Node ESM and CJS bundles), webpack 5 and Vite (browser
// builds served and run in headless Chromium), node --test with worker_threads.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { DATA, haveChromium, installTarball, skipUnlessCI } from '../shared.mjs';
import { ABC, BROWSER_ENTRY, BROWSER_WANT, browserEntry, chromium, closeChromium, here, runPage, writeFiles } from './helpers.mjs';

const bin = (name) => join(here, 'node_modules/.bin', name);
const noChromium = !haveChromium && skipUnlessCI('Chromium is not installed');
const PREFIX = 'shattered-1.prefix320.bin';

let t;
before(() => {
  t = installTarball('bundlers');
});
after(async () => {
  await closeChromium();
  t?.cleanup();
});

/** Sizes of the files of `dir` (recursive), for the report: { name: [bytes, gzipped bytes] }. */
function sizes(dir) {
  const out = {};
  for (const e of readdirSync(dir, { recursive: true })) {
    const p = join(dir, e);
    if (statSync(p).isFile() && /\.([cm]?js|wasm)$/.test(e)) {
      const b = readFileSync(p);
      out[e] = [b.length, gzipSync(b, { level: 9 }).length];
    }
  }
  return out;
}

function report(what, dir) {
  const s = sizes(dir);
  const text = Object.entries(s)
    .map(([n, [raw, gz]]) => `${n} ${raw} B (${gz} B gzipped)`)
    .join(', ');
  console.log(`# ${what}: ${text}`);
  return s;
}

/** Runs a bundler's command line; fails on a warning as on an error. */
function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r;
}

test('esbuild --bundle --platform=browser --format=esm: the bundle runs in Chromium, its own filter worker built beside it', { skip: noChromium }, async () => {
  const dir = join(t.app, 'esbuild-browser');
  // esbuild bundles no worker: the app builds the package's filter worker as an entry of its own
  // and hands hashStream a function that starts it.
  const factory = "() => new Worker(new URL('./filter-worker.js', import.meta.url), { type: 'module' })";
  writeFiles(dir, {
    'entry.js': browserEntry(factory),
    'filter-worker.js': "import 'sha1dc-wasm/filter-worker';\n",
    'dist/index.html': '<!doctype html><link rel="icon" href="data:,"><script type="module" src="./main.js"></script>',
  });
  copyFileSync(join(DATA, PREFIX), join(dir, 'dist', PREFIX));
  for (const [entry, out] of [['entry.js', 'main.js'], ['filter-worker.js', 'filter-worker.js']]) {
    const r = run(bin('esbuild'), [entry, '--bundle', '--format=esm', '--platform=browser', `--outfile=dist/${out}`, '--log-level=warning'], dir);
    assert.equal(r.stderr, '', `${entry}: no warnings`);
  }
  const { result, errors, requests } = await runPage(join(dir, 'dist'));
  assert.deepEqual(errors, []);
  assert.deepEqual(result, BROWSER_WANT);
  assert.ok(!requests.some((p) => p.endsWith('.wasm')), 'the module is in the bundle');
  report('esbuild browser bundle (inline.mjs)', join(dir, 'dist'));
});

test('esbuild --bundle --platform=node, ESM and CJS: the bundles run from another folder, no init()', () => {
  const dir = join(t.app, 'esbuild-node');
  writeFiles(dir, {
    'entry.mjs': `import { sha1dc, createHasher, backend } from 'sha1dc-wasm';
      console.log(sha1dc('abc').hex, createHasher().update('abc').digest('hex'), backend());`,
    'entry.cjs': `const { sha1dc, backend } = require('sha1dc-wasm');
      console.log(sha1dc('abc').hex, sha1dc('abc').hex, backend());`,
  });
  const elsewhere = join(t.work, 'elsewhere');
  mkdirSync(elsewhere, { recursive: true });
  for (const [entry, format, out] of [
    ['entry.mjs', 'esm', 'esm-from-esm.mjs'],
    ['entry.mjs', 'cjs', 'cjs-from-esm.cjs'],
    ['entry.cjs', 'cjs', 'cjs-from-cjs.cjs'],
    ['entry.cjs', 'esm', 'esm-from-cjs.mjs'],
  ]) {
    const r = run(bin('esbuild'), [entry, '--bundle', `--format=${format}`, '--platform=node', `--outfile=dist/${out}`, '--log-level=warning'], dir);
    assert.equal(r.stderr, '', `${out}: no warnings`);
    // Moved away from node_modules: nothing may be read beside the bundle.
    copyFileSync(join(dir, 'dist', out), join(elsewhere, out));
    const got = execFileSync(process.execPath, [join(elsewhere, out)], { cwd: elsewhere, encoding: 'utf8' }).trim();
    assert.equal(got, `${ABC} ${ABC} simd128`, out);
  }
  report('esbuild node bundles (inline.mjs)', join(dir, 'dist'));
});

test('esbuild --bundle --platform=node: hashStream on two workers, the filter worker bundled beside the program', () => {
  const dir = join(t.app, 'esbuild-node-workers');
  writeFiles(dir, {
    // The package's worker module under the "node" condition: a worker_threads worker.
    'filter-worker.mjs': "import 'sha1dc-wasm/filter-worker';\n",
    'main.mjs': `import { sha1dc, hashStream } from 'sha1dc-wasm';
      import { Worker } from 'node:worker_threads';
      let started = 0;
      const worker = () => (started++, new Worker(new URL('./filter-worker.mjs', import.meta.url)));
      const big = new Uint8Array(3 << 20).map((_, i) => i >> 10);
      const r = await hashStream(new Blob([big]), { worker });
      console.log(r.hex === sha1dc(big).hex, started);`,
  });
  const elsewhere = join(t.work, 'elsewhere-workers');
  mkdirSync(elsewhere, { recursive: true });
  for (const out of ['main.mjs', 'filter-worker.mjs']) {
    const r = run(bin('esbuild'), [out, '--bundle', '--format=esm', '--platform=node', `--outfile=dist/${out}`, '--log-level=warning'], dir);
    assert.equal(r.stderr, '', `${out}: no warnings`);
    copyFileSync(join(dir, 'dist', out), join(elsewhere, out));
  }
  const got = execFileSync(process.execPath, [join(elsewhere, 'main.mjs')], { cwd: elsewhere, encoding: 'utf8' }).trim();
  assert.equal(got, 'true 1');
  report('esbuild node bundles, two workers', join(dir, 'dist'));
});

test('webpack 5, mode production, no configuration of the package: the build runs in Chromium', { skip: noChromium }, async () => {
  const dir = join(t.app, 'webpack');
  writeFiles(dir, { 'src/index.js': BROWSER_ENTRY });
  const { default: webpack } = await import('webpack');
  const stats = await new Promise((resolve, reject) =>
    webpack({ context: dir, mode: 'production', output: { path: join(dir, 'dist') } }, (err, s) => (err ? reject(err) : resolve(s))),
  );
  const info = stats.toJson({ all: false, errors: true, warnings: true });
  assert.deepEqual(info.errors, [], 'no errors');
  // Size warnings only (webpack's performance hints), none about the package.
  assert.deepEqual(info.warnings.filter((w) => !/size limit|performance|limit the size/i.test(w.message)), []);
  writeFiles(join(dir, 'dist'), { 'index.html': '<!doctype html><link rel="icon" href="data:,"><script src="./main.js"></script>' });
  copyFileSync(join(DATA, PREFIX), join(dir, 'dist', PREFIX));
  const { result, errors, requests } = await runPage(join(dir, 'dist'));
  assert.deepEqual(errors, []);
  assert.deepEqual(result, BROWSER_WANT);
  assert.ok(requests.some((p) => p.endsWith('.wasm')), 'webpack emitted the .wasm as an asset and the page fetched it');
  report('webpack build (index.mjs, .wasm as an asset)', join(dir, 'dist'));
});

test('Vite build, no configuration: the build runs in Chromium', { skip: noChromium }, async () => {
  const dir = join(t.app, 'vite');
  writeFiles(dir, {
    'index.html': '<!doctype html><html><head><link rel="icon" href="data:,"></head><body><script type="module" src="/main.js"></script></body></html>',
    'main.js': BROWSER_ENTRY,
    [`public/${PREFIX}`]: '',
  });
  copyFileSync(join(DATA, PREFIX), join(dir, 'public', PREFIX));
  const { build } = await import('vite');
  await build({ root: dir, configFile: false, logLevel: 'warn' });
  const { result, errors, requests } = await runPage(join(dir, 'dist'));
  assert.deepEqual(errors, []);
  assert.deepEqual(result, BROWSER_WANT);
  assert.ok(requests.some((p) => p.endsWith('.wasm')), 'Vite emitted the .wasm as an asset and the page fetched it');
  report('Vite build (index.mjs, .wasm as an asset)', join(dir, 'dist'));
});

test('Vite dev server, no configuration: the page runs in Chromium', { skip: noChromium }, async () => {
  const dir = join(t.app, 'vite-dev');
  writeFiles(dir, {
    'index.html': '<!doctype html><html><head><link rel="icon" href="data:,"></head><body><script type="module" src="/main.js"></script></body></html>',
    'main.js': BROWSER_ENTRY,
    [`public/${PREFIX}`]: '',
  });
  copyFileSync(join(DATA, PREFIX), join(dir, 'public', PREFIX));
  const { createServer } = await import('vite');
  const server = await createServer({ root: dir, configFile: false, logLevel: 'error', server: { host: '127.0.0.1', port: 0 } });
  await server.listen();
  const page = await (await chromium()).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()}: ${r.url()}`));
  try {
    await page.goto(server.resolvedUrls.local[0]);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30_000 });
    assert.deepEqual(await page.evaluate(() => window.__result), BROWSER_WANT);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
  }
});

test('node --test in the installed project, with worker_threads (import and require)', () => {
  writeFiles(t.app, {
    'workers/worker.mjs': "import { sha1dc } from 'sha1dc-wasm'; import { parentPort } from 'node:worker_threads'; parentPort.on('message', (s) => parentPort.postMessage(sha1dc(s).hex));",
    'workers/worker.cjs': "const { sha1dc } = require('sha1dc-wasm'); const { parentPort } = require('node:worker_threads'); parentPort.on('message', (s) => parentPort.postMessage(sha1dc(s).hex));",
    'test/hash.test.mjs': `
      import assert from 'node:assert/strict';
      import { test } from 'node:test';
      import { Worker } from 'node:worker_threads';
      import { sha1dc } from 'sha1dc-wasm';
      test('main thread', () => assert.equal(sha1dc('abc').hex, '${ABC}'));
      for (const file of ['worker.mjs', 'worker.cjs']) {
        test(file, async () => {
          const w = new Worker(new URL('../workers/' + file, import.meta.url));
          const reply = new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); });
          w.postMessage('abc');
          assert.equal(await reply, '${ABC}');
          await w.terminate();
        });
      }`,
  });
  // Without the runner's NODE_TEST_CONTEXT, which would make the inner run report to this one.
  const { NODE_TEST_CONTEXT, ...env } = process.env;
  const r = spawnSync(process.execPath, ['--test', 'test/'], { cwd: t.app, encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /# pass 3/);
});

test('the package: what each tool resolves', () => {
  const pkg = JSON.parse(readFileSync(join(t.app, 'node_modules/sha1dc-wasm/package.json'), 'utf8'));
  const dot = pkg.exports['.'];
  assert.deepEqual(dot.node, { module: './inline.mjs', import: './node.mjs', require: './node.cjs' });
  assert.equal(dot.webpack, './index.mjs');
  assert.equal(dot.default, './inline.mjs');
  assert.ok(existsSync(join(t.app, 'node_modules/sha1dc-wasm/inline.mjs')));
  // The inlined glue has no import.meta (CommonJS bundles cannot have one).
  assert.ok(!readFileSync(join(t.app, 'node_modules/sha1dc-wasm/wasm/sha1dc_wasm_inline.js'), 'utf8').includes('import.meta'));
});
