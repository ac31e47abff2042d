// The package's declarations, from the packed tarball, under TypeScript's module settings:
// nodenext (ES module and CommonJS), bundler, and a Node-only project (no DOM library).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { installTarball } from '../shared.mjs';
import { here, writeFiles } from './helpers.mjs';

const tsc = join(here, 'node_modules/typescript/bin/tsc');

let t;
before(() => {
  t = installTarball('types');
});
after(() => t?.cleanup());

/** Uses of the whole API, with the types it must give and the mistakes it must reject. */
const USES = `
import { init, initSync, sha1dc, sha1dcMany, createHasher, hashStream, backend, type Result, type Options, type ManyOptions, type Hasher, type StreamOptions, type Encoding } from 'sha1dc-wasm';
import { verifyGit, type GitDirectoryHandle, type VerifyGitResult } from 'sha1dc-wasm/git';
export async function uses(bytes: Uint8Array, stream: AsyncIterable<Uint8Array>, encoding: Encoding) {
  await init();
  await init(bytes);
  initSync(bytes.buffer);
  const o: Options = { safeHash: false, reducedRound: true, gitBlob: true, size: 3 };
  const r: Result = sha1dc('abc', o);
  const dv: string | undefined = r.collision?.dv;
  const raw: Uint8Array = r.bytes;
  const text: string = \`\${r}\` + r.toString() + JSON.stringify(r);
  const h: Hasher = createHasher({ gitBlob: true, size: 3 }).update(new Uint8Array(3)).update('x');
  const hex: string = h.digest('hex');
  const b64: string = createHasher().digest('base64');
  const twenty: Uint8Array = createHasher().digest('bytes');
  const bin: string = createHasher().digest('binary') + createHasher().digest('latin1');
  const res: Result = createHasher().digest();
  const any: string | Uint8Array = createHasher().digest(encoding);
  const so: StreamOptions = { signal: AbortSignal.timeout(1000), gitBlob: true, size: 1 };
  const p: Promise<Result> = hashStream(stream, so, (n: number) => void n);
  const q: Promise<Result> = hashStream(stream, (n) => void n);
  const name: string = backend();
  const mo: ManyOptions = { gitBlob: true, reducedRound: true, safeHash: false };
  const many: Result[] = sha1dcMany([bytes, 'abc', bytes.buffer], mo);
  const fromSet: Result[] = sha1dcMany(new Set<Uint8Array>([bytes]));
  // @ts-expect-error each message has its own size
  sha1dcMany([bytes], { size: 3 });
  // @ts-expect-error a batch is an array of inputs, not one input
  sha1dcMany(42);
  // @ts-expect-error a number is not an input
  sha1dc(42);
  // @ts-expect-error unknown option
  sha1dc('x', { safehash: true });
  // @ts-expect-error unknown encoding
  createHasher().digest('utf8');
  // @ts-expect-error 'binary' is a latin1 string, as in node:crypto
  const notBytes: Uint8Array = createHasher().digest('binary');
  // @ts-expect-error digest('hex') is a string, not a result
  const wrong: Result = createHasher().digest('hex');
  return [dv, raw, text, hex, b64, twenty, bin, notBytes, res, p, q, name, many, fromSet, wrong];
}
export async function gitUses(pack: Uint8Array, blob: Blob, dir: GitDirectoryHandle) {
  const r: VerifyGitResult = await verifyGit({ pack, index: blob, name: 'x.pack' }, { content: true, jobs: 2, onFinding: (f) => f.dv });
  const code: 0 | 1 | 3 = r.exitCode;
  await verifyGit(blob);
  await verifyGit([blob]);
  await verifyGit(dir);
  await verifyGit(['repo', 'other.bundle']);
  // @ts-expect-error a number is not a git input
  await verifyGit(42);
  return code;
}
`;

function check(dir, files, tsconfig) {
  writeFiles(dir, { ...files, 'tsconfig.json': JSON.stringify(tsconfig, null, 2) });
  const r = spawnSync(process.execPath, [tsc, '-p', dir], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
}

const strict = { strict: true, noEmit: true, skipLibCheck: false, target: 'es2022' };

test('nodenext, ES module and CommonJS, with the DOM library', () => {
  check(
    join(t.app, 'ts-nodenext'),
    {
      'uses.mts': USES,
      'cjs.cts': "import m = require('sha1dc-wasm');\nconst x: string = m.sha1dc('abc').sha1;\nconst y: string = m.createHasher().digest('hex');\nexport = [x, y];\n",
      // The package is reached from this folder's parent, where it is installed.
    },
    { compilerOptions: { ...strict, module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'], types: [] }, include: ['*.mts', '*.cts'] },
  );
});

test('bundler resolution (Vite, webpack, esbuild projects)', () => {
  check(join(t.app, 'ts-bundler'), { 'uses.ts': USES }, {
    compilerOptions: { ...strict, module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom', 'dom.iterable'], types: [] },
    include: ['*.ts'],
  });
});

test('a Node-only project: lib es2022, types node, no DOM', () => {
  // @types/node comes from this test folder's node_modules.
  check(join(t.app, 'ts-node-only'), { 'uses.mts': USES }, {
    compilerOptions: {
      ...strict,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      lib: ['es2022'],
      types: ['node'],
      typeRoots: [join(here, 'node_modules/@types')],
    },
    include: ['*.mts'],
  });
});
