#!/usr/bin/env node
// `npx sha1dc-wasm [OPTIONS] [FILE|-]...`: the SHA-1 of files with collision detection, in the
// output format and with the exit statuses of the sha1dcsum command of the Rust crate (and of the
// original C tool), plus --check. Files are read through one reused buffer: constant memory.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { createHasher, backend } from './node.mjs';

const PROGRAM = 'sha1dc-wasm';
const BUFFER_SIZE = 256 << 10;
const EXIT_OK = 0;
const EXIT_IO_ERROR = 1;
const EXIT_USAGE = 2;
const EXIT_COLLISION = 3;
const USAGE = `Usage: ${PROGRAM} [OPTIONS] [FILE|-]...`;

const HELP = `${USAGE}
Print the SHA-1 of each FILE, with SHA-1 collision detection (Stevens-Shumow).

With no FILE, or when FILE is -, read standard input (printed as -).
Each line is \`<hex>  <name>\`, or \`<hex> *coll* <name>\` when a collision
attack was detected in that input; then <hex> is the "safe hash", which
differs for the two files of a collision, unless --no-safe-hash is given.

Options:
      --reduced-round  also detect reduced-round collisions
      --no-safe-hash   print the plain SHA-1 even when a collision is detected
      --git-blob       hash each input as a git blob object (\`blob <len>\\0\` then
                       the content), as \`git hash-object\` does; standard input
                       (and any input that is not a regular file) is read whole
                       into memory first, since its length must come first
      --json           print one JSON object per line instead:
                       {"file":..,"sha1":..,"output":..,"collision":..},
                       where sha1 is the plain SHA-1, output the printed hash,
                       and collision null or {"offset","block","dv","count"}
  -c, --check          read lines \`<hex>  <name>\` (sha1sum or sha1dcsum output)
                       from each FILE and check those files: prints
                       \`<name>: OK\`, \`<name>: FAILED\`, \`<name>: FAILED open or
                       read\`, or \`<name>: COLLISION\` (a collision never passes)
      --backend NAME   use the named backend (see --backends)
      --backends       list the backends (WebAssembly: simd128)
  -h, --help           print this help and exit
      --version        print the version and exit
      --               end of options: every later argument is a FILE

Exit status:
  0  every input was read and no collision was detected (with --check: and
     every checksum matched)
  1  some input could not be read, or standard output could not be written
     (with --check: or a checksum did not match); takes precedence over 3
  2  bad usage
  3  a collision was detected in some input (and every input was read)
`;

/** Parses the arguments; returns { options } or { exit, text } for help, version, bad usage. */
function parseArgs(args) {
  const o = { reducedRound: false, noSafeHash: false, gitBlob: false, json: false, check: false, backend: null, listBackends: false, files: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      o.files.push(...args.slice(i + 1));
      break;
    }
    if (arg.length < 2 || arg[0] !== '-') {
      o.files.push(arg);
      continue;
    }
    switch (arg) {
      case '-h':
      case '--help':
        return { help: true };
      case '--version':
        return { version: true };
      case '--reduced-round':
        o.reducedRound = true;
        break;
      case '--no-safe-hash':
        o.noSafeHash = true;
        break;
      case '--git-blob':
        o.gitBlob = true;
        break;
      case '--json':
        o.json = true;
        break;
      case '-c':
      case '--check':
        o.check = true;
        break;
      case '--backends':
        o.listBackends = true;
        break;
      case '--backend':
        if (i + 1 >= args.length) return { usage: "option '--backend' requires a name" };
        o.backend = args[++i];
        break;
      default:
        if (arg.startsWith('--backend=')) {
          o.backend = arg.slice('--backend='.length);
          break;
        }
        return { usage: `${arg.startsWith('--') ? 'unrecognized' : 'invalid'} option '${arg}'` };
    }
  }
  return { options: o };
}

/** The reason of a failed read, as C tools print it (strerror), without Node's decorations. */
const REASONS = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
  EMFILE: 'Too many open files',
  EIO: 'Input/output error',
  ENXIO: 'No such device or address',
};
const reason = (err) => REASONS[err && err.code] ?? String((err && err.message) || err);

