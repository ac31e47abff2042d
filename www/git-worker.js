// One WebAssembly instance of git-sha1dc's verifier (the package's git-core.mjs) for the page's
// repository checks (git.js). The dropped files stay Blobs, read in slices with FileReaderSync
// as the verifier asks for them (CachedFiles): a pack is never held whole. A worker has one of
// two roles:
//   verify: plans the command line and verifies its part of the work, posting each event as it
//           happens, then { kind: 'end' };
//   report: plans the same command line, adds up the events the page passes on from the
//           verifying workers and, on { kind: 'finish' }, answers with the run's summary line,
//           exit status and git-sha1dc's JSON document.
// A worker is ended by the page (Cancel), never asked to stop: the verification is one call.

import { initSync, MemoryFiles, RawGitRun, addEvent, readBlob, verifyPart } from './pkg/git-core.mjs';

let run = null;

/** Reads shorter than a block are served from blocks read whole. */
const BLOCK = 256 << 10;

/**
 * The dropped files (MemoryFiles) with a cache of the latest `cacheBytes` of 256 KiB blocks read:
 * each read of a Blob is a round trip to the browser's process that costs about a millisecond
 * whatever its size. The verifier reads a walk's entries ahead of it in large reads (`gather`
 * bytes of them at a time); the cache serves the small reads left (entries past that, bases
 * made again). Reads of a block or more go straight to the Blob.
 */
class CachedFiles extends MemoryFiles {
  #blobs;
  #blocks = new Map();
  #most;

  constructor(entries, cacheBytes) {
    super(entries);
    this.#blobs = new Map(entries.filter(([, data]) => data instanceof Blob));
    this.#most = Math.max(1, Math.floor(cacheBytes / BLOCK));
  }

  readAt(path, at, into) {
    const blob = this.#blobs.get(path);
    if (!blob || into.length >= BLOCK) return super.readAt(path, at, into);
    for (let done = 0; done < into.length; ) {
      const n = Math.floor((at + done) / BLOCK);
      const block = this.#block(path, blob, n);
      const from = at + done - n * BLOCK;
      const take = Math.min(into.length - done, block.length - from);
      if (!(take > 0)) throw 5; // EIO: past the end (the verifier asks only for bytes the file has)
      into.set(block.subarray(from, from + take), done);
      done += take;
    }
  }

  #block(path, blob, n) {
    const key = `${n}\0${path}`;
    let block = this.#blocks.get(key);
    if (block) {
      this.#blocks.delete(key); // most recently used last
    } else {
      block = readBlob(blob, n * BLOCK, (n + 1) * BLOCK);
      if (this.#blocks.size >= this.#most) this.#blocks.delete(this.#blocks.keys().next().value);
    }
    this.#blocks.set(key, block);
    return block;
  }
}

self.onmessage = ({ data }) => {
  try {
    if (data.kind === 'start') start(data);
    else if (data.kind === 'event') addEvent(run, data.event);
    else if (data.kind === 'finish') {
      self.postMessage({ kind: 'document', json: run.jsonDocument(), summary: run.summaryLine(), exitCode: run.exitCode() });
    }
  } catch (e) {
    self.postMessage({ kind: 'error', message: String((e && e.message) || e) });
  }
};

function start({ module, role, args, entries, part, parts, cacheBytes, gather }) {
  initSync({ module });
  run = new RawGitRun(args, '');
  const files = new CachedFiles(entries, role === 'report' ? 0 : cacheBytes);
  const notes = run.plan(files, '/', undefined, undefined);
  if (role === 'report') {
    self.postMessage({ kind: 'planned', notes: notes.split('\n').filter(Boolean), sources: run.sources });
    return;
  }
  verifyPart(run, files, (e) => self.postMessage(e), part, parts, gather);
  self.postMessage({ kind: 'end' });
}
