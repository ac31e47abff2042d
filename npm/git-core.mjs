// sha1dc-wasm/git on one WebAssembly instance, whatever loads it (Node, a page, a worker): one
// run of the verifier (bindings/git's RawGitRun) over the files a RawFiles gives, its events
// passed on as they happen; the events of the other instances that share a run's work (each on
// a worker, each its own memory) added to the run that reports; and what verifyGit makes of an
// input held in memory and of a run's events. git.mjs (Node) and git-web.mjs build on it.
import init, { initSync, RawGitRun } from './wasm/gitverify.js';
import { MemoryFiles, readBlob } from './git-memory.mjs';

/** The bytes of entries read ahead of the walk where each read costs much (a Blob read in a worker). */
export const BLOB_READ_AHEAD = 128 << 20;

export { init, initSync, MemoryFiles, RawGitRun, readBlob };

/** The argument list of a verification: git-sha1dc's, from the API's options. */
export function argumentsOf(paths, options = {}) {
  const args = [];
  if (options.content) args.push('--content');
  args.push('--');
  return args.concat(paths);
}

/**
 * Verifies part `part` of `parts` of `run`'s plan with `files`, calling `on(event)` as things
 * happen; where each read of `files` costs much (a Blob read with FileReaderSync), `gather` bytes
 * of a walk's entries are read ahead of it in a few large reads. Events: { kind: 'source', file, objects }, { kind: 'verified', objects, bytes,
 * commits, trees, blobs, tags }, { kind: 'finding', ...the JSON document's object, line, json },
 * { kind: 'damage', ...the same }; `line` is what git-sha1dc prints for it, `json` its object as
 * text.
 */
export function verifyPart(run, files, on, part = 0, parts = 1, gather = 0) {
  const sink = {
    source: (file, objects) => on({ kind: 'source', file, objects }),
    verified: (commits, trees, blobs, tags, bytes) =>
      on({ kind: 'verified', objects: commits + trees + blobs + tags, bytes, commits, trees, blobs, tags }),
    finding: (line, json) => on({ kind: 'finding', ...JSON.parse(json), line, json }),
    damage: (line, json) => on({ kind: 'damage', ...JSON.parse(json), line, json }),
  };
  run.verify(files, sink, part, parts, gather);
}

/** Adds an event of another instance's part to `run`, which reports the whole. */
export function addEvent(run, e) {
  switch (e.kind) {
    case 'source':
      run.addSource();
      break;
    case 'verified':
      run.addVerified(e.commits, e.trees, e.blobs, e.tags);
      break;
    case 'finding':
      run.addFinding(e.json, e.file, e.pack_offset ?? undefined, e.id, e.check);
      break;
    case 'damage':
      run.addDamage(e.json, e.file, e.offset ?? undefined, e.id ?? undefined, e.message);
      break;
  }
}

/**
 * What verifyGit's callbacks (`options`) hear of a run's events, as one `on(event)` for
 * verifyPart: the sources, the progress so far, each finding and each damage.
 */
export function listenerOf(options) {
  const progress = { objects: 0, total: 0, bytes: 0 };
  return (e) => {
    if (e.kind === 'source') {
      progress.total += e.objects;
      options.onSource?.({ file: e.file, objects: e.objects });
    } else if (e.kind === 'verified') {
      progress.objects += e.objects;
      progress.bytes += e.bytes;
      options.onProgress?.({ ...progress });
    } else {
      const { kind, json, ...found } = e;
      (kind === 'finding' ? options.onFinding : options.onDamage)?.(found);
    }
  };
}

/** verifyGit's result of a finished run: exit status, summary line, notes, JSON document. */
export function resultOf(run, notes) {
  const json = run.jsonDocument();
  return {
    exitCode: run.exitCode(),
    summary: run.summaryLine(),
    notes: notes.split('\n').filter(Boolean),
    json,
    report: JSON.parse(json),
  };
}

const isBlob = (x) => typeof Blob !== 'undefined' && x instanceof Blob;
const isBytes = (x) => x instanceof Uint8Array || isBlob(x);
const isDirectory = (x) => x?.kind === 'directory' && typeof x.values === 'function';

/** A pack's or a bundle's name when none is given: a pack starts with "PACK". */
async function nameOf(data, name) {
  if (name) return name;
  const head = data instanceof Uint8Array ? data.subarray(0, 4) : new Uint8Array(await data.slice(0, 4).arrayBuffer());
  return String.fromCharCode(...head) === 'PACK' ? 'memory.pack' : 'memory.bundle';
}

/** Every file under a directory handle, as [path, File] (a work tree's .git alone, where it has one). */
async function handleEntries(dir, prefix, out) {
  const children = [];
  for await (const child of dir.values()) children.push(child);
  const git = children.find((c) => c.name === '.git');
  for (const child of git ? [git] : children) {
    const path = `${prefix}/${child.name}`;
    if (child.kind === 'file') out.push([path, await child.getFile()]);
    else if (isDirectory(child)) await handleEntries(child, path, out);
  }
  return out;
}

/**
 * The files and paths of an input that is no path on disk: a pack (a Uint8Array or a Blob, alone
 * or as `{ pack, index?, name? }`), a bundle (`{ bundle, name? }`), the Files of a picked or
 * dropped folder (named by their `webkitRelativePath`), or a directory handle (the File System
 * Access API's, or the origin private file system's). Resolves to `{ files, paths }`, or null
 * for anything else. Where Blobs cannot be read synchronously (no FileReaderSync: a page's main
 * thread, Node), they are read whole first; in a worker they are read in slices as needed
 * (`readAhead` then says how many bytes of entries to read ahead).
 */
export async function memoryInput(input) {
  let entries;
  let paths;
  if (isBytes(input)) input = { [(await nameOf(input, input.name)).endsWith('.pack') ? 'pack' : 'bundle']: input, name: input.name };
  if (isBytes(input?.pack)) {
    const name = await nameOf(input.pack, input.name);
    entries = [[name, input.pack]];
    if (isBytes(input.index)) entries.push([name.replace(/(\.pack)?$/, '.idx'), input.index]);
    paths = [name];
  } else if (isBytes(input?.bundle)) {
    const name = await nameOf(input.bundle, input.name);
    entries = [[name, input.bundle]];
    paths = [name];
  } else if (isDirectory(input)) {
    entries = await handleEntries(input, input.name, []);
    paths = [input.name];
  } else if (input && typeof input !== 'string' && typeof input[Symbol.iterator] === 'function') {
    const list = [...input];
    if (!list.length || !list.every(isBlob)) return null;
    entries = list.map((f) => [f.webkitRelativePath || f.name, f]);
    // What the files are in: each top folder, or each file given alone (an index beside its
    // pack goes with it).
    const tops = new Set(entries.map(([p]) => p.split('/')[0]));
    paths = [...tops].filter((p) => !(p.endsWith('.idx') && tops.has(p.replace(/\.idx$/, '.pack'))));
  } else {
    return null;
  }
  const sync = typeof FileReaderSync !== 'undefined';
  if (!sync) {
    entries = await Promise.all(entries.map(async ([p, d]) => [p, isBlob(d) ? new Uint8Array(await d.arrayBuffer()) : d]));
  }
  const blobs = entries.some(([, d]) => isBlob(d));
  return { files: new MemoryFiles(entries), paths, readAhead: blobs ? BLOB_READ_AHEAD : 0 };
}
