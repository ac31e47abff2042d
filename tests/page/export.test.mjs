// The saved results (www/export.js), in Node: sha1dcsum's lines with GNU's escaping (written by
// the package's formatChecksumLine), its --json fields, and the git blob mode marked in both. The page's own export is compared with the real
// sha1sum, sha1dcsum and git in page.test.mjs.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as x from '../../www/export.js';
import { ABC, clean, forged } from './known.mjs';

describe('export.js', () => {
  it('writes sha1dcsum lines and --json fields', () => {
    const files = [{ name: 'a.bin', result: clean }, { name: 'dir/s.pdf', result: forged }];
    assert.equal(x.exportText(files), `${ABC}  a.bin\n${forged.hex} *coll* dir/s.pdf\n`);
    assert.deepEqual(JSON.parse(x.exportJson(files)), [
      { file: 'a.bin', sha1: ABC, output: ABC, collision: null },
      { file: 'dir/s.pdf', sha1: forged.sha1, output: forged.hex, collision: forged.collision },
    ]);
    assert.equal(x.exportText([]), '');
    assert.equal(x.exportName('txt', false), 'sha1dc-results.txt');
    assert.equal(x.exportName('json', false), 'sha1dc-results.json');
  });

  it('escapes a newline, carriage return or backslash in a name, with a backslash first on the line', () => {
    const files = [
      { name: 'two\nlines', result: clean },
      { name: 'back\\slash', result: forged },
      { name: 'cr\r', result: clean },
    ];
    assert.equal(x.exportText(files), `\\${ABC}  two\\nlines\n\\${forged.hex} *coll* back\\\\slash\n\\${ABC}  cr\\r\n`);
    assert.equal(x.exportText(files).split('\n').length, 4, 'one line per file');
    // JSON escapes by itself: the name stays exact.
    assert.deepEqual(JSON.parse(x.exportJson(files)).map((o) => o.file), ['two\nlines', 'back\\slash', 'cr\r']);
  });

  it('marks git blob ids: another file name, comment lines first, "mode": "git-blob" in JSON', () => {
    const files = [{ name: 'a.bin', result: clean }];
    assert.equal(x.exportName('txt', true), 'sha1dc-git-blob-ids.txt');
    assert.equal(x.exportName('json', true), 'sha1dc-git-blob-ids.json');
    const text = x.exportText(files, { gitBlob: true });
    assert.equal(text, `${x.GIT_BLOB_HEADER}${ABC}  a.bin\n`);
    const comments = text.split('\n').filter((l) => l.startsWith('#'));
    assert.equal(comments.length, 2);
    assert.match(comments.join(' '), /git blob ids.*not SHA-1 checksums.*not with sha1sum -c/);
    assert.deepEqual(JSON.parse(x.exportJson(files, { gitBlob: true })), [
      { file: 'a.bin', mode: 'git-blob', sha1: ABC, output: ABC, collision: null },
    ]);
    assert.ok(!x.exportText(files).includes('#'), 'plain SHA-1s: no header');
  });
});
