// parseChecksumLine and formatChecksumLine: sha1dcsum's checksum lines (its Rust code, in the
// wasm module) through the package's API, their results decoded and their arguments checked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { api, data } from './helpers.mjs';

const { sha1dc, parseChecksumLine, formatChecksumLine } = api;

const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';
const B = (s) => new Uint8Array(Buffer.from(s, 'latin1'));
const text = (bytes) => Buffer.from(bytes).toString('latin1');

test('parseChecksumLine: each kind of line, names unescaped, hex in lowercase', () => {
  const checksum = (name, flagged, style) => ({ type: 'checksum', name: B(name), hex: ABC, flagged, style });
  for (const [line, want] of [
    [`${ABC}  a b`, checksum('a b', false, 'text')],
    [`${ABC} *a`, checksum('a', false, 'binary')],
    [`${ABC.toUpperCase()} *coll* x\n`, checksum('x', true, 'binary')],
    [`\\${ABC}  new\\nline\\\\`, checksum('new\nline\\', false, 'text')],
    [`SHA1 (t) = ${ABC}\r\n`, checksum('t', false, 'tag')],
    [`SHA1(t)= ${ABC}`, checksum('t', false, 'tag')],
    [`SHA1 (t) = ${ABC} *coll*`, checksum('t', true, 'tag')],
    [`SHA1 (t) = *coll* ${ABC}`, checksum('t', true, 'tag')],
    [B(`${ABC}  f\xe9\xff`), checksum('f\xe9\xff', false, 'text')],
    ['SHA1 (t) = not hex', { type: 'unreadable', name: B('t') }],
    ['not a checksum line', { type: 'improper' }],
    [`\\${ABC}  bad\\escape`, { type: 'improper' }],
    ['# a comment', { type: 'ignored' }],
    ['', { type: 'ignored' }],
  ]) {
    assert.deepEqual(parseChecksumLine(line), want, JSON.stringify(text(typeof line === 'string' ? B(line) : line)));
  }
  // A string is read as UTF-8.
  assert.equal(Buffer.from(parseChecksumLine(`${ABC}  é`).name).toString(), 'é');
});

test('formatChecksumLine: sha1dcsum\'s lines in each style, flagged, escaped, NUL-terminated', () => {
  const clean = sha1dc('abc');
  const flagged = sha1dc(data('shattered-1.pdf'));
  const line = (...args) => text(formatChecksumLine(...args));
  assert.equal(line(clean, 'abc.txt'), `${ABC}  abc.txt\n`);
  assert.equal(line(clean, 'abc.txt', { style: 'binary' }), `${ABC} *abc.txt\n`);
  assert.equal(line(clean, 'coll* x', { style: 'binary' }), `${ABC}  coll* x\n`, 'never a line that reads as flagged');
  assert.equal(line(clean, 'a', { style: 'tag' }), `SHA1 (a) = ${ABC}\n`);
  assert.equal(line(flagged, 's.pdf'), `${flagged.hex} *coll* s.pdf\n`);
  assert.equal(line(flagged, 's.pdf', { style: 'tag' }), `SHA1 (s.pdf) = ${flagged.hex} *coll*\n`);
  assert.equal(line(clean, 'a\nb\\'), `\\${ABC}  a\\nb\\\\\n`);
  assert.equal(line(clean, 'a\nb', { zero: true }), `${ABC}  a\nb\0`);
  assert.equal(line({ hex: ABC, collision: null }, B('f\xe9')), `${ABC}  f\xe9\n`);
  // What it writes reads back as the same file and checksum.
  for (const name of ['plain', ' lead', 'x) = y', '*star', 'coll* x', 'a\r\nb\\', 'f\xe9\xff']) {
    for (const style of ['text', 'binary', 'tag']) {
      for (const result of [clean, flagged]) {
        const back = parseChecksumLine(formatChecksumLine(result, B(name), { style }));
        assert.equal(back.type, 'checksum');
        assert.deepEqual([text(back.name), back.hex, back.flagged], [name, result.hex, result.collision !== null], `${name} ${style}`);
      }
    }
  }
});

test('bad arguments are TypeErrors (a bad hex an Error) that say what was given', () => {
  const clean = sha1dc('abc');
  assert.throws(() => parseChecksumLine(42), /sha1dc: line must be .*; got number 42/);
  assert.throws(() => formatChecksumLine('abc', 'x'), /sha1dc: formatChecksumLine\(\) result must be a result object/);
  assert.throws(() => formatChecksumLine(clean, null), /sha1dc: name must be .*; got null/);
  assert.throws(() => formatChecksumLine(clean, 'x', { style: 'bsd' }), /option style must be 'text', 'binary' or 'tag'; got a string/);
  assert.throws(() => formatChecksumLine(clean, 'x', { zero: 1 }), /option zero must be a boolean/);
  assert.throws(() => formatChecksumLine(clean, 'x', { tag: true }), /unknown option "tag" for formatChecksumLine\(\); the options are style, zero/);
  assert.throws(() => formatChecksumLine({ hex: 'xyz', collision: null }, 'x'), { name: 'TypeError', message: /result.hex must be 40 hex digits; got "xyz"/ });
});
