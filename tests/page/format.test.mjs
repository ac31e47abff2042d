// The checker page's texts (www/format.js): pure functions, tested in Node without a browser.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as f from '../../www/format.js';

describe('format.js', () => {
  it('writes sizes in bytes and binary units', () => {
    assert.equal(f.formatSize(0), '0 bytes');
    assert.equal(f.formatSize(1), '1 byte');
    assert.equal(f.formatSize(1023), '1023 bytes');
    assert.equal(f.formatSize(1024), '1.00 KiB');
    assert.equal(f.formatSize(200_000), '195.3 KiB');
    assert.equal(f.formatSize(1.5 * f.MiB), '1.50 MiB');
    assert.equal(f.formatSize(512 * f.MiB), '512.0 MiB');
    assert.equal(f.formatSize(3 * 1024 ** 3), '3.00 GiB');
    assert.equal(f.formatSize(2048 * 1024 ** 4), '2048.0 TiB', 'TiB is the largest unit');
  });

  it('writes rates with fewer decimals as they grow, and a dash without a duration', () => {
    assert.equal(f.formatRate(f.MiB, 1000), '1.00 MiB/s');
    assert.equal(f.formatRate(50 * f.MiB, 1000), '50.0 MiB/s');
    assert.equal(f.formatRate(512 * f.MiB, 400), '1280 MiB/s');
    assert.equal(f.formatRate(f.MiB, 0), '— MiB/s');
    assert.equal(f.formatRate(f.MiB, NaN), '— MiB/s');
  });

  it('writes durations', () => {
    assert.equal(f.formatMs(0.4), '< 1 ms');
    assert.equal(f.formatMs(12.6), '13 ms');
    assert.equal(f.formatMs(999.4), '999 ms');
    assert.equal(f.formatMs(1500), '1.50 s');
  });

  it('writes progress and the time a file took', () => {
    assert.equal(f.progressText(f.MiB, 4 * f.MiB, 500), '25% · 2.00 MiB/s');
    assert.equal(f.progressText(999, 1000, 1), '99% · 0.95 MiB/s', 'rounds the percentage down');
    assert.equal(f.progressText(0, 0, 0), '100% · — MiB/s');
    assert.equal(f.hashedText(200_000, 3.2), 'Hashed 195.3 KiB in 3 ms', 'no rate under 1 MiB');
    assert.equal(f.hashedText(256 * f.MiB, 2000), 'Hashed 256.0 MiB in 2.00 s · 128 MiB/s');
  });

  it('names verdicts, with cancelled files apart from failed ones', () => {
    assert.deepEqual(
      ['pending', 'running', 'clean', 'collision', 'cancelled', 'error'].map(f.verdictText),
      ['Waiting', 'Hashing', 'Clean', 'Collision', 'Cancelled', 'Error'],
    );
  });

  it('describes the engine', () => {
    assert.equal(f.engineText(1), ' · WebAssembly · 1 background worker · runs locally');
    assert.equal(f.engineText(4), ' · WebAssembly · 4 background workers · runs locally');
    assert.equal(f.engineFailedText('no wasm'), 'The hashing engine failed to load (no wasm). Reload the page to try again.');
  });

  it('tallies statuses and writes the summary', () => {
    assert.equal(f.summaryText(f.tally([])), 'No files yet.');
    const t = f.tally(['collision', 'clean', 'pending', 'cancelled', 'error', 'collision']);
    assert.deepEqual(t, { total: 6, running: 1, collisions: 2, clean: 1, notChecked: 2 });
    assert.equal(f.summaryText(t), '6 files · 1 in progress · 2 collisions · 1 clean · 2 not checked');
    assert.equal(f.summaryText(f.tally(['collision'])), '1 file · 1 collision · 0 clean');
    assert.equal(f.summaryText(f.tally(['clean', 'clean'])), '2 files · 0 collisions · 2 clean');
  });

  it('writes the announcements', () => {
    assert.equal(f.addedText(1), '1 file added.');
    assert.equal(f.addedText(3), '3 files added.');
    assert.equal(f.resultAnnouncement('a.pdf', { block: 4 }), 'a.pdf: collision detected at block 4.');
    assert.equal(f.resultAnnouncement('b.bin', null), 'b.bin: clean.');
    assert.equal(f.stoppedAnnouncement('c.bin', 'cancelled', 'Cancelled'), 'c.bin: cancelled.');
    assert.equal(f.stoppedAnnouncement('d.bin', 'error', 'read 5 of 10 bytes'), 'd.bin: error, read 5 of 10 bytes.');
    assert.equal(f.copiedAnnouncement('Safe hash', true), 'Safe hash copied.');
    assert.equal(f.copiedAnnouncement('SHA-1', false), 'SHA-1 selected; press Control+C to copy.');
  });

  it('labels digests and the flagged block', () => {
    assert.deepEqual(f.digestLabels(false, false), { safe: 'SHA-1' });
    assert.deepEqual(f.digestLabels(true, false), { safe: 'Git blob id' });
    assert.deepEqual(f.digestLabels(false, true), { plain: 'SHA-1', safe: 'Safe hash' });
    assert.deepEqual(f.digestLabels(true, true), { plain: 'Git blob id (plain SHA-1)', safe: 'Safe git blob id' });
    assert.equal(f.blockText({ block: 4, offset: 256 }), '#4 (bytes 256–319)');
    assert.equal(f.blockText({ block: 20000, offset: 1_280_000 }), '#20000 (bytes 1,280,000–1,280,063)');
  });

  it('explains a collision with its block, offset and disturbance vector', () => {
    const text = f.collisionExplanation({ block: 9, offset: 576, dv: 'II(52,0)' });
    assert.match(text, /^this file contains a block/);
    assert.ok(text.includes('At block #9, starting at byte 576, '), text);
    assert.ok(text.includes('disturbance vector II(52,0), '), text);
    assert.ok(text.includes('SHA\u20111.'), 'no line break inside SHA-1');
    assert.match(f.cleanExplanation(false), /^No trace of a collision attack/);
    assert.match(f.cleanExplanation(true), /git hash-object/);
  });

  it('titles collision groups', () => {
    assert.equal(f.groupTitle(2), 'These two files collide');
    assert.equal(f.groupTitle(3), 'These 3 files collide');
    assert.deepEqual(f.groupWhy(false)[0], 'They have different content but the same SHA-1, ');
    assert.deepEqual(f.groupWhy(true)[0], 'They have different content but the same git blob id, ');
    assert.match(f.groupWhy(false)[1], /^\. A system that trusts SHA-1/);
  });
});

