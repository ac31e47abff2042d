#!/usr/bin/env node
// `npx sha1dc-wasm [OPTIONS] [FILE|-]...`: the sha1dcsum command of the Rust crate, run on this
// package: the same options, output bytes, messages and exit statuses on the same inputs (its
// --help says where Node differs). The modules in cli/: args.mjs (the option table and the
// parser), help.mjs, walk.mjs (the inputs, --recursive), input.mjs (reading and hashing one
// input), lines.mjs (the lines printed and read back), check.mjs (--check), output.mjs (standard
// output, messages, exit statuses).
import { readFileSync } from 'node:fs';
import { backend } from './node.mjs';
import { parseArgs } from './cli/args.mjs';
import { checkList } from './cli/check.mjs';
import { helpText } from './cli/help.mjs';
import { Failure, hashInput } from './cli/input.mjs';
import { jsonLine, writeLine } from './cli/lines.mjs';
import { walk } from './cli/walk.mjs';
import * as out from './cli/output.mjs';

const { EXIT_BROKEN_PIPE, EXIT_IO_ERROR, EXIT_OK, EXIT_USAGE, Output, OutputError, PROGRAM, USAGE, exitStatus, lossy, reason } = out;

/**
 * The arguments as bytes. Node decodes them as UTF-8, which loses a file name that is not;
 * Linux keeps the bytes in /proc/self/cmdline, which ends with them (used when it agrees with
 * process.argv, argument for argument).
 */
function rawArgs() {
  const args = process.argv.slice(2);
  let cmdline;
  try {
    cmdline = readFileSync('/proc/self/cmdline');
  } catch {
    return args.map((a) => Buffer.from(a));
  }
  const parts = [];
  for (let at = 0; at < cmdline.length; ) {
    const end = cmdline.indexOf(0, at);
    parts.push(cmdline.subarray(at, end < 0 ? cmdline.length : end));
    at = end < 0 ? cmdline.length : end + 1;
  }
  const tail = parts.slice(parts.length - args.length);
  const agrees = tail.length === args.length && tail.every((bytes, i) => lossy(bytes) === args[i]);
  return agrees ? tail : args.map((a) => Buffer.from(a));
}

/** The backend the options or SHA1DC_BACKEND ask for: null when it is this one, else the error. */
function badBackend(o) {
  const env = process.env.SHA1DC_BACKEND;
  const [source, name] = o.backend !== null ? ['backend', o.backend] : env ? ['SHA1DC_BACKEND', Buffer.from(env)] : [];
  if (name === undefined || name.toString('latin1') === backend()) return null;
  return `${source} '${lossy(name)}' is unknown; available backends: ${backend()}`;
}

/**
 * Hashes every input (with --recursive, the files below the directories named) and prints its
 * line, or its failure on standard error; the exit status.
 */
async function hashAll(o, names) {
  const output = new Output();
  const style = o.tag ? 'tag' : o.binary ? 'binary' : 'text';
  let failed = false;
  let collided = false;
  for (const { name, error } of walk(names, o.recursive)) {
    const r = error ? new Failure(reason(error)) : await hashInput(name, o);
    if (r instanceof Failure) {
      failed = true;
      output.error(`${lossy(name)}: ${r}`);
      continue;
    }
    collided ||= r.collision !== null;
    output.write(o.json ? Buffer.from(jsonLine(name, r)) : writeLine(r.hex, name, r.collision !== null, style, o.zero));
  }
  output.flush();
  return exitStatus(failed, collided);
}

async function checkAll(o, lists) {
  const output = new Output();
  let failed = false;
  let collided = false;
  for (const list of lists) {
    const r = await checkList(list, o, output);
    failed ||= r.failed;
    collided ||= r.collided;
  }
  output.flush();
  return exitStatus(failed, collided);
}

async function run(o) {
  if (o.listBackends) {
    out.print(`${backend()}\n`);
    return EXIT_OK;
  }
  if (o.generate !== null) {
    out.warn(`--generate is sha1dcsum's, from the Rust crate (sha1dcsum --generate ${o.generate}); this command has no man page or completions of its own`);
    return EXIT_USAGE;
  }
  const bad = badBackend(o);
  if (bad !== null) {
    out.warn(bad);
    return EXIT_USAGE;
  }
  const names = o.files.length > 0 ? o.files : [Buffer.from('-')];
  return o.check ? checkAll(o, names) : hashAll(o, names);
}

async function main() {
  const parsed = parseArgs(rawArgs());
  if (parsed.help) {
    out.print(helpText());
    return EXIT_OK;
  }
  if (parsed.version) {
    const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
    out.print(`${PROGRAM} ${version}\n`);
    return EXIT_OK;
  }
  if (parsed.usage) {
    out.warn(`${parsed.usage}\n${USAGE}\nTry '${PROGRAM} --help' for more information.`);
    return EXIT_USAGE;
  }
  return run(parsed.run);
}

try {
  process.exitCode = await main();
} catch (err) {
  if (!(err instanceof OutputError)) throw err;
  // A closed pipe (`| head`) ends quietly, as coreutils and sha1dcsum do.
  if (err.code !== 'EPIPE') out.warn(err.message);
  process.exitCode = err.code === 'EPIPE' ? EXIT_BROKEN_PIPE : EXIT_IO_ERROR;
}
