// Expected hashes: what a person pastes to compare with (a SHA-1, a sha1sum or sha1dcsum line,
// a whole checksum file), read into a lookup by path, and each file's result compared with it.
// Pure functions, no DOM; the texts that describe the outcome are in format.js.

/** A file's path as checksum files write it: forward slashes, no leading "./". */
export function normalizePath(name) {
  return name.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}

/**
 * The name of a line that started with a backslash, as sha1sum and sha1dcsum escape it (`\\`,
 * `\n`, `\r`); null on any other escape, which GNU rejects too.
 */
export function unescapeName(name) {
  let bad = false;
  const out = name.replace(/\\(.?)/g, (_, c) => {
    if (c === '\\') return '\\';
    if (c === 'n') return '\n';
    if (c === 'r') return '\r';
    bad = true;
    return '';
  });
  return bad ? null : out;
}

const HEX = '[0-9a-fA-F]{40}';
/** `<hex>  <name>`, `<hex> *<name>` (sha1sum) and `<hex> *coll* <name>` (sha1dcsum). */
const GNU_LINE = new RegExp(`^(${HEX}) (?:\\*coll\\* | |\\*)(.+)$`);
/** `SHA1 (<name>) = <hex>`, with sha1dcsum's ` *coll*` after the hex or sha1cdsum's before it. */
const BSD_LINE = new RegExp(`^SHA1 ?\\((.+)\\) ?= ?(?:\\*coll\\* )?(${HEX})(?: \\*coll\\*)?$`);

/** One non-blank line: { hex } for a hash alone, { hex, name } for a named one, null if not understood. */
function parseLine(raw) {
  const escaped = raw.trimStart().startsWith('\\');
  const line = escaped ? raw.trimStart().slice(1) : raw;
  const alone = new RegExp(`^(${HEX})$`).exec(line.trim());
  if (alone) return { hex: alone[1] };
  let m = GNU_LINE.exec(line.replace(/\r$/, '').trimStart());
  let hex, name;
  if (m) [, hex, name] = m;
  else if ((m = BSD_LINE.exec(line.trim()))) [, name, hex] = m;
  else return null;
  if (escaped) name = unescapeName(name);
  return name === null ? null : { hex, name };
}

/**
 * Parses pasted text; blank lines and # comments are skipped. Returns { named: Map(path -> hex),
 * bare: Set(hex), lines, bad } (hex in lower case; `lines` counts the lines understood, `bad`
 * those that were not).
 */
export function parseExpected(text) {
  const named = new Map();
  const bare = new Set();
  let lines = 0;
  let bad = 0;
  for (const raw of String(text).split(/\r?\n/)) {
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    const entry = parseLine(raw);
    if (!entry) bad++;
    else if (entry.name === undefined) bare.add(entry.hex.toLowerCase());
    else named.set(normalizePath(entry.name), entry.hex.toLowerCase());
    if (entry) lines++;
  }
  return { named, bare, lines, bad };
}

/**
 * The expected hash for a file at `path`, or null: the same path, else the one listed path that
 * ends the other, else the one listed file of the same name (two candidates: none is chosen).
 */
export function expectedFor(parsed, path) {
  const p = normalizePath(path);
  if (parsed.named.has(p)) return parsed.named.get(p);
  const one = (list) => (list.length === 1 ? list[0][1] : null);
  const named = [...parsed.named];
  const ends = named.filter(([name]) => p.endsWith(`/${name}`) || name.endsWith(`/${p}`));
  if (ends.length) return one(ends);
  const base = (s) => s.slice(s.lastIndexOf('/') + 1);
  return one(named.filter(([name]) => base(name) === base(p)));
}

/**
 * @typedef {{ match: 'match' | 'mismatch' | 'collision' | 'unlisted', expected: string[], equal: boolean }} Comparison
 *   `expected`: the hashes the file was compared with (its own line's, else every hash pasted
 *   alone); `equal`: one of them is the file's SHA-1 or its output
 */

/**
 * A file's result against the expected hashes: null when nothing was pasted. A collision is
 * never a match, even with the expected SHA-1: a forged twin has it too.
 * @returns {Comparison | null}
 */
export function compareExpected(parsed, path, result) {
  if (!parsed || !parsed.lines) return null;
  const want = expectedFor(parsed, path);
  const expected = want ? [want] : [...parsed.bare];
  if (!expected.length) return { match: 'unlisted', expected, equal: false };
  const equal = expected.includes(result.sha1) || expected.includes(result.hex);
  const match = result.collision ? 'collision' : equal ? 'match' : 'mismatch';
  return { match, expected, equal };
}

/**
 * A hashed file's status: a collision first, whatever was expected; then a mismatch with the
 * expected hash; else clean.
 * @param {Comparison | null} cmp
 * @returns {'collision' | 'mismatch' | 'clean'}
 */
export function statusOf(result, cmp) {
  if (result.collision) return 'collision';
  return cmp?.match === 'mismatch' ? 'mismatch' : 'clean';
}
