// Expected hashes: what a person pastes to compare with (a SHA-1, a sha1sum or sha1dcsum line,
// a whole checksum file), read into a lookup by path, and each file's result compared with it.
// A line is read by sha1dcsum's own parser (the package's parseChecksumLine), as
// `sha1dcsum -c` reads it; what a paste box adds is here: a hash alone on its line, comments
// and blanks anywhere, trailing blanks forgiven. No DOM; the texts that describe the outcome
// are in format.js. The package's module must be loaded (init()) before parseExpected runs.
import { parseChecksumLine } from './pkg/index.mjs';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const HASH_ALONE = /^[0-9a-fA-F]{40}$/;

/** A file's path as checksum files write it: forward slashes, no leading "./". */
export function normalizePath(name) {
  return name.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}

/**
 * One line: { hex } for a hash alone, { hex, name } for a named one, null if not understood,
 * undefined for a blank line or a comment.
 */
function parseLine(raw) {
  const trimmed = raw.trim();
  if (!trimmed || trimmed.startsWith('#')) return undefined;
  if (HASH_ALONE.test(trimmed)) return { hex: trimmed.toLowerCase() };
  // As pasted, then without the blanks a copy often leaves at its end.
  for (const line of new Set([raw, raw.trimEnd()])) {
    const parsed = parseChecksumLine(encoder.encode(line));
    if (parsed.type === 'checksum') return { hex: parsed.hex, name: decoder.decode(parsed.name) };
  }
  return null;
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
    const entry = parseLine(raw);
    if (entry === undefined) continue;
    if (!entry) bad++;
    else if (entry.name === undefined) bare.add(entry.hex);
    else named.set(normalizePath(entry.name), entry.hex);
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
