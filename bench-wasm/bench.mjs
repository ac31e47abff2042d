// Throughput of sha1dc-wasm against its peers, measured in one Node process,
// interleaved: for each input size and each round, every implementation runs
// once (in an order that rotates between rounds) for about `--ms`
// milliseconds; the table gives each one's median over the rounds, and its
// ratio to sha1dc-wasm.
//
//   npm run bench                      # builds first (build.sh), then this
//   node bench.mjs [--rounds 7] [--ms 150] [--sizes 64,16384,1048576] [--batch 2000] [--json out.json] [--wall]
//
// Times are process CPU time (user + system), or wall time with --wall.
//
// Then the batch sets: --batch messages (default 2,000; 0 skips them) of 4 KiB, and as many of
// 64 B, from a fixed seed, hashed in the same interleaved rounds by sha1dcMany (one call for
// the set), by sha1dc per message, by hash-wasm's plain SHA-1 per message and by node:crypto
// per message; the ratios are sha1dcMany's median over each one's.
//
// Peers: the sha1dc 0.1.5 and sha1 0.11 (soft) crates compiled to wasm32
// with simd128 (wasm-peers/), hash-wasm's SHA-1 and node:crypto's SHA-1.
// chromium.mjs runs the same rounds (rounds.mjs) in headless Chromium.
import { createHash, randomFillSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { run, toHex } from './rounds.mjs';
import { createSHA1 } from 'hash-wasm';
import { sha1dc, sha1dcMany, backend } from '../pkg/node.mjs';

const require = createRequire(import.meta.url);
const peers = require('./wasm-peers/pkg/sha1dc_wasm_bench_peers.js');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const rounds = Number(opt('rounds', 7));
const budgetMs = Number(opt('ms', 150));
const sizes = opt('sizes', '64,16384,1048576').split(',').filter(Boolean).map(Number);
const batchCount = Number(opt('batch', 2000));
const jsonOut = opt('json', null);

const hashWasm = await createSHA1();

/** name -> data -> hex digest (of the plain SHA-1 for every peer). */
const impls = [
  ['sha1dc-wasm', (d) => sha1dc(d).hex],
  ['sha1dc crate (wasm)', (d) => toHex(peers.sha1dc_crate(d))],
  ['sha1 crate soft (wasm)', (d) => toHex(peers.sha1_crate(d))],
  ['hash-wasm sha1', (d) => hashWasm.init().update(d).digest('hex')],
  ['node:crypto sha1', (d) => createHash('sha1').update(d).digest('hex')],
];
const batchImpls = [
  ['sha1dcMany', (ms) => sha1dcMany(ms).map((r) => r.hex)],
  ['sha1dc per message', (ms) => ms.map((m) => sha1dc(m).hex)],
  ['hash-wasm sha1 per message', (ms) => ms.map((m) => hashWasm.init().update(m).digest('hex'))],
  ['node:crypto sha1 per message', (ms) => ms.map((m) => createHash('sha1').update(m).digest('hex'))],
];

/** Process CPU time in ms (user + system): steadier than wall time on a shared machine. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
const clock = process.argv.includes('--wall') ? () => performance.now() : cpuMs;

const cpuinfo = (() => {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return '';
  }
})();
const cpuField = (key) => cpuinfo.match(new RegExp(`^${key}\\s*: (.*)$`, 'm'))?.[1] ?? '?';
console.log(
  `CPU: ${cpuField('vendor_id')} family ${cpuField('cpu family')} model ${cpuField('model')} (${cpuField('model name')})`,
);
console.log(
  `sha1dc-wasm backend: ${backend()}; Node ${process.version}; ${rounds} rounds of ~${budgetMs} ms (${clock === cpuMs ? 'CPU' : 'wall'} time) per implementation and size, interleaved`,
);
const { results, batches } = run({
  impls,
  batchImpls,
  sizes,
  batchCount,
  rounds,
  ms: budgetMs,
  clock,
  log: (line) => console.log(line),
  random: (n) => randomFillSync(new Uint8Array(n)),
  want: (d) => createHash('sha1').update(d).digest('hex'),
});

const mib = results[1 << 20];
if (mib) {
  const ours = mib['sha1dc-wasm'].median;
  const vsDc = ours / mib['sha1dc crate (wasm)'].median;
  const vsSha1 = ours / mib['sha1 crate soft (wasm)'].median;
  console.log(
    `\nAt 1 MiB: ${vsDc.toFixed(2)}x the sha1dc crate, ${vsSha1.toFixed(2)}x the sha1 crate (both in wasm)`,
  );
}

if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ node: process.version, rounds, budgetMs, results, batches }, null, 2));
