// sha1dc-wasm/git on one WebAssembly instance, whatever loads it (Node, a worker): one run of
// the verifier (bindings/git's RawGitRun) over the files a RawFiles gives, its events passed
// on as they happen; and the events of the other instances that share a run's work (each on a
// worker, each its own memory) added to the run that reports. git.mjs (Node) builds on it.
import init, { initSync, RawGitRun } from './wasm/gitverify.js';
import { MemoryFiles, readBlob } from './git-memory.mjs';

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
