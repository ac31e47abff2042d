// --check: verify the files a checksum list names, as GNU `sha1sum -c` does, with one more
// verdict: COLLISION, for a file in which a collision attack is detected now, whatever its line
// records (never OK). A line that names a file but records no checksum read here still has its
// file checked for a collision, and is reported.
import { lstatSync, readFileSync } from 'node:fs';
import { hashInput, Failure } from './input.mjs';
import { IGNORED, parseLine, resolve, shown } from './lines.mjs';
import { OutputError, lossy, reason } from './output.mjs';

const STDIN = Buffer.from('-');

/** Whether a listed name is there to read: standard input, or a directory entry (even a dangling link). */
function exists(name) {
  if (name.equals(STDIN)) return true;
  try {
    lstatSync(name);
    return true;
  } catch {
    return false;
  }
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** The lines of a list's bytes, split at `delimiter`; a last line may lack it. */
function splitLines(bytes, delimiter) {
  const lines = [];
  for (let at = 0; at < bytes.length; ) {
    const end = bytes.indexOf(delimiter, at);
    lines.push(bytes.subarray(at, end < 0 ? bytes.length : end));
    at = end < 0 ? bytes.length : end + 1;
  }
  return lines;
}

/** The files a list names ({ name, hex or null }), and how many of its lines were improper. */
function readList(list, o, out) {
  const bytes = list.equals(STDIN) ? readFileSync(0) : readFileSync(list);
  const listed = [];
  let improper = 0;
  splitLines(bytes, o.zero ? 0 : 0x0a).forEach((line, i) => {
    const entry = parseLine(line);
    if (entry === IGNORED) return;
    if (entry === null) {
      improper++;
      if (o.warn) out.error(`${lossy(list)}: ${i + 1}: improperly formatted SHA1 checksum line`);
    } else if (entry.hex === null) {
      improper++;
      if (!o.status) {
        out.error(`${lossy(list)}: ${i + 1}: improperly formatted SHA1 checksum line for ${lossy(shown(entry.name))}; checked for a collision only`);
      }
      listed.push(entry);
    } else {
      listed.push(resolve(entry, exists));
    }
  });
  return { listed, improper };
}

/** What checking a listed file found: 'OK', 'FAILED', 'FAILED open or read', 'COLLISION', or null for nothing to say. */
function verdict(o, entry, result) {
  if (!(result instanceof Failure) && result.collision) return 'COLLISION';
  if (entry.hex === null) return null;
  if (result instanceof Failure) return o.ignoreMissing && result.missing ? null : 'FAILED open or read';
  return result.hex === entry.hex ? 'OK' : 'FAILED';
}

/** Hashes the files a list names, printing a status line for each as the options allow; the counts. */
async function verify(o, listed, out) {
  const tally = { unreadable: 0, mismatched: 0, collisions: 0, verified: 0 };
  for (const entry of listed) {
    const result = await hashInput(entry.name, o);
    const v = verdict(o, entry, result);
    if (v === null) continue;
    if (v === 'FAILED open or read') tally.unreadable++;
    else tally.verified++;
    if (v === 'FAILED') tally.mismatched++;
    if (v === 'COLLISION') tally.collisions++;
    if (o.status || (v === 'OK' && o.quiet)) continue;
    if (result instanceof Failure) out.error(`${lossy(shown(entry.name))}: ${result}`);
    out.write(Buffer.concat([shown(entry.name), Buffer.from(`: ${v}\n`)]));
  }
  return tally;
}

/** GNU's warnings after a list, one for each count that is not zero. */
function warnings(tally, out) {
  const lines = [
    [tally.improper, 'line is improperly formatted', 'lines are improperly formatted'],
    [tally.unreadable, 'listed file could not be read', 'listed files could not be read'],
    [tally.mismatched, 'computed checksum did NOT match', 'computed checksums did NOT match'],
    [tally.collisions, 'listed file is half of a SHA-1 collision', 'listed files are halves of SHA-1 collisions'],
  ];
  for (const [n, one, many] of lines) if (n > 0) out.error(`WARNING: ${plural(n, one, many)}`);
}

/** Checks one list: { failed, collided }. */
export async function checkList(list, o, out) {
  let read;
  try {
    read = readList(list, o, out);
  } catch (err) {
    if (err instanceof OutputError) throw err;
    out.error(`${lossy(list)}: ${reason(err)}`);
    return { failed: true, collided: false };
  }
  const listName = list.equals(STDIN) ? 'standard input' : lossy(list);
  // Even with no checksum to compare, the files named get their collision check.
  const tally = await verify(o, read.listed, out);
  if (read.listed.every((entry) => entry.hex === null)) {
    out.error(`${listName}: no properly formatted SHA1 checksum lines found`);
    return { failed: true, collided: tally.collisions > 0 };
  }
  tally.improper = read.improper;
  if (!o.status) warnings(tally, out);
  let failed = tally.unreadable > 0 || tally.mismatched > 0 || (o.strict && tally.improper > 0);
  if (o.ignoreMissing && tally.verified === 0) {
    out.error(`${listName}: no file was verified`);
    failed = true;
  }
  return { failed, collided: tally.collisions > 0 };
}