class SizeChanged extends Error {}

const buf = Buffer.allocUnsafe(BUFFER_SIZE);

/** Reads all of standard input (for --git-blob, whose header needs the length first). */
async function readAllStdin() {
  const parts = [];
  for await (const chunk of process.stdin) parts.push(chunk);
  return Buffer.concat(parts);
}

/** Hashes one input, by name ("-" is standard input); throws on a read error. */
async function hashInput(name, o) {
  const flags = { reducedRound: o.reducedRound, safeHash: !o.noSafeHash };
  if (name === '-') {
    if (o.gitBlob) {
      const all = await readAllStdin();
      return createHasher({ ...flags, gitBlob: true, size: all.length }).update(all).digest();
    }
    const h = createHasher(flags);
    try {
      for await (const chunk of process.stdin) h.update(chunk);
    } catch (err) {
      h.free();
      throw err;
    }
    return h.digest();
  }
  const fd = openSync(name, 'r');
  try {
    let size;
    if (o.gitBlob) {
      const st = fstatSync(fd);
      if (!st.isFile()) {
        const all = readFileSync(fd);
        return createHasher({ ...flags, gitBlob: true, size: all.length }).update(all).digest();
      }
      size = st.size;
    }
    const h = createHasher(o.gitBlob ? { ...flags, gitBlob: true, size } : flags);
    let total = 0;
    try {
      for (;;) {
        const n = readSync(fd, buf, 0, BUFFER_SIZE, null);
        if (n === 0) break;
        h.update(buf.subarray(0, n));
        total += n;
      }
    } catch (err) {
      h.free();
      throw err;
    }
    if (size !== undefined && total !== size) {
      h.free();
      throw new SizeChanged(`file size changed while reading (expected ${size} bytes, read ${total})`);
    }
    return h.digest();
  } finally {
    closeSync(fd);
  }
}

/** GNU's escaping of a name with a newline, carriage return or backslash (the line then starts with `\`). */
const needsEscape = (name) => /[\n\r\\]/.test(name);
const escapeName = (name) => name.replace(/[\\\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : '\\r'));
function unescapeName(name) {
  let bad = false;
  const out = name.replace(/\\(.?)/g, (_, c) => (c === '\\' ? '\\' : c === 'n' ? '\n' : c === 'r' ? '\r' : ((bad = true), '')));
  return bad ? null : out;
}

/** One output line, newline included: sha1dcsum's text format, or its --json. */
function formatLine(name, r, json) {
  if (json) {
    return `${JSON.stringify({ file: name, sha1: r.sha1, output: r.hex, collision: r.collision && { offset: r.collision.offset, block: r.collision.block, dv: r.collision.dv, count: r.collision.count } })}\n`;
  }
  const escaped = needsEscape(name);
  return `${escaped ? '\\' : ''}${r.hex}${r.collision ? ' *coll* ' : '  '}${escaped ? escapeName(name) : name}\n`;
}

/**
 * One line of a checksum file: `<hex>  <name>` or `<hex> *<name>` (sha1sum), `<hex> *coll*
 * <name>` (sha1dcsum), or the BSD form `SHA1 (<name>) = <hex>`; a line that starts with `\` has
 * an escaped name. Null when it is none of them.
 */
function parseChecksumLine(raw) {
  let line = raw.replace(/\r$/, '').replace(/^[ \t]+/, '');
  const escaped = line.startsWith('\\');
  if (escaped) line = line.slice(1);
  const named = (name, hex) => {
    const n = escaped ? unescapeName(name) : name;
    return n ? { hex: hex.toLowerCase(), name: n } : null;
  };
  let m = /^([0-9a-fA-F]{40}) (?:\*coll\* | |\*)(.+)$/.exec(line);
  if (m) return named(m[2], m[1]);
  m = /^SHA1 \((.+)\) = ([0-9a-fA-F]{40})$/.exec(line);
  if (m) return named(m[1], m[2]);
  return null;
}

