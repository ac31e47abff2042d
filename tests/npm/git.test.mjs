// sha1dc-wasm/git and `npx -p sha1dc-wasm git-sha1dc` side by side with the Rust git-sha1dc
// (cargo build, when missing) on generated repositories: the public collisions committed as
// blobs (the object check clean, the content check flags them), a pack with and without its
// .idx, the .idx, a bundle, loose objects, and damaged packs (cut short, a flipped byte, a delta
// chain that loops, another pack's .idx, an entry declaring more than memory holds). The same
// lines on standard output and standard error, JSON byte for byte, exit status; and the API's report, from
// the pack's bytes in memory, with the same ids, offsets, DVs and counts. On worker threads
// (-j 1, 2, 3: one instance each, sharing a pack's delta trees) and on the calling thread.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { DATA, PKG_DIR, ROOT, sha1 } from '../shared.mjs';

const { verifyGit } = await import(pathToFileURL(join(PKG_DIR, 'git.mjs')).href);
const CLI = join(PKG_DIR, 'git-cli.mjs');
const TARGET = process.env.CARGO_TARGET_DIR || join(ROOT, 'target');
const RUST = join(TARGET, 'debug', 'git-sha1dc');

const dir = mkdtempSync(join(tmpdir(), 'sha1dc-git-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const at = (...p) => join(dir, ...p);

const gitEnv = {
  ...process.env,
  HOME: dir,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'a',
  GIT_AUTHOR_EMAIL: 'a@example.org',
  GIT_COMMITTER_NAME: 'a',
  GIT_COMMITTER_EMAIL: 'a@example.org',
  GIT_AUTHOR_DATE: '2017-02-23T00:00:00Z',
  GIT_COMMITTER_DATE: '2017-02-23T00:00:00Z',
};
const git = (cwd, ...args) => execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8' });

/** A repository holding both SHAttered PDFs and a few versions of a text file (deltas). */
function repository(name, pack) {
  const repo = at(name);
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  let text = 'line\n'.repeat(400);
  for (let i = 0; i < 4; i++) {
    text += `change ${i}\n`;
    writeFileSync(join(repo, 'notes.txt'), text);
    if (i === 1) {
      copyFileSync(join(DATA, 'shattered-1.pdf'), join(repo, 'shattered-1.pdf'));
      copyFileSync(join(DATA, 'shattered-2.pdf'), join(repo, 'shattered-2.pdf'));
    }
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', `commit ${i}`);
  }
  if (pack) git(repo, 'repack', '-q', '-a', '-d');
  return repo;
}

/** The one pack of a repository, and its .idx. */
function packOf(repo) {
  const packDir = join(repo, '.git', 'objects', 'pack');
  const name = readdirSync(packDir).find((n) => n.endsWith('.pack'));
  return { pack: join(packDir, name), idx: join(packDir, name.replace(/\.pack$/, '.idx')) };
}

/** A copy of `bytes` as `name` in a directory of its own (no .idx beside it unless given). */
function lone(name, bytes, idx) {
  const d = at(`lone-${name}`);
  mkdirSync(d);
  writeFileSync(join(d, name), bytes);
  if (idx) writeFileSync(join(d, name.replace(/\.pack$/, '.idx')), idx);
  return join(d, name);
}

// A pack written by hand: entries of a type and declared size, with their zlib data.
const u32 = (n) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
function entryHeader(type, size) {
  const out = [(type << 4) | (size % 16)];
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    out[out.length - 1] |= 0x80;
    out.push(rest % 128);
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(out);
}
/** entries: { type, size, data, base? (a REF_DELTA's base id) }; returns the pack and each entry's offset and CRC32. */
function writePack(entries) {
  const parts = [Buffer.from('PACK'), u32(2), u32(entries.length)];
  let offset = 12;
  const placed = [];
  for (const e of entries) {
    const raw = Buffer.concat([entryHeader(e.type, e.size), e.base ?? Buffer.alloc(0), deflateSync(e.data)]);
    placed.push({ offset, crc: crc32(raw) });
    parts.push(raw);
    offset += raw.length;
  }
  const body = Buffer.concat(parts);
  return { bytes: Buffer.concat([body, Buffer.from(sha1(body), 'hex')]), placed };
}
/** An index (version 2) of `objects`: [id (Buffer), offset, crc]. */
function writeIdx(objects, packBytes) {
  const sorted = [...objects].sort((a, b) => Buffer.compare(a[0], b[0]));
  const fanout = [];
  for (let b = 0; b < 256; b++) fanout.push(u32(sorted.filter(([id]) => id[0] <= b).length));
  const body = Buffer.concat([
    Buffer.from([0xff, 0x74, 0x4f, 0x63]),
    u32(2),
    ...fanout,
    ...sorted.map(([id]) => id),
    ...sorted.map(([, , crc]) => u32(crc)),
    ...sorted.map(([, offset]) => u32(offset)),
    packBytes.subarray(packBytes.length - 20),
  ]);
  return Buffer.concat([body, Buffer.from(sha1(body), 'hex')]);
}
const objectId = (type, content) => Buffer.from(sha1(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content])), 'hex');

