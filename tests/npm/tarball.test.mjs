// The package as a user gets it: `npm pack` of pkg/, installed into a fresh
// temporary project, used from `import` and from `require` (and its types
// resolved through the exports map).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { after, test } from 'node:test';
import { DATA, installTarball } from '../shared.mjs';

const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';
let installed = null;
after(() => installed?.cleanup());

const node = (args, cwd) => execFileSync(process.execPath, args, { cwd, encoding: 'utf8' }).trim();

test('npm pack, npm install, import and require', () => {
  installed = installTarball('tarball');
  const { app, files } = installed;
  assert.deepEqual(files, [
    'LICENSE',
    'README.md',
    'calls.cjs',
    'calls.mjs',
    'checksums.cjs',
    'checksums.mjs',
    'cli.mjs',
    'cli/check.mjs',
    'cli/input.mjs',
    'cli/output.mjs',
    'cli/walk.mjs',
    'core.cjs',
    'core.mjs',
    'deno.mjs',
    'filter-worker-node.mjs',
    'filter-worker.mjs',
    'filter.cjs',
    'filter.mjs',
    'filtering.mjs',
    'git-cli.mjs',
    'git-core.mjs',
    'git-files.mjs',
    'git-memory.mjs',
    'git-web.mjs',
    'git-worker-node.mjs',
    'git.d.ts',
    'git.mjs',
    'hasher.cjs',
    'hasher.mjs',
    'index.d.cts',
    'index.d.ts',
    'index.mjs',
    'inline-api.mjs',
    'inline.mjs',
    'input.cjs',
    'input.mjs',
    'many.cjs',
    'many.mjs',
    'node.cjs',
    'node.mjs',
    'package.json',
    'result.cjs',
    'result.mjs',
    'stream.cjs',
    'stream.mjs',
    'wasm/gitverify.js',
    'wasm/gitverify_bg.wasm',
    'wasm/sha1dc_wasm.d.ts',
    'wasm/sha1dc_wasm.js',
    'wasm/sha1dc_wasm_base64.mjs',
    'wasm/sha1dc_wasm_bg.wasm',
    'wasm/sha1dc_wasm_inline.js',
    'wasm/sha1dc_wasm_node.cjs',
    'wasm/sha1dcsum_cli.cjs',
    'wasm/sha1dcsum_cli_bg.wasm',
    'workerd.mjs',
    'workers.cjs',
    'workers.mjs',
  ]);
  assert.ok(existsSync(join(app, 'node_modules/sha1dc-wasm/wasm/sha1dc_wasm_bg.wasm')));
  assert.deepEqual(readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.')), ['sha1dc-wasm']);

  writeFileSync(
    join(app, 'esm.mjs'),
    `import { init, sha1dc, createHasher, hashStream, backend } from 'sha1dc-wasm';
     import { readFileSync } from 'node:fs';
     await init();
     const r = await hashStream(new Blob(['ab', 'c']));
     const shattered = sha1dc(readFileSync(process.argv[2]));
     console.log([sha1dc('abc').hex, createHasher().update('abc').digest().hex, r.hex, backend(), shattered.collision.dv].join(' '));`,
  );
  const pdf = join(DATA, 'shattered-1.prefix320.bin');
  assert.equal(node(['esm.mjs', pdf], app), `${ABC} ${ABC} ${ABC} simd128 II(52,0)`);

  writeFileSync(
    join(app, 'cjs.cjs'),
    `const { sha1dc, backend, init } = require('sha1dc-wasm');
     init().then(() => console.log(sha1dc('abc').hex, backend(), require.resolve('sha1dc-wasm/sha1dc_wasm_bg.wasm').endsWith('wasm/sha1dc_wasm_bg.wasm')));`,
  );
  assert.equal(node(['cjs.cjs'], app), `${ABC} simd128 true`);

  // The declarations, through the exports map, from an ES module and from
  // CommonJS (TypeScript's nodenext resolution), when TypeScript is installed.
  let tsc = null;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    // Not installed (scripts/test-wasm.sh installs it): the type check is skipped, but not in CI.
    assert.ok(!process.env.CI, 'TypeScript is not installed in tests/npm (scripts/test-wasm.sh installs it)');
  }
  if (tsc) {
    writeFileSync(
      join(app, 'types.mts'),
      `import { init, initSync, sha1dc, createHasher, createFilter, hashStream, backend, parseChecksumLine, formatChecksumLine, type Result, type Options, type Filter, type ChecksumLine } from 'sha1dc-wasm';
       await init();
       initSync(new Uint8Array(0));
       const o: Options = { safeHash: false, reducedRound: true, gitBlob: true, size: 3 };
       const r: Result = sha1dc('abc', o);
       const dv: string | undefined = r.collision?.dv;
       const h = createHasher({ gitBlob: true, size: 3 }).update(new Uint8Array(3)).update('x');
       const hex: string = h.digest().hex;
       const p: Promise<Result> = hashStream(new Blob([]), (n: number) => void n);
       const q: Promise<Result> = hashStream(new Blob([]), null, (n) => void n);
       const b: string = backend();
       const f: Filter = createFilter({ gitBlob: true, size: 3 });
       const masks: Uint32Array = f.filter(new Uint8Array(3));
       createHasher({ gitBlob: true, size: 3 }).updateWithMasks(new Uint8Array(3), masks);
       const w: Promise<Result> = hashStream(new Blob([]), { worker: 'auto' });
       hashStream(new Blob([]), { worker: () => new Worker(new URL('./w.mjs', import.meta.url), { type: 'module' }) });
       // @ts-expect-error worker is true, false, 'auto' or a function that starts one
       hashStream(new Blob([]), { worker: 2 });
       const line: ChecksumLine = parseChecksumLine('SHA1 (a) = ' + r.hex);
       const named: Uint8Array | null = line.type === 'checksum' || line.type === 'unreadable' ? line.name : null;
       const written: Uint8Array = formatChecksumLine(r, 'a', { style: 'tag', zero: false });
       // @ts-expect-error the styles are text, binary and tag
       formatChecksumLine(r, 'a', { style: 'bsd' });
       // @ts-expect-error a number is not an input
       sha1dc(42);
       // @ts-expect-error unknown option
       sha1dc('x', { safehash: true });
       export { dv, hex, p, q, b, w, named, written };`,
    );
    writeFileSync(join(app, 'types.cts'), "import m = require('sha1dc-wasm');\nconst x: string = m.sha1dc('abc').sha1;\nexport = x;\n");
    writeFileSync(
      join(app, 'git.mts'),
      `import { verifyGit, type GitFinding, type VerifyGitResult } from 'sha1dc-wasm/git';
       const r: VerifyGitResult = await verifyGit({ pack: new Uint8Array(0), name: 'x.pack' }, {
         content: true,
         onFinding: (f: GitFinding) => void f.dv,
         onProgress: ({ objects, total, bytes }) => void (objects + total + bytes),
       });
       const exit: 0 | 1 | 3 = r.exitCode;
       const ids: string[] = r.report.findings.map((f) => f.id);
       // @ts-expect-error a number is not an input
       verifyGit(42);
       export { exit, ids };`,
    );
    node([tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', 'types.mts', 'types.cts', 'git.mts'], app);
  }

  // The second command, as `npx -p sha1dc-wasm git-sha1dc` runs it.
  const version = JSON.parse(readFileSync(join(app, 'node_modules/sha1dc-wasm/package.json'), 'utf8')).version;
  assert.equal(execFileSync(join(app, 'node_modules/.bin/git-sha1dc'), ['--version'], { cwd: app, encoding: 'utf8' }), `git-sha1dc ${version}\n`);

  // import.meta.resolve / require.resolve pick the Node entries.
  assert.match(node(['--input-type=module', '-e', "console.log(import.meta.resolve('sha1dc-wasm'))"], app), /node\.mjs$/);
  assert.match(node(['-e', "console.log(require.resolve('sha1dc-wasm'))"], app), /node\.cjs$/);
});
