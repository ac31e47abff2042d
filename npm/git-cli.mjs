#!/usr/bin/env node
// `npx -p sha1dc-wasm git-sha1dc [-j N] [--json] [--content] [--quiet] [PATH...]`: git-sha1dc
// run on this package: the Rust command's arguments, lines, JSON and exit statuses (its command
// line, the sources a path names and every line printed come from the same Rust code, in
// wasm/gitverify_bg.wasm); here the files are read and the lines written.
import { readFileSync } from 'node:fs';
import { initSync, RawGitRun, verifyPlanned } from './git-core.mjs';
import { NodeFiles } from './git-files.mjs';

const VERSION = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version;
initSync({ module: readFileSync(new URL('./wasm/gitverify_bg.wasm', import.meta.url)) });

const run = new RawGitRun(process.argv.slice(2), VERSION);
if (run.endsWith !== undefined) {
  (run.endsWith === 0 ? process.stdout : process.stderr).write(run.endText);
  process.exitCode = run.endsWith;
} else {
  // Read before verifying: the run is busy (borrowed) while it verifies.
  const { json, quiet } = run;
  const files = new NodeFiles();
  const env = (name) => process.env[name] || undefined;
  const notes = run.plan(files, process.cwd(), env('GIT_DIR'), env('GIT_OBJECT_DIRECTORY'));
  const out = [];
  const flush = () => {
    if (out.length) process.stdout.write(out.splice(0).join(''));
  };
  if (!json) process.stderr.write(notes);
  verifyPlanned(run, files, {
    finding: (f) => {
      if (!json) out.push(`${f.line}\n`);
    },
    damage: (d) => {
      if (!json) process.stderr.write(`git-sha1dc: ${d.line}\n`);
    },
  });
  files.close();
  if (json) {
    out.push(`${run.jsonDocument()}\n`);
  } else if (!quiet) {
    flush();
    process.stderr.write(`git-sha1dc: ${run.summaryLine()}\n`);
    if (run.findings > 0) process.stderr.write(`git-sha1dc: ${RawGitRun.findObjectHint()}\n`);
  }
  flush();
  process.exitCode = run.exitCode();
}
