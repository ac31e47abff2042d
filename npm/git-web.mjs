// sha1dc-wasm/git where there is no Node (browsers, workers, Deno, Bun's browser builds): the
// pieces of git-core.mjs, and verifyGit on one WebAssembly instance on the calling thread, over
// a pack, an index, a bundle, a dropped folder's Files or a directory handle. In a worker, Blobs
// and Files are read in slices as the verifier asks for them; on a page's main thread they are
// read whole first (a page checking a large repository runs this in a worker).
import { argumentsOf, init, listenerOf, memoryInput, RawGitRun, resultOf, verifyPart } from './git-core.mjs';

export * from './git-core.mjs';

/**
 * Verifies every object of `input` (see git.d.ts); resolves to the run's summary line, JSON
 * document and exit status, after calling the options' callbacks as things are found.
 */
export async function verifyGit(input, options = {}) {
  const found = await memoryInput(input);
  if (!found) {
    throw new TypeError('sha1dc-wasm/git: verifyGit takes a pack (Uint8Array or Blob), { pack, index? }, { bundle }, a folder\'s Files or a directory handle');
  }
  await init();
  const run = new RawGitRun(argumentsOf(found.paths, options), '');
  try {
    const notes = run.plan(found.files, '/', undefined, undefined);
    verifyPart(run, found.files, listenerOf(options), 0, 1, found.readAhead);
    return resultOf(run, notes);
  } finally {
    run.free();
  }
}
