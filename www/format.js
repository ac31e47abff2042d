// Every text the checker page shows, as pure functions: no DOM, no state. Tested with
// `node --test` in tests/page/format.test.mjs.

export const MiB = 1024 * 1024;

/** "1 file", "3 files". */
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A number the way the page writes it: 1,234,567. */
export function formatNumber(n) {
  return n.toLocaleString('en-US');
}

export function formatSize(n) {
  if (n < 1024) return plural(n, 'byte');
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024, u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`;
}

export function formatRate(bytes, ms) {
  if (!(ms > 0)) return '— MiB/s';
  const r = bytes / MiB / (ms / 1000);
  return `${r.toFixed(r < 10 ? 2 : r < 100 ? 1 : 0)} MiB/s`;
}

export function formatMs(ms) {
  if (ms < 1) return '< 1 ms';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** While hashing: "42% · 812 MiB/s". */
export function progressText(done, total, ms) {
  const pct = total ? Math.floor((done / total) * 100) : 100;
  return `${pct}% · ${formatRate(done, ms)}`;
}

/** Once hashed: "Hashed 1.50 MiB in 12 ms · 125 MiB/s" (the rate only from 1 MiB up). */
export function hashedText(total, ms) {
  return `Hashed ${formatSize(total)} in ${formatMs(ms)}${total >= MiB ? ` · ${formatRate(total, ms)}` : ''}`;
}

/** The badge of a file row, by status ('running' is a pending file a worker has taken). */
export function verdictText(status) {
  switch (status) {
    case 'pending': return 'Waiting';
    case 'running': return 'Hashing';
    case 'clean': return 'Clean';
    case 'collision': return 'Collision';
    case 'cancelled': return 'Cancelled';
    default: return 'Error';
  }
}

export const QUEUED = 'Queued';
export const WAITING_FOR_ENGINE = 'Waiting for the engine…';
export const HASHING = 'Hashing…';
export const CANCELLING = 'Cancelling…';
export const CANCELLED = 'Cancelled';
export const ENGINE_DID_NOT_LOAD = 'The hashing engine did not load.';
export const WORKER_DID_NOT_LOAD = 'the worker script could not be loaded';

/** What follows the engine's name: " · WebAssembly · 4 background workers · runs locally". */
export function engineText(workers) {
  return ` · WebAssembly · ${plural(workers, 'background worker')} · runs locally`;
}

export function engineFailedText(reason) {
  return `The hashing engine failed to load (${reason}). Reload the page to try again.`;
}

/** Counts of file statuses; cancelled and failed files are both "not checked". */
export function tally(statuses) {
  const t = { total: 0, running: 0, collisions: 0, clean: 0, notChecked: 0 };
  for (const status of statuses) {
    t.total++;
    if (status === 'collision') t.collisions++;
    else if (status === 'clean') t.clean++;
    else if (status === 'cancelled' || status === 'error') t.notChecked++;
    else t.running++;
  }
  return t;
}

/** "4 files · 1 in progress · 2 collisions · 1 clean · 1 not checked". */
export function summaryText(t) {
  if (!t.total) return 'No files yet.';
  const parts = [plural(t.total, 'file')];
  if (t.running) parts.push(`${t.running} in progress`);
  parts.push(plural(t.collisions, 'collision'), `${t.clean} clean`);
  if (t.notChecked) parts.push(`${t.notChecked} not checked`);
  return parts.join(' · ');
}

// Screen-reader announcements.

export function addedText(n) {
  return `${plural(n, 'file')} added.`;
}

export function resultAnnouncement(name, collision) {
  return `${name}: ${collision ? `collision detected at block ${collision.block}` : 'clean'}.`;
}

export function stoppedAnnouncement(name, status, message) {
  return `${name}: ${status === 'cancelled' ? 'cancelled' : `error, ${message}`}.`;
}

export function copiedAnnouncement(label, ok) {
  return ok ? `${label} copied.` : `${label} selected; press Control+C to copy.`;
}

// The digests of a file and what they mean.

/** Labels of the digest rows: `plain` is the SHA-1 itself, `safe` the safe hash of a collision. */
export function digestLabels(gitBlob, collided) {
  if (!collided) return { safe: gitBlob ? 'Git blob id' : 'SHA-1' };
  return {
    plain: gitBlob ? 'Git blob id (plain SHA-1)' : 'SHA-1',
    safe: gitBlob ? 'Safe git blob id' : 'Safe hash',
  };
}

export const PLAIN_NOTE = 'Shared with every file forged to collide with this one.';
export const SAFE_NOTE = 'Differs from the SHA-1, so this file and its twin can be told apart.';

/** "#4 (bytes 256–319)": the flagged 64-byte block. */
export function blockText(c) {
  return `#${c.block} (bytes ${formatNumber(c.offset)}–${formatNumber(c.offset + 63)})`;
}

export function cleanExplanation(gitBlob) {
  return gitBlob
    ? 'No collision in the git blob id; this is what git hash-object prints. (Git hashes a "blob <size>" ' +
      'header first, which shifts a collision made for plain SHA-1 out of line: turn the toggle off to check the file itself.)'
    : 'No trace of a collision attack: this SHA-1 can be trusted to stand for this file alone.';
}

export const MEANING = 'What this means: ';

