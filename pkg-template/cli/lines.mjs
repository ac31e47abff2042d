// Checksum lines, in bytes: written as GNU sha1sum and sha1dcsum write them, and read back for
// --check, with the rules of sha1dcsum's lines.rs:
//   GNU `<hex>  <name>` (text) or `<hex> *<name>` (binary); BSD (--tag) `SHA1 (<name>) = <hex>`;
//   flagged `<hex> *coll* <name>` (the original C tool's), `SHA1 (<name>) = <hex> *coll*`
//   (sha1dcsum's --tag) and `SHA1 (<name>) = *coll* <hex>` (Debian's sha1cdsum).
// A name with a newline, carriage return or backslash is escaped and its line starts with `\`;
// -z lines end with NUL and are never escaped.
import { isUtf8, lossy } from './output.mjs';

const COLL = Buffer.from(' *coll* ');
/** What GNU reads as the start of the name in a line with COLL. */
const GNU_COLL = Buffer.from('coll* ');
const TAG = Buffer.from('SHA1 (');
const TAG_EQUALS = Buffer.from(') = ');
const TAG_COLL_AFTER = Buffer.from(' *coll*');
const TAG_COLL_BEFORE = Buffer.from('*coll* ');
const BACKSLASH = 0x5c;

const startsWith = (bytes, prefix) => bytes.length >= prefix.length && bytes.subarray(0, prefix.length).equals(prefix);
const endsWith = (bytes, suffix) => bytes.length >= suffix.length && bytes.subarray(bytes.length - suffix.length).equals(suffix);

/** Whether `name` must be escaped to stay on one line. */
export const needsEscape = (name) => name.some((b) => b === 0x0a || b === 0x0d || b === BACKSLASH);

/** `name` with backslash, newline and carriage return escaped. */
export function escape(name) {
  return Buffer.from(lossless(name).replace(/[\\\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : '\\r')), 'latin1');
}

/** The inverse of escape; null for a backslash before anything else (or nothing), as GNU rejects it. */
export function unescape(escaped) {
  let bad = false;
  const out = lossless(escaped).replace(/\\(.?)/gs, (_, c) => {
    if (c === '\\') return '\\';
    if (c === 'n') return '\n';
    if (c === 'r') return '\r';
    bad = true;
    return '';
  });
  return bad ? null : Buffer.from(out, 'latin1');
}

/** Bytes as a string of one character per byte, and back with Buffer.from(s, 'latin1'). */
const lossless = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');

/** A status line's name (--check): escaped, after a `\`, when it has a newline or carriage return. */
export function shown(name) {
  if (!name.some((b) => b === 0x0a || b === 0x0d)) return name;
  return Buffer.concat([Buffer.from('\\'), escape(name)]);
}

/** One output line, terminator included; `style` is 'text', 'binary' or 'tag'. */
export function writeLine(hex, name, flagged, style, zero) {
  const escaped = !zero && needsEscape(name);
  const shownName = escaped ? escape(name) : name;
  const parts = escaped ? [Buffer.from('\\')] : [];
  if (style === 'tag') {
    parts.push(TAG, shownName, TAG_EQUALS, Buffer.from(hex), flagged ? TAG_COLL_AFTER : Buffer.alloc(0));
  } else {
    // Its binary line would read as a flagged file: text mode means the same to GNU without the doubt.
    const sep = flagged ? COLL : style === 'binary' && !startsWith(name, GNU_COLL) ? ' *' : '  ';
    parts.push(Buffer.from(hex), Buffer.from(sep), shownName);
  }
  parts.push(Buffer.from(zero ? '\0' : '\n'));
  return Buffer.concat(parts);
}

/** The --json line of one input, newline included. */
export function jsonLine(name, result) {
  const c = result.collision;
  return `${JSON.stringify({
    file: lossy(name),
    ...(isUtf8(name) ? {} : { file_bytes: Buffer.from(name).toString('hex') }),
    sha1: result.sha1,
    output: result.hex,
    collision: c && { offset: c.offset, block: c.block, dv: c.dv, count: c.count },
  })}\n`;
}

