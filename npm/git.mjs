// sha1dc-wasm/git in Node: verifies git packs (with or without their .idx), bundles and
// repositories for SHA-1 collision attacks with git-sha1dc's verifier (gitverify, in
// WebAssembly), streaming what it finds, ending with git-sha1dc's summary line and JSON.
import { readFileSync } from 'node:fs';
import { argumentsOf, initSync, MemoryFiles, RawGitRun, verifyPlanned } from './git-core.mjs';
import { NodeFiles } from './git-files.mjs';

export { MemoryFiles, NodeFiles };

const VERSION = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version;

let loaded = false;
function load() {
  if (!loaded) {
    initSync({ module: readFileSync(new URL('./wasm/gitverify_bg.wasm', import.meta.url)) });
    loaded = true;
  }
}

/** The files and paths an input names: paths on disk, or a pack or bundle in memory. */
function filesOf(input) {
  if (typeof input === 'string') return { files: new NodeFiles(), paths: [input] };
  if (Array.isArray(input)) return { files: new NodeFiles(), paths: input.map(String) };
  if (input instanceof Uint8Array) input = { pack: input };
  const { pack, index, bundle } = input ?? {};
  if (pack instanceof Uint8Array) {
    const name = input.name ?? 'memory.pack';
    const entries = [[name, pack]];
    if (index instanceof Uint8Array) entries.push([name.replace(/(\.pack)?$/, '.idx'), index]);
    return { files: new MemoryFiles(entries), paths: [name] };
  }
  if (bundle instanceof Uint8Array) {
    const name = input.name ?? 'memory.bundle';
    return { files: new MemoryFiles([[name, bundle]]), paths: [name] };
  }
  throw new TypeError('sha1dc-wasm/git: verifyGit takes a path, paths, a Uint8Array pack, { pack, index? } or { bundle }');
}

/**
 * Verifies every object of `input` (see git.d.ts); resolves to the run's summary line, JSON
 * document and exit status, after calling the options' callbacks as things are found.
 */
export async function verifyGit(input, options = {}) {
  load();
  const { files, paths } = filesOf(input);
  const run = new RawGitRun(argumentsOf(paths, options), VERSION);
  try {
    const notes = run.plan(files, process.cwd(), undefined, undefined);
    const progress = { objects: 0, total: 0, bytes: 0 };
    const findings = [];
    const damage = [];
    verifyPlanned(run, files, {
      source: (s) => {
        progress.total += s.objects;
        options.onSource?.(s);
      },
      verified: (v) => {
        progress.objects += v.objects;
        progress.bytes += v.bytes;
        options.onProgress?.({ ...progress });
      },
      finding: (f) => {
        findings.push(f);
        options.onFinding?.(f);
      },
      damage: (d) => {
        damage.push(d);
        options.onDamage?.(d);
      },
    });
    const json = run.jsonDocument();
    return {
      exitCode: run.exitCode(),
      summary: run.summaryLine(),
      notes: notes.split('\n').filter(Boolean),
      json,
      report: JSON.parse(json),
    };
  } finally {
    run.free();
    files.close();
  }
}
