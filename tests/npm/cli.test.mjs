// `npx sha1dc-wasm`, the package's command, installed from the packed tarball, against the
// Rust sha1dcsum on the same files: the same standard output, the same exit statuses.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DATA as dataDir, ROOT as root, installTarball } from '../shared.mjs';

let t;
let rust;
before(() => {
  t = installTarball('cli');
  const target = process.env.CARGO_TARGET_DIR || join(root, 'target');
  const built = ['release', 'debug'].map((p) => join(target, p, 'sha1dcsum')).filter(existsSync);
  if (built.length === 0) {
    execFileSync('cargo', ['build', '--release', '--quiet', '--bin', 'sha1dcsum'], { cwd: root, stdio: 'inherit' });
    built.push(join(target, 'release', 'sha1dcsum'));
  }
  // The newest build.
  rust = built.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
});
after(() => t?.cleanup());

/** Runs a command in tests/data; returns { stdout, stderr, status }. */
function run(cmd, args, input) {
  const r = spawnSync(cmd[0], [...cmd.slice(1), ...args], { cwd: dataDir, input, encoding: 'utf8', maxBuffer: 1 << 26 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}
const npx = () => ['npx', '--offline', '--prefix', t.app, 'sha1dc-wasm'];
const ours = (args, input) => run(npx(), args, input);
const theirs = (args, input) => run([rust], args, input);

const FILES = readdirSync(dataDir).filter((f) => statSync(join(dataDir, f)).isFile()).sort();

test('the same lines and exit status as sha1dcsum, in every mode', () => {
  for (const mode of [[], ['--json'], ['--git-blob'], ['--reduced-round'], ['--no-safe-hash'], ['--git-blob', '--json', '--reduced-round']]) {
    const want = theirs([...mode, ...FILES]);
    const got = ours([...mode, ...FILES]);
    assert.equal(got.stdout, want.stdout, mode.join(' '));
    assert.equal(got.status, want.status, mode.join(' '));
    // The public collisions are among the files; as git blobs (a header in front) they collide no more.
    assert.equal(want.status, mode.includes('--git-blob') ? 0 : 3, mode.join(' '));
  }
  // A clean file: status 0.
  assert.deepEqual(ours(['ctrl-abc.bin', 'MANIFEST.tsv'].filter((f) => FILES.includes(f))).status, 0);
  assert.equal(ours(['MANIFEST.tsv']).stdout, theirs(['MANIFEST.tsv']).stdout);
  assert.equal(ours(['MANIFEST.tsv']).status, 0);
});

test('standard input, -, and --', () => {
  for (const args of [[], ['-'], ['--git-blob', '-'], ['--json', '-'], ['--', '-']]) {
    const want = theirs(args, 'hello\n');
    const got = ours(args, 'hello\n');
    assert.equal(got.stdout, want.stdout, args.join(' '));
    assert.equal(got.status, want.status);
  }
});

test('unreadable inputs: status 1, named on standard error with the reason, the others still hashed', () => {
  mkdirSync(join(t.work, 'a-dir'), { recursive: true });
  const args = ['no-such-file', 'shattered-1.pdf', join(t.work, 'a-dir'), 'MANIFEST.tsv'];
  const want = theirs(args);
  const got = ours(args);
  assert.equal(want.status, 1);
  assert.equal(got.status, 1);
  assert.equal(got.stdout, want.stdout);
  assert.equal(got.stderr.replaceAll('sha1dc-wasm:', 'sha1dcsum:'), want.stderr);
});

test('bad usage: status 2', () => {
  for (const args of [['--bogus'], ['-x'], ['--backend'], ['--backend', 'nope', 'MANIFEST.tsv']]) {
    const want = theirs(args);
    const got = ours(args);
    assert.equal(want.status, 2, args.join(' '));
    assert.equal(got.status, 2, args.join(' '));
    assert.equal(got.stdout, '');
    assert.match(got.stderr, /^sha1dc-wasm: /);
  }
  assert.equal(ours(['--backends']).stdout, 'simd128\n');
  assert.match(ours(['--help']).stdout, /^Usage: sha1dc-wasm \[OPTIONS\] \[FILE\|-\]\.\.\./);
  assert.match(ours(['--version']).stdout, /^sha1dc-wasm \d+\.\d+\.\d+/);
});

test('--check reads sha1dcsum and sha1sum output: OK, FAILED, FAILED open or read, COLLISION', () => {
  const list = join(t.work, 'SHA1SUMS');
  const clean = FILES.filter((f) => !/shattered|mbles|coll/.test(f));
  writeFileSync(list, theirs(clean).stdout);
  let r = ours(['--check', list]);
  assert.equal(r.stdout, clean.map((f) => `${f}: OK\n`).join(''));
  assert.equal(r.status, 0);
  // sha1sum's binary marker and the BSD form; a wrong hash; a missing file; a collision.
  const first = theirs([clean[0]]).stdout.split(' ')[0];
  writeFileSync(
    list,
    [
      `${first} *${clean[0]}`,
      `SHA1 (${clean[0]}) = ${first.toUpperCase()}`,
      `${'0'.repeat(40)}  ${clean[1]}`,
      `${first}  no-such-file`,
      theirs(['shattered-1.pdf']).stdout.trim(),
      'not a checksum line',
    ].join('\n'),
  );
  r = ours(['-c', list]);
  assert.equal(r.stdout, `${clean[0]}: OK\n${clean[0]}: OK\n${clean[1]}: FAILED\nno-such-file: FAILED open or read\nshattered-1.pdf: COLLISION\n`);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /WARNING: 1 line is improperly formatted/);
  assert.match(r.stderr, /WARNING: 1 computed checksum did NOT match/);
  // The same as the Rust sha1dcsum --check, where it has one: output, warnings, status.
  const rustCheck = theirs(['--check', list]);
  if (rustCheck.status !== 2) {
    assert.equal(r.stdout, rustCheck.stdout);
    assert.equal(r.stderr.replaceAll('sha1dc-wasm:', 'sha1dcsum:'), rustCheck.stderr);
    assert.equal(r.status, rustCheck.status);
  }
  // Only a collision: status 3.
  writeFileSync(list, theirs(['shattered-2.pdf']).stdout);
  assert.equal(ours(['--check', list]).status, 3);
  // Nothing to check: status 1.
  writeFileSync(list, 'nothing here\n');
  assert.equal(ours(['--check', list]).status, 1);
});

test('a large file streams in constant memory', () => {
  const big = join(t.work, 'big.bin');
  const fd = openSync(big, 'w');
  const chunk = Buffer.alloc(1 << 20, 0x61);
  for (let i = 0; i < 256; i++) writeSync(fd, chunk);
  closeSync(fd);
  const cli = join(t.app, 'node_modules/sha1dc-wasm/cli.mjs');
  const probe = `data:text/javascript,process.on('exit',()=>process.stderr.write('maxrss='+process.resourceUsage().maxRSS+'\\n'))`;
  const r = spawnSync(process.execPath, ['--import', probe, cli, big], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, theirs([big]).stdout);
  const kib = Number(/maxrss=(\d+)/.exec(r.stderr)[1]);
  console.log(`# 256 MiB file: maximum resident set ${Math.round(kib / 1024)} MiB`);
  assert.ok(kib < 128 * 1024, `the CLI's resident set reached ${kib} KiB for a 256 MiB file`);
});

test('names with a newline, carriage return or backslash: escaped as sha1dcsum (and GNU) escape them, and read back by --check', () => {
  const dir = join(t.work, 'odd');
  mkdirSync(dir, { recursive: true });
  const names = ['plain.txt', 'new\nline.txt', 'back\\slash.txt', 'cr\rname.txt'];
  for (const [i, n] of names.entries()) writeFileSync(join(dir, n), `content ${i}\n`);
  const paths = names.map((n) => join(dir, n));
  for (const mode of [[], ['--json']]) {
    const want = theirs([...mode, ...paths]);
    const got = ours([...mode, ...paths]);
    assert.equal(got.stdout, want.stdout, mode.join(' '));
    assert.equal(got.status, 0);
  }
  const list = join(t.work, 'odd.sums');
  writeFileSync(list, ours(paths).stdout);
  const r = ours(['--check', list]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal((r.stdout.match(/: OK$/gm) ?? []).length, names.length);
});
