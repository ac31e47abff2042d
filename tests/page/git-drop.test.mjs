// What the page hands git-sha1dc's verifier out of a drop (www/git.js's partition), in Node:
// git directories (a work tree's .git, a bare repository) by their folder, with all their
// files; packs whose first bytes say PACK, with the .idx beside them; bundles by their first
// line; everything else left to be hashed as files.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { partition, damageText, verdictOf } from '../../www/git.js';

/** Dropped items with the first bytes `head` answers for them. */
const drop = (heads) => Object.keys(heads).map((path) => ({ path, file: { path } }));
const run = (heads) => partition(drop(heads), async ({ path }) => heads[path]);

describe('a drop, split', () => {
  it('a work tree: its .git to the verifier, its own files as files', async () => {
    const r = await run({ 'w/.git/HEAD': '', 'w/.git/config': '', 'w/.git/objects/pack/p.pack': 'PACK', 'w/.git/objects/pack/p.idx': '', 'w/a.pdf': '', 'w/b/HEAD': '' });
    assert.deepEqual(r.paths, ['w/.git']);
    assert.deepEqual(r.entries.map(([p]) => p), ['w/.git/HEAD', 'w/.git/config', 'w/.git/objects/pack/p.pack', 'w/.git/objects/pack/p.idx']);
    assert.deepEqual(r.rest.map((i) => i.path), ['w/a.pdf', 'w/b/HEAD']);
  });

  it('bare repositories and .git folders, each named by its folder', async () => {
    const r = await run({ 'b.git/HEAD': '', 'b.git/objects/ab/cdef': '', '.git/HEAD': '', '.git/objects/pack/x.pack': 'PACK', 'empty.git/HEAD': '', 'empty.git/refs/heads/main': '' });
    assert.deepEqual(r.paths, ['b.git', '.git']);
    assert.deepEqual(r.rest.map((i) => i.path), ['empty.git/HEAD', 'empty.git/refs/heads/main']);
  });

  it('packs by their first bytes, with their .idx; bundles by their first line', async () => {
    const r = await run({
      'x.pack': 'PACK\0\0\0\x02', 'x.idx': '\xfftOc', 'y.pack': 'not a pack', 'z.idx': '\xfftOc',
      'a.bundle': '# v2 git bundle\nabc', 'c.bundle': '# v3 git bundle\n@object-format', 'b.bundle': 'a bundle of sticks', 'note.txt': 'PACK',
    });
    assert.deepEqual(r.paths, ['x.pack', 'a.bundle', 'c.bundle']);
    assert.deepEqual(r.entries.map(([p]) => p), ['x.pack', 'x.idx', 'a.bundle', 'c.bundle']);
    assert.deepEqual(r.rest.map((i) => i.path), ['y.pack', 'z.idx', 'b.bundle', 'note.txt']);
  });
});

describe('words', () => {
  it('damage in a sentence: file, entry, object, what is wrong', () => {
    assert.equal(damageText({ file: '/d/cut.pack', offset: 1234, id: null, message: 'its zlib stream: damaged or truncated zlib stream' }),
      'd/cut.pack, the entry at byte 1,234: its zlib stream: damaged or truncated zlib stream.');
    assert.equal(damageText({ file: '/d/cut.pack', offset: null, id: null, message: 'wrong trailer' }), 'd/cut.pack: wrong trailer.');
  });

  it('the verdict: collisions first, then damage, else clean', () => {
    const f = { check: 'content' };
    assert.equal(verdictOf({ findings: [f], damage: [{}] }).status, 'collision');
    assert.match(verdictOf({ findings: [f], damage: [{}] }).why, /1 problem below/);
    assert.match(verdictOf({ findings: [{ check: 'object' }], damage: [] }).why, /git with collision detection refuses them/);
    assert.equal(verdictOf({ findings: [], damage: [{}] }).status, 'damaged');
    assert.equal(verdictOf({ findings: [], damage: [] }).status, 'clean');
    assert.match(verdictOf({ findings: [], damage: [] }).why, /nor, for blobs, as a file/);
    assert.match(verdictOf({ findings: [], damage: [] }, { content: false }).why, /blobs were not checked as files/);
  });
});
