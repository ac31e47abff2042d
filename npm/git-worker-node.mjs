// One part of a verification on a Node worker thread, on an instance of its own (the module
// compiled once, by the thread that starts the workers): it plans the same command line and
// posts each event of its part as it happens (git.mjs adds them up).
import { parentPort, workerData } from 'node:worker_threads';
import { initSync, RawGitRun, verifyPart } from './git-core.mjs';
import { NodeFiles } from './git-files.mjs';

const { module, args, version, cwd, gitDir, objectDirectory, part, parts, gather } = workerData;
initSync({ module });
const run = new RawGitRun(args, version);
const files = new NodeFiles();
try {
  run.plan(files, cwd, gitDir, objectDirectory);
  verifyPart(run, files, (e) => parentPort.postMessage(e), part, parts, gather);
} finally {
  files.close();
  run.free();
}
parentPort.postMessage({ kind: 'end' });
