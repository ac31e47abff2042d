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

  it('writes the time left, coarser as it grows', () => {
    assert.deepEqual([0, 0.2, 1, 1.5, 9.01, 10, 12, 59.9, 60, 89, 91, 3599, 3600, 4830].map(f.timeLeftText), [
      'about 1 s left', 'about 1 s left', 'about 1 s left', 'about 2 s left', 'about 10 s left', 'about 10 s left',
      'about 15 s left', 'about 60 s left', 'about 1 min left', 'about 1 min left', 'about 2 min left',
      'about 1 h 0 min left', 'about 1 h 0 min left', 'about 1 h 21 min left',
    ]);
  });

  it('writes progress and the time a file took', () => {
    assert.equal(f.progressText(f.MiB, 4 * f.MiB, 500), '25% · 2.00 MiB/s', 'no time left while too early to say');
    assert.equal(f.progressText(f.MiB, 4 * f.MiB, 1500, 3.2), '25% · 0.67 MiB/s · about 4 s left');
    assert.equal(f.progressText(999, 1000, 1), '99% · 0.95 MiB/s', 'rounds the percentage down');
    assert.equal(f.progressText(0, 0, 0), '100% · — MiB/s');
    assert.equal(f.hashedText(200_000, 3.2), 'Hashed 195.3 KiB in 3 ms', 'no rate under 1 MiB');
    assert.equal(f.hashedText(256 * f.MiB, 2000), 'Hashed 256.0 MiB in 2.00 s · 128 MiB/s');
  });

  it('names verdicts, a mismatch its own, cancelled files apart from failed ones', () => {
    assert.deepEqual(
      ['pending', 'running', 'clean', 'collision', 'mismatch', 'cancelled', 'error'].map(f.verdictText),
      ['Waiting', 'Hashing', 'Clean', 'Collision', 'Mismatch', 'Cancelled', 'Error'],
    );
    assert.deepEqual(f.PROBLEMS, ['collision', 'mismatch', 'error']);
  });

  it('describes the backend', () => {
    assert.equal(f.backendText(1), ' · WebAssembly · 1 background worker · runs locally');
    assert.equal(f.backendText(4), ' · WebAssembly · 4 background workers · runs locally');
    assert.equal(f.loadFailedText('no wasm'), 'The WebAssembly module failed to load (no wasm). Reload the page to try again.');
  });

  it('tallies statuses and writes the summary, mismatches counted', () => {
    assert.equal(f.summaryText(f.tally([])), 'No files yet.');
    const t = f.tally(['collision', 'clean', 'pending', 'cancelled', 'error', 'collision', 'mismatch']);
    assert.deepEqual(t, { total: 7, running: 1, collisions: 2, mismatches: 1, clean: 1, notChecked: 2, errors: 1 });
    assert.equal(f.summaryText(t), '7 files · 1 in progress · 2 collisions · 1 mismatch · 1 clean · 2 not checked');
    assert.equal(f.problemCount(t), 4, 'collisions, mismatches and errors; not the cancelled file');
    assert.equal(f.summaryText(f.tally(['collision'])), '1 file · 1 collision · 0 clean');
    assert.equal(f.summaryText(f.tally(['clean', 'clean'])), '2 files · 0 collisions · 2 clean');
    assert.equal(f.summaryText(f.tally(['clean', 'clean']), true), '2 files · 0 collisions · 0 mismatches · 2 clean',
      'with expected hashes pasted, the mismatches are counted even when there are none');
    assert.equal(f.summaryText(f.tally(['mismatch', 'mismatch'])), '2 files · 0 collisions · 2 mismatches · 0 clean');
    assert.equal(f.noProblemsText(f.tally(['clean'])), 'No collisions, mismatches or errors.');
    assert.equal(f.noProblemsText(f.tally(['clean', 'pending'])), 'No collisions, mismatches or errors so far; 1 in progress.');
  });

  it('writes the announcements', () => {
    assert.equal(f.addedText(1), '1 file added.');
    assert.equal(f.addedText(3), '3 files added.');
    assert.equal(f.resultAnnouncement('a.pdf', 'collision', { block: 4 }), 'a.pdf: collision detected at block 4.');
    assert.equal(f.resultAnnouncement('b.bin', 'clean', null), 'b.bin: clean.');
    assert.equal(f.resultAnnouncement('c.iso', 'mismatch', null), 'c.iso: mismatch, not the expected hash.');
    assert.equal(f.stoppedAnnouncement('c.bin', 'cancelled', 'Cancelled'), 'c.bin: cancelled.');
    assert.equal(f.stoppedAnnouncement('d.bin', 'error', 'read 5 of 10 bytes'), 'd.bin: error, read 5 of 10 bytes.');
    assert.equal(f.copiedAnnouncement('Safe hash', true), 'Safe hash copied.');
    assert.equal(f.copiedAnnouncement('SHA-1', false), 'SHA-1 selected; press Control+C to copy.');
  });

  it('says a long burst of announcements in a few sentences', () => {
    const clean = (i) => ({ text: `f${i}: clean.`, routine: true });
    const few = [{ text: '2 files added.', routine: false }, clean(1)];
    assert.equal(f.burstAnnouncement(few), '2 files added. f1: clean.');
    const folder = [{ text: '10000 files added.', routine: false }, ...Array.from({ length: 9998 }, (_, i) => clean(i)),
      { text: 'x.pdf: collision detected at block 4.', routine: false }];
    assert.equal(f.burstAnnouncement(folder), '10000 files added. x.pdf: collision detected at block 4. 9,998 files clean.');
    const problems = Array.from({ length: 7 }, (_, i) => ({ text: `e${i}: error, gone.`, routine: false }));
    assert.equal(f.burstAnnouncement([...problems, clean(0)]),
      'e0: error, gone. e1: error, gone. e2: error, gone. e3: error, gone. e4: error, gone. And 2 more; see the list. 1 file clean.');
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
    assert.match(f.cleanExplanation(true), /git hash-object/);
  });

  it('says what a clean verdict checked, and claims no more', () => {
    const clean = f.cleanExplanation(false);
    assert.doesNotMatch(clean, /trust|alone|safe/i, 'no promise that the SHA-1 stands for this file alone');
    assert.match(clean, /^Checked: each 64-byte block, for the trace of the 32 disturbance vectors/);
    assert.match(clean, /SHAttered, SHA-mbles/);
    assert.match(clean, /not made to collide with another by those known methods/);
    assert.match(clean, /a new kind of attack could leave no such trace\.$/);
  });

  it('explains a mismatch, and in git blob mode why a sha1sum hash cannot match', () => {
    assert.match(f.mismatchExplanation(false), /^This is not the file the expected hash describes/);
    assert.doesNotMatch(f.mismatchExplanation(false), /git/);
    assert.match(f.mismatchExplanation(true), /git blob ids: a SHA-1 from sha1sum never matches one/);
    assert.equal(f.expectedValueText(['ab12']), 'ab12');
    assert.equal(f.expectedValueText(['ab12', 'cd34', 'ef56']), 'none of the 3 hashes pasted');
  });

  it('marks the git blob mode', () => {
    assert.equal(f.GIT_BLOB_MODE, 'Git blob id');
    assert.match(f.GIT_BLOB_MODE_TITLE, /Not the SHA-1 of the file/);
  });

  it('names the outcome of a comparison', () => {
    assert.equal(f.matchText({ match: 'match', equal: true }), 'Match');
    assert.equal(f.matchText({ match: 'mismatch', equal: false }), 'Mismatch');
    assert.equal(f.matchText({ match: 'unlisted', equal: false }), 'Not in the list');
    assert.equal(f.matchText({ match: 'collision', equal: true }), 'Collision: the expected SHA-1, but forged');
    assert.equal(f.matchText({ match: 'collision', equal: false }), 'Collision: no match');
  });

  it('titles collision groups', () => {
    assert.equal(f.groupTitle(2), 'These two files collide');
    assert.equal(f.groupTitle(3), 'These 3 files collide');
    assert.deepEqual(f.groupWhy(false)[0], 'They have different content but the same SHA-1, ');
    assert.deepEqual(f.groupWhy(true)[0], 'They have different content but the same git blob id, ');
    assert.match(f.groupWhy(false)[1], /^\. A system that trusts SHA-1/);
  });

  it('says when a folder was refused', () => {
    assert.match(f.folderRefusedText(['photos']), /no access to the folder "photos".*Choose a folder…/);
    assert.match(f.folderRefusedText(['a', 'b']), /the folders "a", "b"/);
  });

  it('says what it understood of the expected hashes', () => {
    const parsed = { named: new Map([['a', '1'], ['b', '2']]), bare: new Set(['3']), lines: 3, bad: 2 };
    assert.equal(f.expectedStatusText(parsed), '2 hashes with a file name, 1 hash for any file, 2 lines not understood.');
    assert.equal(f.expectedStatusText({ named: new Map(), bare: new Set(), lines: 0, bad: 1 }),
      'No SHA-1 found: paste 40 hexadecimal digits, or lines of sha1sum output.');
    assert.equal(f.expectedStatusText(null, true), '');
  });
});