export function collisionExplanation(c) {
  return `this file contains a block that was computed to cancel out a difference inside SHA\u20111. ` +
    `At block #${c.block}, starting at byte ${formatNumber(c.offset)}, the hash's internal state ` +
    `carried the fingerprint of disturbance vector ${c.dv}, the pattern used to build attacks such as ` +
    `SHAttered and SHA-mbles. Someone made this file so that a different file has exactly the same SHA-1. ` +
    `Do not trust the SHA-1 to identify it; use the safe hash instead.`;
}

export const GIT_COLLISION_NOTE = 'The trace was found in the git blob (the "blob <size>" header followed by the file), ' +
  'so this collision was built against git itself: two repositories could hold different files under one blob id.';

// The call-out of files that collide with each other.

export function groupTitle(n) {
  return n === 2 ? 'These two files collide' : `These ${n} files collide`;
}

/** The sentence around the shared digest: [before, after]. */
export function groupWhy(gitBlob) {
  return [
    `They have different content but the same ${gitBlob ? 'git blob id' : 'SHA-1'}, `,
    '. A system that trusts SHA-1 (a signature, a download checksum, a deduplicating store) cannot tell them apart.',
  ];
}

// Expected hashes: what a person pastes to compare with (a SHA-1, a sha1sum or sha1dcsum line,
// a whole checksum file).

/** A file's path as checksum files write it: forward slashes, no leading "./". */
export function normalizePath(name) {
  return name.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}

/**
 * Parses pasted text: `<hex>  <name>` and `<hex> *<name>` (sha1sum), `<hex> *coll* <name>`
 * (sha1dcsum), `SHA1 (<name>) = <hex>` (BSD), or a hash alone; blank lines and # comments are
 * skipped. Returns { named: Map(path -> hex), bare: Set(hex), lines, bad } (hex in lower case;
 * `lines` counts the lines understood, `bad` those that were not).
 */
export function parseExpected(text) {
  const named = new Map();
  const bare = new Set();
  let lines = 0;
  let bad = 0;
  for (const raw of String(text).split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    let m = /^\\?([0-9a-fA-F]{40})$/.exec(line);
    if (m) {
      bare.add(m[1].toLowerCase());
      lines++;
      continue;
    }
    m = /^\\?([0-9a-fA-F]{40}) (?:\*coll\* | |\*)(.+)$/.exec(raw.replace(/\r$/, '').trimStart()) ||
      /^SHA1 ?\((.+)\) ?= ?([0-9a-fA-F]{40})$/.exec(line);
    if (!m) {
      bad++;
      continue;
    }
    const [hex, name] = /^[0-9a-fA-F]{40}$/.test(m[1]) ? [m[1], m[2]] : [m[2], m[1]];
    named.set(normalizePath(name), hex.toLowerCase());
    lines++;
  }
  return { named, bare, lines, bad };
}

/** What the expected-hash box says about what it understood. */
export function expectedStatusText(parsed, empty) {
  if (empty) return '';
  if (!parsed.lines) return 'No SHA-1 found: paste 40 hexadecimal digits, or lines of sha1sum output.';
  const hashes = (n) => `${n} ${n === 1 ? 'hash' : 'hashes'}`;
  const parts = [];
  if (parsed.named.size) parts.push(`${hashes(parsed.named.size)} with a file name`);
  if (parsed.bare.size) parts.push(`${hashes(parsed.bare.size)} for any file`);
  if (parsed.bad) parts.push(`${plural(parsed.bad, 'line')} not understood`);
  return `${parts.join(', ')}.`;
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
 * A file's result against the expected hashes: null when nothing was pasted; otherwise
 * { match, text } with match 'match', 'mismatch', 'collision' (never a plain match, even when
 * the SHA-1 is the expected one: a forged twin has it too) or 'unlisted'.
 */
export function compareExpected(parsed, path, result) {
  if (!parsed || !parsed.lines) return null;
  const want = expectedFor(parsed, path);
  const candidates = want ? [want] : [...parsed.bare];
  if (!candidates.length) return { match: 'unlisted', text: 'Not in the list' };
  const equal = candidates.includes(result.sha1) || candidates.includes(result.hex);
  if (result.collision) {
    return equal
      ? { match: 'collision', text: 'Collision: the expected SHA-1, but forged' }
      : { match: 'collision', text: 'Collision: no match' };
  }
  return equal ? { match: 'match', text: 'Match' } : { match: 'mismatch', text: 'Mismatch' };
}

// Export: the results as sha1dcsum prints them, and as its --json fields.

/** @param {{ name: string, result: { hex: string, sha1: string, collision: object | null } }[]} files */
export function exportText(files) {
  return files.map(({ name, result }) => `${result.hex}${result.collision ? ' *coll* ' : '  '}${name}\n`).join('');
}

export function exportJson(files) {
  const list = files.map(({ name, result }) => ({
    file: name,
    sha1: result.sha1,
    output: result.hex,
    collision: result.collision && {
      offset: result.collision.offset, block: result.collision.block, dv: result.collision.dv, count: result.collision.count,
    },
  }));
  return `${JSON.stringify(list, null, 2)}\n`;
}

/** "The browser gave no access to the folder "photos": use Choose a folder… instead." */
export function folderRefusedText(names) {
  const list = names.map((n) => `"${n}"`).join(', ');
  return `This browser gave the page no access to ${names.length === 1 ? 'the folder' : 'the folders'} ${list} ` +
    '(or could not read them): use Choose a folder… instead.';
}

export function folderErrorText(path) {
  return `Part of the folder "${path}" could not be read; the files found are listed.`;
}
