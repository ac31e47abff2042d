// The command line of `npx sha1dc-wasm`: the options of the Rust sha1dcsum, in the same order
// (so that abbreviations and their ambiguities are the same), parsed as GNU getopt does: short
// options bundle (`-cz`, `-j4`), a long option may be shortened to any prefix no other option
// starts with, its value follows `=` or comes as the next argument, `--` ends the options, and
// options may come after file names. Arguments are bytes (Buffers): a file name that is not
// UTF-8 stays the name it is.
import { lossy } from './output.mjs';

/** Every option, in the order of sha1dcsum's table; `help` is this command's text for it. */
export const OPTIONS = [
  { long: 'binary', short: 'b', help: 'print ` *` before the name (the input is read the same), except before a name starting with `coll* ` (see below)', set: (o) => (o.binary = true) },
  { long: 'text', short: 't', help: 'print two spaces before the name (the default)', set: (o) => (o.binary = false) },
  { long: 'tag', help: 'print BSD-style lines: SHA1 (<name>) = <hex> (flagged: SHA1 (<name>) = <hex> *coll*)', set: (o) => (o.tag = true) },
  { long: 'zero', short: 'z', help: 'end each line with NUL, not newline, and do not escape names; with --check, read NUL-terminated lines', set: (o) => (o.zero = true) },
  { long: 'jobs', short: 'j', value: 'N', help: 'accepted as sha1dcsum takes it (a whole number, 1 or more); this command hashes one input at a time, a file of 16 MiB or more with the filter half of collision detection on a second thread, unless N is 1', take: (o, v) => (o.jobs = parseJobs(v)) },
  { long: 'recursive', short: 'r', help: "hash the regular files below each directory FILE names, each directory's entries in the byte order of their names, printed as paths joined to the FILE; symbolic links found inside are skipped, not followed (a FILE that is one is followed), and so are FIFOs, sockets and devices; a directory that cannot be listed is an input that cannot be read", set: (o) => (o.recursive = true) },
  { long: 'reduced-round', help: 'also detect reduced-round collisions', set: (o) => (o.reducedRound = true) },
  { long: 'no-safe-hash', help: 'print the plain SHA-1 even when a collision is detected', set: (o) => (o.noSafeHash = true) },
  { long: 'git-blob', help: 'hash each input as a git blob object (`blob <len>\\0` then the content), as `git hash-object` does; standard input (and any input that is not a regular file) is read whole into memory first, since its length must come first', set: (o) => (o.gitBlob = true) },
  { long: 'json', help: 'print one JSON object per line instead: {"file":..,"sha1":..,"output":..,"collision":..}, where sha1 is the plain SHA-1, output the printed hash, and collision null or {"offset","block","dv","count"}; offset is in the input\'s bytes (for --git-blob, in the file, after the header), block counts what was hashed; a name that is not UTF-8 is in file with U+FFFD replacements and, exactly, in file_bytes (hex)', set: (o) => (o.json = true) },
  { long: 'backend', value: 'NAME', help: 'use the named backend (see --backends) (default: $SHA1DC_BACKEND if set, else simd128)', take: (o, v) => (o.backend = v) },
  { long: 'backends', help: 'list the backends: simd128, the only one in WebAssembly', set: (o) => (o.listBackends = true) },
  { long: 'help', short: 'h', help: 'print this help and exit', stop: 'help' },
  { long: 'version', short: 'V', help: 'print the version and exit', stop: 'version' },
  { long: 'generate', value: 'WHAT', help: "sha1dcsum's man page and shell completions (WHAT: man, complete-bash, complete-zsh or complete-fish) are not in this command: `sha1dcsum --generate WHAT` from the Rust crate prints them", take: (o, v) => (o.generate = parseGenerate(v)) },
  { long: 'check', short: 'c', checking: true, help: 'read checksum lines from the FILEs and check them: lines of sha1sum (text or binary), of --tag, and the *coll* lines of sha1dcsum, of the original C tool and of Debian\'s sha1cdsum (`SHA1 (<name>) = *coll* <hex>`); prints `<name>: OK`, `<name>: FAILED`, `<name>: FAILED open or read`, or `<name>: COLLISION` for a file in which a collision is detected (never OK, whatever its line says)', set: (o) => (o.check = true) },
  { long: 'ignore-missing', checking: true, help: "don't fail or report status for missing files", set: (o) => (o.ignoreMissing = true) },
  { long: 'quiet', checking: true, help: "don't print OK for each successfully verified file", set: (o) => (o.quiet = true) },
  { long: 'status', checking: true, help: "don't output anything, status code shows success", set: (o) => (o.status = true) },
  { long: 'strict', checking: true, help: 'exit non-zero for improperly formatted checksum lines', set: (o) => (o.strict = true) },
  { long: 'warn', short: 'w', checking: true, help: 'warn about improperly formatted checksum lines', set: (o) => (o.warn = true) },
];

const GENERATED = ['man', 'complete-bash', 'complete-zsh', 'complete-fish'];

/** A bad command line: the reason, as GNU getopt and sha1dcsum word it. */
class Usage {
  constructor(reason) {
    this.reason = reason;
  }
}

