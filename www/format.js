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

/**
 * The time left, coarser as it grows so that it changes seldom: "about 8 s left", "about 45 s
 * left" (5 s steps), "about 3 min left", "about 1 h 20 min left".
 */
export function timeLeftText(seconds) {
  if (seconds < 10) return `about ${Math.max(1, Math.ceil(seconds))} s left`;
  if (seconds < 60) return `about ${Math.ceil(seconds / 5) * 5} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

/** While hashing: "42% · 812 MiB/s · about 8 s left" (no time left while it is too early to say). */
export function progressText(done, total, ms, secondsLeft = null) {
  const pct = total ? Math.floor((done / total) * 100) : 100;
  const left = secondsLeft === null ? '' : ` · ${timeLeftText(secondsLeft)}`;
  return `${pct}% · ${formatRate(done, ms)}${left}`;
}

/** Once hashed: "Hashed 1.50 MiB in 12 ms · 125 MiB/s" (the rate only from 1 MiB up). */
export function hashedText(total, ms) {
  return `Hashed ${formatSize(total)} in ${formatMs(ms)}${total >= MiB ? ` · ${formatRate(total, ms)}` : ''}`;
}

/**
 * The badge of a file row, by status ('running' is a pending file a worker has taken; a
 * 'mismatch' is a clean file whose hash is not the one expected).
 */
export function verdictText(status) {
  switch (status) {
    case 'pending': return 'Waiting';
    case 'running': return 'Hashing';
    case 'clean': return 'Clean';
    case 'collision': return 'Collision';
    case 'mismatch': return 'Mismatch';
    case 'cancelled': return 'Cancelled';
    default: return 'Error';
  }
}

/** The statuses "Show only problems" keeps. */
export const PROBLEMS = ['collision', 'mismatch', 'error'];

/** The badge that marks a row hashed as a git blob, and what it means. */
export const GIT_BLOB_MODE = 'Git blob id';
export const GIT_BLOB_MODE_TITLE = 'Hashed as git hash-object does: "blob <size>\\0" and then the file. Not the SHA-1 of the file.';

export const QUEUED = 'Queued';
export const WAITING_FOR_MODULE = 'Waiting for the WebAssembly module…';
export const HASHING = 'Hashing…';
export const CANCELLING = 'Cancelling…';
export const CANCELLED = 'Cancelled';
export const MODULE_DID_NOT_LOAD = 'The WebAssembly module did not load.';
export const WORKER_DID_NOT_LOAD = 'the worker script could not be loaded';

/** What follows the backend's name: " · WebAssembly · 4 background workers · runs locally". */
export function backendText(workers) {
  return ` · WebAssembly · ${plural(workers, 'background worker')} · runs locally`;
}

export function loadFailedText(reason) {
  return `The WebAssembly module failed to load (${reason}). Reload the page to try again.`;
}

/** Counts of file statuses; cancelled and failed files are both "not checked". */
export function tally(statuses) {
  const t = { total: 0, running: 0, collisions: 0, mismatches: 0, clean: 0, notChecked: 0, errors: 0 };
  for (const status of statuses) {
    t.total++;
    if (status === 'collision') t.collisions++;
    else if (status === 'mismatch') t.mismatches++;
    else if (status === 'clean') t.clean++;
    else if (status === 'cancelled' || status === 'error') t.notChecked++;
    else t.running++;
    if (status === 'error') t.errors++;
  }
  return t;
}

/** How many files "Show only problems" keeps. */
export const problemCount = (t) => t.collisions + t.mismatches + t.errors;

/** Whether "Show only problems" keeps a file of this status. */
export const isProblem = (status) => status === 'collision' || status === 'mismatch' || status === 'error';

/**
 * "5 files · 1 in progress · 2 collisions · 1 mismatch · 1 clean · 1 not checked"; the
 * mismatches appear once there is one, or once expected hashes are pasted (`compared`).
 */
export function summaryText(t, compared = false) {
  if (!t.total) return 'No files yet.';
  const parts = [plural(t.total, 'file')];
  if (t.running) parts.push(`${t.running} in progress`);
  parts.push(plural(t.collisions, 'collision'));
  if (t.mismatches || compared) parts.push(`${t.mismatches} ${t.mismatches === 1 ? 'mismatch' : 'mismatches'}`);
  parts.push(`${t.clean} clean`);
  if (t.notChecked) parts.push(`${t.notChecked} not checked`);
  return parts.join(' · ');
}

/** Shown instead of the list when "Show only problems" hides every file. */
export function noProblemsText(t) {
  if (t.running) return `No collisions, mismatches or errors so far; ${t.running} in progress.`;
  return 'No collisions, mismatches or errors.';
}

// Screen-reader announcements.

export function addedText(n) {
  return `${plural(n, 'file')} added.`;
}

export function resultAnnouncement(name, status, collision) {
  if (status === 'collision') return `${name}: collision detected at block ${collision.block}.`;
  if (status === 'mismatch') return `${name}: mismatch, not the expected hash.`;
  return `${name}: clean.`;
}

/**
 * What one burst of announcements says: each of them when there are few; else the ones that are
 * not routine (problems, files added), at most five, and how many routine ones there were (a
 * folder's thousands of clean files), so that a screen reader does not read a folder line by line.
 * @param {{ text: string, routine: boolean }[]} burst
 */
export function burstAnnouncement(burst) {
  if (burst.length <= 4) return burst.map((s) => s.text).join(' ');
  const notable = burst.filter((s) => !s.routine).map((s) => s.text);
  const out = notable.slice(0, 5);
  if (notable.length > 5) out.push(`And ${formatNumber(notable.length - 5)} more; see the list.`);
  const routine = burst.length - notable.length;
  if (routine) out.push(`${formatNumber(routine)} ${routine === 1 ? 'file' : 'files'} clean.`);
  return out.join(' ');
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

/** What a clean verdict checked, and no more. */
export const CHECKED = 'Checked: each 64-byte block, for the trace of the 32 disturbance vectors that ' +
  'SHAttered, SHA-mbles and the other published SHA\u20111 collision attacks are built on. None was found, so ' +
  'this file was not made to collide with another by those known methods; a new kind of attack could leave no such trace.';

export function cleanExplanation(gitBlob) {
  return gitBlob
    ? 'No collision in the git blob id; this is what git hash-object prints. (Git hashes a "blob <size>" ' +
      'header first, which shifts a collision made for plain SHA-1 out of line: turn the toggle off to check the file itself.)'
    : CHECKED;
}

/** Why a mismatch matters; in git blob mode the likeliest reason first. */
export function mismatchExplanation(gitBlob) {
  const why = 'This is not the file the expected hash describes: another version, a damaged or incomplete copy, or a substitute.';
  return gitBlob
    ? `${why} (The page is set to git blob ids: a SHA-1 from sha1sum never matches one. Turn the toggle off to compare SHA-1s.)`
    : why;
}

/** The label of the expected hash beside the file's, and what stands there when several were pasted alone. */
export const EXPECTED_LABEL = 'Expected';
export function expectedValueText(expected) {
  return expected.length === 1 ? expected[0] : `none of the ${expected.length} hashes pasted`;
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

// Expected hashes (parsed and compared in expected.js).

/** What the expected-hash box says about what it understood (`parsed` from parseExpected). */
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

/** The pill beside the verdict, from compareExpected. */
export function matchText(cmp) {
  switch (cmp.match) {
    case 'match': return 'Match';
    case 'mismatch': return 'Mismatch';
    case 'unlisted': return 'Not in the list';
    default: return cmp.equal ? 'Collision: the expected SHA-1, but forged' : 'Collision: no match';
  }
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
