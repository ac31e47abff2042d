// sha1dc-wasm/git on one WebAssembly instance, whatever loads it (Node, a worker): one run of
// the verifier (bindings/git's RawGitRun) over the files a RawFiles gives, its events passed
// on as they happen. git.mjs (Node) and the page's workers build on it.
import init, { initSync, RawGitRun } from './wasm/gitverify.js';
import { MemoryFiles } from './git-memory.mjs';

export { init, initSync, MemoryFiles, RawGitRun };

/** The argument list of a verification: git-sha1dc's, from the API's options. */
export function argumentsOf(paths, options = {}) {
  const args = [];
  if (options.content) args.push('--content');
  args.push('--');
  return args.concat(paths);
}

/**
 * Verifies `run`'s plan (sources first..end) with `files`, calling `on` as things happen:
 * on.source({ file, objects }), on.verified({ objects, bytes }), on.finding(finding),
 * on.damage(damage); each finding and damage is the JSON document's object, with `line`, what
 * git-sha1dc prints for it.
 */
export function verifyPlanned(run, files, on = {}, first = 0, end = run.sources) {
  const sink = {
    source: (file, objects) => on.source?.({ file, objects }),
    verified: (objects, bytes) => on.verified?.({ objects, bytes }),
    finding: (line, json) => on.finding?.({ ...JSON.parse(json), line }),
    damage: (line, json) => on.damage?.({ ...JSON.parse(json), line }),
  };
  run.verify(files, sink, first, end);
}
