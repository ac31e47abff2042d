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
