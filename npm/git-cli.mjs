#!/usr/bin/env node
// `npx -p sha1dc-wasm git-sha1dc [-j N] [--json] [--content] [--quiet] [PATH...]`: git-sha1dc
// run on this package: the Rust command's arguments, lines, JSON and exit statuses (its command
// line, the sources a path names and every line printed come from the same Rust code, in
// wasm/gitverify_bg.wasm); here the files are read (on -j N worker threads, as the Rust
// command's threads) and the lines written.
import { NodeFiles, newRun, planRun, RawGitRun, verifyRun } from './git.mjs';

const args = process.argv.slice(2);
const run = newRun(args);
if (run.endsWith !== undefined) {
  (run.endsWith === 0 ? process.stdout : process.stderr).write(run.endText);
  process.exitCode = run.endsWith;
} else {
  const { json, quiet, jobs } = run;
  const files = new NodeFiles();
  const env = (name) => process.env[name] || undefined;
  const where = { gitDir: env('GIT_DIR'), objectDirectory: env('GIT_OBJECT_DIRECTORY') };
  const notes = planRun(run, files, where);
  if (!json) process.stderr.write(notes);
  await verifyRun(run, args, {
    ...where,
    files,
    jobs,
    on: (e) => {
      if (json) return;
      if (e.kind === 'finding') process.stdout.write(`${e.line}\n`);
      else if (e.kind === 'damage') process.stderr.write(`git-sha1dc: ${e.line}\n`);
    },
  });
  files.close();
  if (json) {
    process.stdout.write(`${run.jsonDocument()}\n`);
  } else if (!quiet) {
    process.stderr.write(`git-sha1dc: ${run.summaryLine()}\n`);
    if (run.findings > 0) process.stderr.write(`git-sha1dc: ${RawGitRun.findObjectHint()}\n`);
  }
  process.exitCode = run.exitCode();
}
