// The text of --help: its prose here, the options from the table in args.mjs, laid out for an
// 80-column terminal as sha1dcsum's is.
import { OPTIONS } from './args.mjs';
import { USAGE } from './output.mjs';

const SUMMARY = 'Print or check SHA-1 checksums, with collision detection (Stevens-Shumow): the sha1dcsum command of the Rust crate sha1dc-wasm, in WebAssembly under Node.';

const DESCRIPTION = [
  'With no FILE, or when FILE is -, read standard input (printed as -). Each line is `<hex>  <name>`, or `<hex> *coll* <name>` when a collision attack was detected in that input; then <hex> is the "safe hash", which differs for the two files of a collision, unless --no-safe-hash is given. A name with a newline, carriage return or backslash is escaped (\\n, \\r, \\\\) and its line starts with a backslash, as GNU sha1sum does.',
  'The options, output bytes, messages and exit statuses are those of sha1dcsum, but for --generate (sha1dcsum\'s alone), the backends (WebAssembly has one), and what Node cannot do: it hashes one input at a time (a large file on two threads, as sha1dcsum does: -j 1 keeps it on one), and Node hands a program its arguments decoded as UTF-8: a file name given as an argument that is not UTF-8 is read from /proc/self/cmdline where there is one (Linux), but not through npx (npm\'s own Node decodes it first: run node_modules/.bin/sha1dc-wasm) nor on macOS or Windows (names read from a list with --check always work).',
];

const NOTES = [
  'A line `<hex> *coll* <name>` is read as the line of a flagged <name>, unless no file <name> exists and one named `coll* <name>` does: then it is GNU sha1sum\'s binary-mode line for that file. This command never writes a line that could be either: --binary writes a name starting with `coll* ` in text mode (`<hex>  coll* <name>`), which GNU reads the same.',
  'A line `SHA1 (<name>) = ...` whose checksum cannot be read still has its file checked for a collision, and is reported as improperly formatted.',
  'To hash a file named -, write ./-.',
];

const EXIT_STATUS = [
  ['0', 'every input was read (and, checking, every listed file matched) and no collision was detected'],
  ['1', 'some input could not be read, or standard output could not be written (the other inputs are still hashed); checking: a file did not match, could not be read, or a list had no valid line (with --strict, any invalid line); takes precedence over 3'],
  ['2', 'bad usage (unknown option; missing or unknown backend; --generate)'],
  ['3', 'a collision was detected in some input (and every input was read)'],
  ['141', 'standard output was closed by its reader (as if killed by SIGPIPE)'],
];

const WIDTH = 79;
const HELP_COLUMN = 23;

/** `text` split at its spaces, except those between backquotes. */
function words(text) {
  const out = [];
  let word = '';
  let quoted = false;
  for (const c of text) {
    if (c === '`') quoted = !quoted;
    if (c === ' ' && !quoted) {
      out.push(word);
      word = '';
    } else word += c;
  }
  out.push(word);
  return out;
}

/** `text` wrapped before WIDTH, starting at `column`, each new line indented by `indent`. */
function wrap(text, column, indent) {
  let out = '';
  words(text).forEach((word, i) => {
    if (i > 0 && column + 1 + word.length > WIDTH) {
      out += `\n${' '.repeat(indent)}`;
      column = indent;
    } else if (i > 0) {
      out += ' ';
      column++;
    }
    out += word;
    column += word.length;
  });
  return `${out}\n`;
}

function options(checking) {
  let out = '';
  for (const opt of OPTIONS.filter((o) => !!o.checking === checking)) {
    const names = `  ${opt.short ? `-${opt.short}, ` : '    '}--${opt.long}${opt.value ? ` ${opt.value}` : ''}`;
    out += names.length < HELP_COLUMN ? names.padEnd(HELP_COLUMN) : `${names}\n${' '.repeat(HELP_COLUMN)}`;
    out += wrap(opt.help, HELP_COLUMN, HELP_COLUMN);
  }
  return out;
}

export function helpText() {
  let out = `${USAGE}\n${wrap(SUMMARY, 0, 0)}`;
  for (const p of DESCRIPTION) out += `\n${wrap(p, 0, 0)}`;
  out += `\nOptions:\n${options(false)}\nChecking:\n${options(true)}`;
  for (const p of NOTES) out += `\n${wrap(p, 0, 0)}`;
  out += '\nExit status:\n';
  for (const [code, meaning] of EXIT_STATUS) out += `  ${code.padEnd(3)} ${wrap(meaning, 6, 6)}`;
  return out;
}