let clean;
let cleanPack;
let cases;
before(() => {
  if (!process.env.GIT_SHA1DC) {
    execFileSync('cargo', ['build', '--quiet', '-p', 'gitverify', '--bin', 'git-sha1dc'], { cwd: ROOT, stdio: 'inherit' });
  }
  clean = repository('collisions', true);
  cleanPack = packOf(clean);
  const loose = repository('loose', false);
  git(clean, 'bundle', 'create', '-q', at('all.bundle'), '--all');
  const packBytes = readFileSync(cleanPack.pack);
  const alone = lone('alone.pack', packBytes);
  // Damage: cut short, a byte flipped inside the first PDF's entry, another pack's .idx.
  const cut = lone('cut.pack', packBytes.subarray(0, packBytes.length - 4000), readFileSync(cleanPack.idx));
  const cutAlone = lone('cut-alone.pack', packBytes.subarray(0, packBytes.length - 4000));
  const flipped = Buffer.from(packBytes);
  flipped[Math.floor(flipped.length / 3)] ^= 0x40;
  const flip = lone('flip.pack', flipped, readFileSync(cleanPack.idx));
  const flipAlone = lone('flip-alone.pack', flipped);
  const second = repository('second', false);
  writeFileSync(join(second, 'other.txt'), 'another pack\n');
  git(second, 'add', '.');
  git(second, 'commit', '-q', '-m', 'another');
  git(second, 'repack', '-q', '-a', '-d');
  const wrongIdx = lone('wrong.pack', packBytes, readFileSync(packOf(second).idx));
  // A delta chain that loops (two REF_DELTAs, each on the other, through the index), and an
  // entry declaring more bytes than WebAssembly memory holds.
  const [x, y] = [Buffer.alloc(20, 0x11), Buffer.alloc(20, 0x22)];
  const delta = Buffer.from([4, 4, 0x90, 4]);
  const ok = Buffer.from('ok');
  const looped = writePack([
    { type: 7, size: delta.length, data: delta, base: y },
    { type: 7, size: delta.length, data: delta, base: x },
    { type: 3, size: ok.length, data: ok },
  ]);
  const loopIdx = writeIdx(
    [
      [x, looped.placed[0].offset, looped.placed[0].crc],
      [y, looped.placed[1].offset, looped.placed[1].crc],
      [objectId('blob', ok), looped.placed[2].offset, looped.placed[2].crc],
    ],
    looped.bytes,
  );
  const loop = lone('loop.pack', looped.bytes, loopIdx);
  const loopAlone = lone('loop-alone.pack', looped.bytes);
  const huge = lone('huge.pack', writePack([{ type: 3, size: 5 * 2 ** 30, data: ok }]).bytes);
  cases = [
    ['--content', clean],
    [clean],
    ['--json', '--content', clean],
    ['--json', join(clean, '.git')],
    ['-q', '--content', cleanPack.pack],
    ['--json', '--content', cleanPack.idx],
    ['--json', '--content', alone],
    ['--content', at('all.bundle')],
    ['--json', '--content', at('all.bundle')],
    ['--json', '--content', loose],
    ['--content', loose],
    ['--json', '--content', cut],
    ['--content', cut],
    ['--json', cutAlone],
    ['--json', '--content', flip],
    ['--content', flipAlone],
    ['--json', wrongIdx],
    ['--json', loop],
    [loop],
    ['--json', loopAlone],
    ['--json', huge],
    ['--json', at('nothing-here'), clean],
    [at('nothing-here')],
    ['-j', '2', '--json', clean, alone],
    ['-j', '1', '--content', flip, loop, clean],
    ['-j', '3', '--json', '--content', flip, loop, clean, at('all.bundle')],
    ['--frobnicate'],
    ['--help'],
    ['-j', '0'],
  ];
});

const run = (cmd, args) => spawnSync(cmd[0], [...cmd.slice(1), ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_DIR: '', GIT_OBJECT_DIRECTORY: '' } });

test('npx git-sha1dc: the same lines, JSON and exit status as git-sha1dc, case by case', () => {
  const rust = [process.env.GIT_SHA1DC || RUST];
  const npm = [process.execPath, CLI];
  const statuses = new Set();
  for (const args of cases) {
    const want = run(rust, args);
    const got = run(npm, args);
    const what = args.join(' ');
    // Findings and damage come in the order the workers (threads, instances) find them: the
    // same lines, in any order; the JSON document and the summary (last) in one order.
    const lines = (text) => text.split('\n').sort();
    assert.deepEqual(lines(got.stdout), lines(want.stdout), `standard output of ${what}`);
    assert.deepEqual(lines(got.stderr), lines(want.stderr), `standard error of ${what}`);
    if (args.includes('--json')) assert.equal(got.stdout, want.stdout, `the JSON of ${what}`);
    assert.equal(got.stderr.split('\n').at(-2), want.stderr.split('\n').at(-2), `the summary of ${what}`);
    assert.equal(got.status, want.status, `exit status of ${what}`);
    statuses.add(want.status);
  }
  // Every exit status is among the cases.
  assert.deepEqual([...statuses].sort(), [0, 1, 2, 3]);
});