let out = '';
function write(text) {
  out += text;
  if (out.length >= 1 << 16) flush();
}
function flush() {
  if (out) {
    process.stdout.write(out);
    out = '';
  }
}
const warn = (text) => process.stderr.write(`${PROGRAM}: ${text}\n`);

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** --check: the lines and warnings of sha1dcsum --check, list by list. */
async function check(o) {
  let failed = false;
  let collided = false;
  for (const list of o.files.length ? o.files : ['-']) {
    let text;
    try {
      text = list === '-' ? (await readAllStdin()).toString('utf8') : readFileSync(list, 'utf8');
    } catch (err) {
      flush();
      warn(`${list}: ${reason(err)}`);
      failed = true;
      continue;
    }
    const listName = list === '-' ? 'standard input' : list;
    const entries = [];
    let improper = 0;
    for (const raw of text.split('\n')) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line === '' || line.startsWith('#')) continue;
      const entry = parseChecksumLine(line);
      if (entry) entries.push(entry);
      else improper++;
    }
    if (!entries.length) {
      flush();
      warn(`${listName}: no properly formatted SHA1 checksum lines found`);
      failed = true;
      continue;
    }
    let unreadable = 0;
    let mismatched = 0;
    let collisions = 0;
    for (const entry of entries) {
      let r;
      try {
        r = await hashInput(entry.name, o);
      } catch (err) {
        flush();
        warn(`${entry.name}: ${err instanceof SizeChanged ? err.message : reason(err)}`);
        write(`${entry.name}: FAILED open or read\n`);
        unreadable++;
        continue;
      }
      if (r.collision) {
        collisions++;
        write(`${entry.name}: COLLISION\n`);
      } else if (r.hex === entry.hex) {
        write(`${entry.name}: OK\n`);
      } else {
        mismatched++;
        write(`${entry.name}: FAILED\n`);
      }
    }
    flush();
    if (improper) warn(`WARNING: ${plural(improper, 'line is improperly formatted', 'lines are improperly formatted')}`);
    if (unreadable) warn(`WARNING: ${plural(unreadable, 'listed file could not be read', 'listed files could not be read')}`);
    if (mismatched) warn(`WARNING: ${plural(mismatched, 'computed checksum did NOT match', 'computed checksums did NOT match')}`);
    if (collisions) warn(`WARNING: ${plural(collisions, 'listed file is half of a SHA-1 collision', 'listed files are halves of SHA-1 collisions')}`);
    failed ||= unreadable > 0 || mismatched > 0;
    collided ||= collisions > 0;
  }
  flush();
  return failed ? EXIT_IO_ERROR : collided ? EXIT_COLLISION : EXIT_OK;
}

async function main(args) {
  const parsed = parseArgs(args);
  if (parsed.help) {
    process.stdout.write(HELP);
    return EXIT_OK;
  }
  if (parsed.version) {
    const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
    process.stdout.write(`${PROGRAM} ${version}\n`);
    return EXIT_OK;
  }
  if (parsed.usage) {
    process.stderr.write(`${PROGRAM}: ${parsed.usage}\n${USAGE}\nTry '${PROGRAM} --help' for more information.\n`);
    return EXIT_USAGE;
  }
  const o = parsed.options;
  if (o.listBackends) {
    process.stdout.write(`${backend()}\n`);
    return EXIT_OK;
  }
  if (o.backend !== null && o.backend !== backend()) {
    warn(`backend '${o.backend}' is unknown; available backends: ${backend()}`);
    return EXIT_USAGE;
  }
  if (o.check) return check(o);
  let failed = false;
  let collided = false;
  for (const name of o.files.length ? o.files : ['-']) {
    let r;
    try {
      r = await hashInput(name, o);
    } catch (err) {
      failed = true;
      flush();
      warn(`${name}: ${err instanceof SizeChanged ? err.message : reason(err)}`);
      continue;
    }
    collided ||= r.collision !== null;
    write(formatLine(name, r, o.json));
  }
  flush();
  return failed ? EXIT_IO_ERROR : collided ? EXIT_COLLISION : EXIT_OK;
}

process.stdout.on('error', (err) => {
  // A closed pipe (`| head`): stop quietly, like the Rust tool.
  if (err.code !== 'EPIPE') warn(`standard output: ${reason(err)}`);
  process.exit(EXIT_IO_ERROR);
});

process.exitCode = await main(process.argv.slice(2));