function parseJobs(value) {
  const v = value.toString('latin1');
  // Rust's usize parsing: digits, an optional leading +, at most 2^64 - 1.
  if (/^\+?[0-9]+$/.test(v) && BigInt(v) > 0n && BigInt(v) < 2n ** 64n) return Number(v);
  throw new Usage(`invalid number of jobs: '${lossy(value)}' (a whole number, 1 or more)`);
}

function parseGenerate(value) {
  const v = value.toString('latin1');
  if (GENERATED.includes(v)) return v;
  throw new Usage(`invalid argument '${lossy(value)}' for '--generate' (one of: ${GENERATED.join(', ')})`);
}

/**
 * Parses the arguments (Buffers, without the program name): { run: options }, { help: true },
 * { version: true } or { usage: reason }. --help and --version win as soon as they are seen;
 * the first bad option is reported.
 */
export function parseArgs(args) {
  const o = { binary: null, backend: null, jobs: null, generate: null, files: [] };
  try {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i];
      const take = () => (i + 1 < args.length ? args[++i] : null);
      if (arg.equals(DASH_DASH)) {
        o.files.push(...args.slice(i + 1));
        break;
      } else if (arg.length < 2 || arg[0] !== DASH) {
        o.files.push(arg); // a file name, or - for standard input
      } else if (arg[1] === DASH) {
        const stop = longOption(o, arg.subarray(2), take);
        if (stop) return { [stop]: true };
      } else {
        const stop = shortOptions(o, arg.subarray(1), take);
        if (stop) return { [stop]: true };
      }
    }
  } catch (err) {
    if (err instanceof Usage) return { usage: err.reason };
    throw err;
  }
  const reason = conflicts(o);
  return reason ? { usage: reason } : { run: o };
}

const DASH = 0x2d;
const DASH_DASH = Buffer.from('--');

/** The option a long name means: its own, or the only one it is a prefix of. */
function findLong(name, typed) {
  const exact = OPTIONS.find((opt) => opt.long === name);
  if (exact) return exact;
  const candidates = name === '' ? [] : OPTIONS.filter((opt) => opt.long.startsWith(name));
  if (candidates.length === 1) return candidates[0];
  if (candidates.length === 0) throw new Usage(`unrecognized option '--${typed}'`);
  throw new Usage(`option '--${typed}' is ambiguous; possibilities:${candidates.map((opt) => ` '--${opt.long}'`).join('')}`);
}

function longOption(o, long, take) {
  const eq = long.indexOf(0x3d);
  const name = (eq < 0 ? long : long.subarray(0, eq)).toString('latin1');
  const opt = findLong(name, lossy(long));
  let value = null;
  if (!opt.value && eq >= 0) throw new Usage(`option '--${opt.long}' doesn't allow an argument`);
  if (opt.value) {
    // A value inside the argument is read as sha1dcsum reads it: as UTF-8, lossily.
    value = eq >= 0 ? Buffer.from(lossy(long.subarray(eq + 1))) : take();
    if (value === null) throw new Usage(`option '--${opt.long}' requires an argument`);
  }
  return apply(o, opt, value);
}

function shortOptions(o, bundle, take) {
  for (let i = 0; i < bundle.length; i++) {
    const letter = bundle[i];
    const opt = OPTIONS.find((x) => x.short !== undefined && x.short.charCodeAt(0) === letter);
    if (!opt) {
      const shown = letter > 0x20 && letter < 0x7f ? String.fromCharCode(letter) : `\\x${letter.toString(16).padStart(2, '0')}`;
      throw new Usage(`invalid option -- '${shown}'`);
    }
    if (!opt.value) {
      const stop = apply(o, opt, null);
      if (stop) return stop;
      continue;
    }
    const value = i + 1 < bundle.length ? Buffer.from(lossy(bundle.subarray(i + 1))) : take();
    if (value === null) throw new Usage(`option requires an argument -- '${opt.short}'`);
    return apply(o, opt, value);
  }
  return null;
}

/** Does what `opt` says; 'help' or 'version' to stop there. */
function apply(o, opt, value) {
  if (opt.stop) return opt.stop;
  if (opt.take) opt.take(o, value);
  else opt.set(o);
  return null;
}

/** Options that make no sense together, as GNU sha1sum reports them. */
function conflicts(o) {
  if (o.check) {
    const hashingOnly = [
      [o.tag, 'the --tag option is'],
      [o.binary !== null, 'the --binary and --text options are'],
      [o.json, 'the --json option is'],
      [o.recursive, 'the --recursive option is'],
    ].find(([on]) => on);
    if (hashingOnly) return `${hashingOnly[1]} meaningless when verifying checksums`;
  } else {
    const checkingOnly = OPTIONS.find((opt) => opt.checking && opt.long !== 'check' && o[camel(opt.long)]);
    if (checkingOnly) return `the --${checkingOnly.long} option is meaningful only when verifying checksums`;
  }
  if (o.tag && o.binary === false) return '--tag does not support --text mode';
  if (o.json && (o.tag || o.zero)) return 'the --json option prints its own lines: not with --tag or --zero';
  return null;
}

const camel = (name) => name.replace(/-(.)/g, (_, c) => c.toUpperCase());