test('the cases find what they must (so that agreeing is not agreeing on nothing)', () => {
  const json = (...args) => JSON.parse(run([process.execPath, CLI], ['--json', ...args]).stdout);
  const found = json('--content', clean);
  assert.equal(found.exit, 3);
  assert.equal(found.objects.blob, 6);
  assert.deepEqual(
    found.findings.map((f) => [f.check, f.id, f.offset, f.dv]),
    [
      ['content', found.findings[0].id, 256, 'II(52,0)'],
      ['content', found.findings[1].id, 256, 'II(52,0)'],
    ],
  );
  assert.deepEqual(
    found.findings.map((f) => f.id).sort(),
    [sha1(Buffer.concat([Buffer.from('blob 422435\0'), readFileSync(join(DATA, 'shattered-1.pdf'))])),
      sha1(Buffer.concat([Buffer.from('blob 422435\0'), readFileSync(join(DATA, 'shattered-2.pdf'))]))].sort(),
  );
  assert.equal(json(clean).exit, 0);
  const damaged = (args, message) => {
    const r = json(...args);
    assert.equal(r.exit, 1, args.join(' '));
    assert.ok(r.damage.some((d) => d.message.includes(message)), `${args.join(' ')}: ${JSON.stringify(r.damage)}`);
  };
  damaged([at('lone-loop.pack', 'loop.pack')], 'the delta chain loops through the entries at offsets');
  damaged([at('lone-huge.pack', 'huge.pack')], 'declares 5368709120 bytes');
  damaged([at('lone-wrong.pack', 'wrong.pack')], 'the index');
  damaged([at('lone-cut-alone.pack', 'cut-alone.pack')], 'truncated');
});

test('verifyGit: a fetched pack in memory, with and without its .idx, streaming what it finds', async () => {
  const want = JSON.parse(run([process.env.GIT_SHA1DC || RUST], ['--json', '--content', cleanPack.pack]).stdout);
  const pack = readFileSync(cleanPack.pack);
  for (const index of [readFileSync(cleanPack.idx), undefined]) {
    const seen = { findings: [], damage: [], progress: [], sources: [] };
    const result = await verifyGit(
      { pack, index, name: 'fetched.pack' },
      {
        content: true,
        onFinding: (f) => seen.findings.push(f),
        onDamage: (d) => seen.damage.push(d),
        onProgress: (p) => seen.progress.push(p),
        onSource: (s) => seen.sources.push(s),
      },
    );
    const strip = (r) => ({ ...r, findings: r.findings.map((f) => ({ ...f, file: 'fetched.pack' })) });
    assert.deepEqual(result.report, strip(want));
    assert.equal(result.exitCode, 3);
    assert.equal(result.json, JSON.stringify(result.report));
    assert.match(result.summary, /^verified 14 objects \(4 commits, 4 trees, 6 blobs, 0 tags\) in 1 files: 2 collisions, 0 damaged$/);
    assert.deepEqual(seen.sources, [{ file: 'fetched.pack', objects: 14 }]);
    assert.equal(seen.findings.length, 2);
    assert.ok(seen.findings.every((f) => f.line.startsWith("collision material in a blob's content (content check): ")));
    assert.equal(seen.progress.at(-1).objects, 14);
    assert.equal(seen.progress.at(-1).total, 14);
    assert.ok(seen.progress.every((p, i) => i === 0 || p.objects > seen.progress[i - 1].objects));
  }
  // The same as a Blob (read whole: Node has no FileReaderSync) and as a picked folder's Files.
  const strip = (r) => ({ ...r, findings: r.findings.map((f) => ({ ...f, file: 'x' })) });
  const blob = await verifyGit(new Blob([pack]), { content: true });
  assert.deepEqual(strip(blob.report), strip(want));
  assert.equal(blob.report.findings[0].file, 'memory.pack');
  const picked = [new File([pack], 'fetched.pack'), new File([readFileSync(cleanPack.idx)], 'fetched.idx')];
  const files = await verifyGit(picked, { content: true });
  assert.deepEqual(strip(files.report), strip(want));
  assert.deepEqual(files.report.objects, want.objects, 'the pack once, with its index');
  // Damage in memory: a pack cut short.
  const cut = await verifyGit(pack.subarray(0, pack.length - 4000));
  assert.equal(cut.exitCode, 1);
  assert.ok(cut.report.damage.length > 0);
  await assert.rejects(() => verifyGit(42), TypeError);
});