const HEX40 = /^[0-9a-fA-F]{40}$/;
const parseHex = (bytes) => (bytes.length === 40 && HEX40.test(bytes.toString('latin1')) ? bytes.toString('latin1').toLowerCase() : null);

/** What parseLine says of a comment (`#` first) or an empty line: not counted, never reported. */
export const IGNORED = Object.freeze({ ignored: true });

/**
 * One line of a list (its terminator removed): { name, hex, flagged, style } for a checksum
 * line; { name, hex: null } for a `SHA1 (<name>) = ` line whose checksum is in no form known
 * here (it names a file all the same); IGNORED; null for anything else ("improperly
 * formatted"). As GNU does: a line whose very first byte is `#` is a comment, a final carriage
 * return is dropped, what is then empty is ignored, and leading blanks are skipped (so blanks
 * before a `#` make an improper line).
 */
export function parseLine(line) {
  if (line[0] === 0x23) return IGNORED;
  if (endsWith(line, Buffer.from('\r'))) line = line.subarray(0, -1);
  if (line.length === 0) return IGNORED;
  const start = line.findIndex((b) => b !== 0x20 && b !== 0x09);
  if (start < 0) return null;
  line = line.subarray(start);
  const escaped = line[0] === BACKSLASH;
  if (escaped) line = line.subarray(1);
  const parts = startsWith(line, TAG) ? parseTag(line.subarray(TAG.length)) : parseGnu(line);
  if (!parts || parts.name.length === 0) return null;
  const name = escaped ? unescape(parts.name) : Buffer.from(parts.name);
  if (name === null) return null;
  return { ...parts, name };
}

/** The BSD form after `SHA1 (`, or for any other checksum the name up to the last `) = `. */
function parseTag(rest) {
  const forms = [
    [Buffer.alloc(0), Buffer.alloc(0), false],
    [Buffer.alloc(0), TAG_COLL_AFTER, true],
    [TAG_COLL_BEFORE, Buffer.alloc(0), true],
  ];
  for (const [before, after, flagged] of forms) {
    if (!endsWith(rest, after) || rest.length - after.length < 40) continue;
    const r = rest.subarray(0, rest.length - after.length);
    const head = r.subarray(0, r.length - 40);
    const hex = parseHex(r.subarray(r.length - 40));
    if (hex === null || !endsWith(head, before)) continue;
    const beforeName = head.subarray(0, head.length - before.length);
    if (!endsWith(beforeName, TAG_EQUALS)) continue;
    return { name: beforeName.subarray(0, beforeName.length - TAG_EQUALS.length), hex, flagged, style: 'tag' };
  }
  const end = rest.lastIndexOf(TAG_EQUALS);
  return end < 0 ? null : { name: rest.subarray(0, end), hex: null, flagged: false, style: 'tag' };
}

/** GNU's form: `<hex>`, then `  <name>`, ` *<name>`, ` <name>`, or the flagged ` *coll* <name>`. */
function parseGnu(line) {
  if (line.length < 42) return null;
  const hex = parseHex(line.subarray(0, 40));
  if (hex === null) return null;
  const rest = line.subarray(40);
  if (startsWith(rest, COLL)) return { name: rest.subarray(COLL.length), hex, flagged: true, style: 'binary' };
  if (rest[0] !== 0x20) return null;
  const after = rest.subarray(1);
  if (after[0] === 0x2a) return { name: after.subarray(1), hex, flagged: false, style: 'binary' };
  if (after[0] === 0x20) return { name: after.subarray(1), hex, flagged: false, style: 'text' };
  return { name: after, hex, flagged: false, style: 'text' };
}

/**
 * `<hex> *coll* <name>` as it was meant: the line of a flagged <name>, unless no file <name>
 * exists and one named `coll* <name>` does: then GNU's binary line for that file.
 */
export function resolve(entry, exists) {
  if (!entry.flagged || entry.style === 'tag' || exists(entry.name)) return entry;
  const gnuName = Buffer.concat([GNU_COLL, entry.name]);
  return exists(gnuName) ? { ...entry, name: gnuName, flagged: false } : entry;
}
