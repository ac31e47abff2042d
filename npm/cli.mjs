#!/usr/bin/env node
// `npx sha1dc-wasm [OPTIONS] [FILE|-]...`: the sha1dcsum command of the Rust crate, run on this
// package: the same options, output bytes, messages and exit statuses on the same inputs (its
// --help says where Node differs). What is text is sha1dcsum's own code in a wasm module of
// its own (bindings/cli/: the command line, the help, the lines printed, what --check says);
// what is here reads, walks and hashes: cli/walk.mjs (the inputs, --recursive), cli/input.mjs
// (reading and hashing one input), cli/check.mjs (--check), cli/output.mjs (standard output,
// messages).
import { readFileSync } from 'node:fs';
import cli from './wasm/sha1dcsum_cli.cjs';
import { backend } from './node.mjs';
import { checkList } from './cli/check.mjs';
import { Failure, hashInput } from './cli/input.mjs';
import { walk } from './cli/walk.mjs';
import * as out from './cli/output.mjs';

const { Output, OutputError, PROGRAM, lossy, reason } = out;
const EXIT = JSON.parse(cli.RawCommandLine.exitStatuses());

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
function badBackend(cmd) {
  const env = process.env.SHA1DC_BACKEND;
  const asked = cmd.backend();
  const [source, name] = asked !== undefined ? ['backend', asked] : env ? ['SHA1DC_BACKEND', Buffer.from(env)] : [];
  if (name === undefined || Buffer.from(name).toString('latin1') === backend()) return null;
  return `${source} '${lossy(name)}' is unknown; available backends: ${backend()}`;
}

/** What hashing an input needs of the command line. */
const hashing = (cmd) => ({ gitBlob: cmd.gitBlob(), reducedRound: cmd.reducedRound(), safeHash: cmd.safeHash(), jobs: cmd.jobs() });

/**
 * Hashes every input (with --recursive, the files below the directories named) and prints its
 * line, or its failure on standard error; the exit status.
 */
async function hashAll(cmd, names) {
  const output = new Output();
  const o = hashing(cmd);
  let failed = false;
  let collided = false;
  for (const { name, error } of walk(names, cmd.recursive())) {
    const r = error ? new Failure(reason(error)) : await hashInput(name, o);
    if (r instanceof Failure) {
      failed = true;
      output.error(`${lossy(name)}: ${r}`);
      continue;
    }
    const c = r.collision;
    collided ||= c !== null;
    output.write(cmd.resultLine(name, r.sha1, r.hex, c?.dv, c ? [c.offset, c.block, c.count] : []));
  }
  output.flush();
  return cli.RawCommandLine.status(failed, collided);
}

async function checkAll(cmd, lists) {
  const output = new Output();
  const o = hashing(cmd);
  let failed = false;
  let collided = false;
  for (const list of lists) {
    const r = await checkList(cli, cmd, o, list, output);
    failed ||= r.failed;
    collided ||= r.collided;
  }
  output.flush();
  return cli.RawCommandLine.status(failed, collided);
}

async function run(cmd, args) {
  const bad = badBackend(cmd);
  if (bad !== null) {
    out.warn(bad);
    return EXIT.usage;
  }
  const files = [...cmd.files()].map((i) => args[i]);
  const names = files.length > 0 ? files : [Buffer.from('-')];
  return cmd.check() ? checkAll(cmd, names) : hashAll(cmd, names);
}

async function main() {
  const args = rawArgs();
  const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
  const cmd = new cli.RawCommandLine(Buffer.concat(args), Uint32Array.from(args, (a) => a.length), version, backend());
  // --help, --version, --backends, bad usage: sha1dcsum's start says what to print.
  const status = cmd.ends();
  if (status === undefined) return run(cmd, args);
  if (status === EXIT.ok) out.print(cmd.text());
  else out.stderr(cmd.text());
  return status;
}

try {
  process.exitCode = await main();
} catch (err) {
  if (!(err instanceof OutputError)) throw err;
  // A closed pipe (`| head`) ends quietly, as coreutils and sha1dcsum do.
  if (err.code !== 'EPIPE') out.warn(err.message);
  process.exitCode = err.code === 'EPIPE' ? EXIT.brokenPipe : EXIT.ioError;
}
