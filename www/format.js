// Every text the checker page shows, as pure functions: no DOM, no state. Tested with
// `node --test` in tests/browser/format.test.mjs.

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
