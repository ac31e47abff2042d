// sha1dc-wasm/git in Node: verifies git packs (with or without their .idx), bundles and
// repositories for SHA-1 collision attacks with git-sha1dc's verifier (gitverify, in
// WebAssembly), streaming what it finds, ending with git-sha1dc's summary line and JSON. Files
// on disk are verified on worker threads, each its own instance, sharing the delta trees of
// each pack that has an index (the main thread adds up their events); bytes in memory on the
// calling thread.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { addEvent, argumentsOf, initSync, listenerOf, memoryInput, MemoryFiles, RawGitRun, resultOf, verifyPart } from './git-core.mjs';
import { NodeFiles } from './git-files.mjs';

export { MemoryFiles, NodeFiles, RawGitRun };

export const VERSION = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version;

/**
 * The bytes of a pack's entries the instances read ahead of their walks from disk, together, in
 * a few large reads rather than one per entry (about a tenth less time on git.git's pack), and
 * the most one instance reads ahead; none from memory.
 */
const READ_AHEAD_BYTES = 256 << 20;
const READ_AHEAD_MOST = 64 << 20;

let compiled = null;
/** The module, compiled once (each worker instantiates it again). */
function load() {
  if (!compiled) {
    compiled = new WebAssembly.Module(readFileSync(new URL('./wasm/gitverify_bg.wasm', import.meta.url)));
    initSync({ module: compiled });
  }
  return compiled;
}

/** A run of git-sha1dc's command line `args` (RawGitRun), not yet planned. */
export function newRun(args) {
  load();
  return new RawGitRun(args, VERSION);
}

/**
 * Finds what `run`'s paths name in `files` (with no path, the repository at `cwd`, with
 * $GIT_DIR and $GIT_OBJECT_DIRECTORY); returns the lines git-sha1dc prints before verifying.
 */
export function planRun(run, files, { cwd = process.cwd(), gitDir, objectDirectory } = {}) {
  return run.plan(files, cwd, gitDir, objectDirectory);
}

/**
 * Verifies planned `run` of command line `args`: on `jobs` worker threads for files on disk
 * (NodeFiles), each an instance of its own sharing each indexed pack's delta trees, on this
 * thread for files in memory or with one job. Calls `on(event)` as things happen (see
 * git-core.mjs's verifyPart); once it resolves `run` holds the whole run's summary.
 */
export async function verifyRun(run, args, { files, cwd = process.cwd(), gitDir, objectDirectory, jobs, on = () => {} }) {
  const module = load();
  const parts = Math.min(Math.max(1, jobs || availableParallelism()), 64);
  const gather = files instanceof NodeFiles ? Math.min(READ_AHEAD_MOST, Math.floor(READ_AHEAD_BYTES / parts)) : 0;
  if (parts === 1 || !(files instanceof NodeFiles)) {
    verifyPart(run, files, on, 0, 1, gather);
    return;
  }
  const base = { module, args, version: VERSION, cwd, gitDir, objectDirectory, parts, gather };
  const url = new URL('./git-worker-node.mjs', import.meta.url);
  const workers = [];
  for (let part = 0; part < parts; part++) workers.push(new Worker(url, { workerData: { ...base, part } }));
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise((resolve, reject) => {
            w.on('message', (e) => {
              if (e.kind === 'end') return resolve();
              addEvent(run, e);
              on(e);
            });
            w.on('error', reject);
            w.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`sha1dc-wasm/git: a worker ended with ${code}`))));
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** The files and paths an input names: paths on disk, or what git-core.mjs's memoryInput takes. */
async function filesOf(input) {
  if (typeof input === 'string') return { files: new NodeFiles(), paths: [input] };
  if (Array.isArray(input) && input.every((p) => typeof p === 'string')) return { files: new NodeFiles(), paths: input };
  const found = await memoryInput(input);
  if (found) return found;
  throw new TypeError('sha1dc-wasm/git: verifyGit takes a path, paths, a pack (Uint8Array or Blob), { pack, index? }, { bundle }, or Files');
}

/**
 * Verifies every object of `input` (see git.d.ts); resolves to the run's summary line, JSON
 * document and exit status, after calling the options' callbacks as things are found.
 */
export async function verifyGit(input, options = {}) {
  const { files, paths } = await filesOf(input);
  const args = argumentsOf(paths, options);
  const run = newRun(args);
  try {
    const notes = planRun(run, files);
    await verifyRun(run, args, { files, jobs: options.jobs, on: listenerOf(options) });
    return resultOf(run, notes);
  } finally {
    run.free();
    files.close();
  }
}