describe('format.js: expected hashes and export', () => {
  const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';
  const EMPTY = 'da39a3ee5e6b4b0d3255bfef95601890afd80709';
  const clean = { hex: ABC, sha1: ABC, collision: null };
  const forged = { hex: '16e96b70000dd1e7c85b8368ee197754400e58ec', sha1: '38762cf7f55934b34d179ae6a4c80cadccbb7f0a', collision: { offset: 256, block: 4, dv: 'II(52,0)', count: 1 } };

  it('reads sha1sum, sha1dcsum, BSD lines and hashes alone; counts what it did not understand', () => {
    const p = f.parseExpected([
      `${ABC}  ./dir/abc.txt`,
      `${EMPTY} *empty.bin`,
      `${forged.hex} *coll* shattered-1.pdf`,
      `SHA1 (win\\path.exe) = ${ABC.toUpperCase()}`,
      `  ${EMPTY.toUpperCase()}  `,
      '# a comment',
      '',
      'nonsense',
      `${ABC.slice(1)}  short.bin`,
    ].join('\r\n'));
    assert.deepEqual([...p.named], [['dir/abc.txt', ABC], ['empty.bin', EMPTY], ['shattered-1.pdf', forged.hex], ['win/path.exe', ABC]]);
    assert.deepEqual([...p.bare], [EMPTY]);
    assert.equal(p.lines, 5);
    assert.equal(p.bad, 2);
    assert.equal(f.expectedStatusText(p), '4 hashes with a file name, 1 hash for any file, 2 lines not understood.');
    assert.equal(f.expectedStatusText(f.parseExpected('x')), 'No SHA-1 found: paste 40 hexadecimal digits, or lines of sha1sum output.');
    assert.equal(f.expectedStatusText(null, true), '');
  });

  it('finds a file by its path, the end of its path, or its name alone', () => {
    const p = f.parseExpected(`${ABC}  dir/abc.txt\n${EMPTY}  other/abc.txt\n${EMPTY}  unique.bin`);
    assert.equal(f.expectedFor(p, 'dir/abc.txt'), ABC);
    assert.equal(f.expectedFor(p, 'downloads/dir/abc.txt'), ABC);
    assert.equal(f.expectedFor(p, 'unique.bin'), EMPTY);
    assert.equal(f.expectedFor(p, 'folder/unique.bin'), EMPTY);
    assert.equal(f.expectedFor(p, 'abc.txt'), null, 'two candidates by name: none chosen');
    assert.equal(f.expectedFor(p, 'missing.bin'), null);
  });

  it('compares: match, mismatch, not listed; a collision never matches', () => {
    const named = f.parseExpected(`${ABC}  a.bin\n${forged.sha1}  s.pdf\n${forged.hex}  t.pdf`);
    assert.deepEqual(f.compareExpected(named, 'a.bin', clean), { match: 'match', text: 'Match' });
    assert.deepEqual(f.compareExpected(named, 'a.bin', { ...clean, hex: EMPTY, sha1: EMPTY }), { match: 'mismatch', text: 'Mismatch' });
    assert.deepEqual(f.compareExpected(named, 'zzz.bin', clean), { match: 'unlisted', text: 'Not in the list' });
    // The forged file has the expected SHA-1 (its twin's too), or the expected safe hash: still a collision.
    assert.equal(f.compareExpected(named, 's.pdf', forged).match, 'collision');
    assert.equal(f.compareExpected(named, 't.pdf', forged).match, 'collision');
    assert.deepEqual(f.compareExpected(f.parseExpected(EMPTY), 'x', forged), { match: 'collision', text: 'Collision: no match' });
    const bare = f.parseExpected(`${ABC}\n${EMPTY}`);
    assert.equal(f.compareExpected(bare, 'anything', clean).match, 'match');
    assert.equal(f.compareExpected(null, 'a.bin', clean), null);
    assert.equal(f.compareExpected(f.parseExpected('junk'), 'a.bin', clean), null);
  });

  it('exports sha1dcsum lines and --json fields', () => {
    const files = [{ name: 'a.bin', result: clean }, { name: 'dir/s.pdf', result: forged }];
    assert.equal(f.exportText(files), `${ABC}  a.bin\n${forged.hex} *coll* dir/s.pdf\n`);
    assert.deepEqual(JSON.parse(f.exportJson(files)), [
      { file: 'a.bin', sha1: ABC, output: ABC, collision: null },
      { file: 'dir/s.pdf', sha1: forged.sha1, output: forged.hex, collision: forged.collision },
    ]);
    assert.equal(f.exportText([]), '');
  });

  it('says when a folder was refused', () => {
    assert.match(f.folderRefusedText(['photos']), /no access to the folder "photos".*Choose a folder…/);
    assert.match(f.folderRefusedText(['a', 'b']), /the folders "a", "b"/);
  });
});
