// Expected hashes (www/expected.js): parsing what a person pastes and comparing each file's
// result with it. Tested in Node without a browser (the lines are read by the package's
// parseChecksumLine, tested in tests/npm; here what the page does around it).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as e from '../../www/expected.js';
import { ABC, EMPTY, clean, forged } from './known.mjs';

describe('expected.js', () => {
  it('reads sha1sum, sha1dcsum, BSD lines and hashes alone; counts what it did not understand', () => {
    const p = e.parseExpected([
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
  });

  it('reads what sha1dcsum -c reads (OpenSSL lines, a tab after the hex), forgives trailing blanks and indented comments', () => {
    const p = e.parseExpected([
      `SHA1(openssl.bin)= ${ABC}`,
      `${EMPTY}\ttab.bin`,
      `${ABC}  trailing.bin  `,
      `SHA1 (bsd.bin) = ${EMPTY} `,
      '   # an indented comment',
      `${ABC}  a name with  two spaces`,
    ].join('\n'));
    assert.deepEqual([...p.named], [
      ['openssl.bin', ABC], ['tab.bin', EMPTY], ['trailing.bin  ', ABC], ['bsd.bin', EMPTY], ['a name with  two spaces', ABC],
    ]);
    assert.deepEqual([p.lines, p.bad], [5, 0]);
  });

  it('reads both BSD forms of a flagged line (sha1dcsum: hex then *coll*; sha1cdsum: *coll* then hex)', () => {
    const p = e.parseExpected(`SHA1 (a.pdf) = ${forged.hex} *coll*\nSHA1 (b.pdf) = *coll* ${forged.sha1}`);
    assert.deepEqual([...p.named], [['a.pdf', forged.hex], ['b.pdf', forged.sha1]]);
    assert.equal(p.bad, 0);
  });

  it('reads escaped names back as sha1sum and sha1dcsum write them (a leading backslash, \\n, \\r, \\\\)', () => {
    const p = e.parseExpected([
      `\\${ABC}  two\\nlines.txt`,
      `\\${EMPTY} *coll* back\\\\slash.bin`,
      `\\SHA1 (cr\\r.bin) = ${ABC}`,
      `\\${ABC}  bad\\escape`,
    ].join('\n'));
    // normalizePath turns the backslash into a slash, on both sides of a lookup.
    assert.deepEqual([...p.named], [['two\nlines.txt', ABC], ['back/slash.bin', EMPTY], ['cr\r.bin', ABC]]);
    assert.equal(p.bad, 1);
    assert.equal(e.expectedFor(p, 'back\\slash.bin'), EMPTY);
    assert.equal(e.expectedFor(p, 'two\nlines.txt'), ABC);
  });

  it('finds a file by its path, the end of its path, or its name alone', () => {
    const p = e.parseExpected(`${ABC}  dir/abc.txt\n${EMPTY}  other/abc.txt\n${EMPTY}  unique.bin`);
    assert.equal(e.expectedFor(p, 'dir/abc.txt'), ABC);
    assert.equal(e.expectedFor(p, 'downloads/dir/abc.txt'), ABC);
    assert.equal(e.expectedFor(p, 'unique.bin'), EMPTY);
    assert.equal(e.expectedFor(p, 'folder/unique.bin'), EMPTY);
    assert.equal(e.expectedFor(p, 'abc.txt'), null, 'two candidates by name: none chosen');
    assert.equal(e.expectedFor(p, 'missing.bin'), null);
  });

  it('compares: match, mismatch with the expected value, not listed; a collision never matches', () => {
    const named = e.parseExpected(`${ABC}  a.bin\n${forged.sha1}  s.pdf\n${forged.hex}  t.pdf`);
    assert.deepEqual(e.compareExpected(named, 'a.bin', clean), { match: 'match', expected: [ABC], equal: true });
    const other = { ...clean, hex: EMPTY, sha1: EMPTY };
    assert.deepEqual(e.compareExpected(named, 'a.bin', other), { match: 'mismatch', expected: [ABC], equal: false });
    assert.deepEqual(e.compareExpected(named, 'zzz.bin', clean), { match: 'unlisted', expected: [], equal: false });
    // The forged file has the expected SHA-1 (its twin's too), or the expected safe hash: still a collision.
    assert.deepEqual(e.compareExpected(named, 's.pdf', forged), { match: 'collision', expected: [forged.sha1], equal: true });
    assert.equal(e.compareExpected(named, 't.pdf', forged).match, 'collision');
    assert.deepEqual(e.compareExpected(e.parseExpected(EMPTY), 'x', forged), { match: 'collision', expected: [EMPTY], equal: false });
    const bare = e.parseExpected(`${ABC}\n${EMPTY}`);
    assert.equal(e.compareExpected(bare, 'anything', clean).match, 'match');
    assert.deepEqual(e.compareExpected(bare, 'anything', { ...clean, hex: '0'.repeat(40), sha1: '0'.repeat(40) }),
      { match: 'mismatch', expected: [ABC, EMPTY], equal: false });
    assert.equal(e.compareExpected(null, 'a.bin', clean), null);
    assert.equal(e.compareExpected(e.parseExpected('junk'), 'a.bin', clean), null);
  });

  it('gives a file its status: a collision first, then a mismatch, else clean', () => {
    const mismatch = { match: 'mismatch', expected: [EMPTY], equal: false };
    assert.equal(e.statusOf(clean, null), 'clean');
    assert.equal(e.statusOf(clean, { match: 'match', expected: [ABC], equal: true }), 'clean');
    assert.equal(e.statusOf(clean, { match: 'unlisted', expected: [], equal: false }), 'clean');
    assert.equal(e.statusOf(clean, mismatch), 'mismatch');
    assert.equal(e.statusOf(forged, mismatch), 'collision');
    assert.equal(e.statusOf(forged, null), 'collision');
  });
});
