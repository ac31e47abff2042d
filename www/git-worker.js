// One WebAssembly instance of git-sha1dc's verifier (the package's git-core.mjs) for the page's
// repository checks (git.js). The dropped files stay Blobs, read in slices with FileReaderSync
// as the verifier asks for them: a pack is never held whole. A worker has one of two roles:
//   verify: plans the command line and verifies its part of the work, posting each event as it
//           happens, then { kind: 'end' };
//   report: plans the same command line, adds up the events the page passes on from the
//           verifying workers and, on { kind: 'finish' }, answers with the run's summary line,
//           exit status and git-sha1dc's JSON document.
// A worker is ended by the page (Cancel), never asked to stop: the verification is one call.

import { initSync, MemoryFiles, RawGitRun, addEvent, verifyPart } from './pkg/git-core.mjs';

let run = null;

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

function start({ module, role, args, entries, part, parts }) {
  initSync({ module });
  run = new RawGitRun(args, '');
  const files = new MemoryFiles(entries);
  const notes = run.plan(files, '/', undefined, undefined);
  if (role === 'report') {
    self.postMessage({ kind: 'planned', notes: notes.split('\n').filter(Boolean), sources: run.sources });
    return;
  }
  verifyPart(run, files, (e) => self.postMessage(e), part, parts);
  self.postMessage({ kind: 'end' });
}
