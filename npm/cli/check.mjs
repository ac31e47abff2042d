// --check: reads each list, hashes the files it names, and prints what sha1dcsum's check says
// of them (RawListCheck, in the wasm module: GNU `sha1sum -c`'s lines, with COLLISION for a
// file in which a collision is detected).
import { lstatSync, readFileSync } from 'node:fs';
import { Failure, hashInput } from './input.mjs';
import { reason } from './output.mjs';

const STDIN = Buffer.from('-');
/** The tags of what the check says (RawListCheck.said). */
const SAID_ERROR = 1;

/** Whether a listed name is there to read: standard input, or a directory entry (even a dangling link). */
function exists(name) {
  const path = Buffer.from(name);
  if (path.equals(STDIN)) return true;
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Prints what `check` said since last asked. */
function say(check, out) {
  for (let s; (s = check.said()) !== undefined; ) {
    if (s[0] === SAID_ERROR) out.error(Buffer.from(s.subarray(1)).toString());
    else out.write(s.subarray(1));
  }
}

/** Checks one list with the command line `cmd` and hashing options `o`: { failed, collided }. */
export async function checkList(cli, cmd, o, list, out) {
  let bytes;
  try {
    bytes = list.equals(STDIN) ? readFileSync(0) : readFileSync(list);
  } catch (err) {
    out.error(cli.RawListCheck.unreadable(list, reason(err)));
    return { failed: true, collided: false };
  }
  const check = new cli.RawListCheck(cmd, list);
  try {
    check.lines(bytes, exists);
    say(check, out);
    // Even with no checksum to compare, the files named get their collision check.
    for (let i = 0, count = check.count(); i < count; i++) {
      const result = await hashInput(Buffer.from(check.name(i)), o);
      if (result instanceof Failure) check.failed(i, result.text, result.missing);
      else check.hashed(i, result.hex, result.sha1, result.collision !== null);
      say(check, out);
    }
    const done = check.finish();
    say(check, out);
    return { failed: (done & 1) !== 0, collided: (done & 2) !== 0 };
  } finally {
    check.free();
  }
}
