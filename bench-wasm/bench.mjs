// Throughput of sha1dc-wasm against its peers, measured in one Node process,
// interleaved: for each input size and each round, every implementation runs
// once (in an order that rotates between rounds) for about `--ms`
// milliseconds; the table gives each one's median over the rounds, and its
// ratio to sha1dc-wasm.
//
//   npm run bench                      # builds first (build.sh), then this
//   node bench.mjs [--rounds 7] [--ms 150] [--sizes 64,16384,1048576] [--json out.json] [--wall]
//
// Times are process CPU time (user + system), or wall time with --wall.
//
// Peers: the sha1dc 0.1.5 and sha1 0.11 (soft) crates compiled to wasm32
// with simd128 (wasm-peers/), hash-wasm's SHA-1 and node:crypto's SHA-1.
import { createHash, randomFillSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createSHA1 } from 'hash-wasm';
import { sha1dc, backend } from '../pkg/node.mjs';

const require = createRequire(import.meta.url);
const peers = require('./wasm-peers/pkg/sha1dc_wasm_bench_peers.js');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const rounds = Number(opt('rounds', 7));
const budgetMs = Number(opt('ms', 150));
const sizes = opt('sizes', '64,16384,1048576').split(',').map(Number);
const jsonOut = opt('json', null);

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const toHex = (bytes) => {
  let s = '';
  for (const b of bytes) s += HEX[b];
  return s;
};

const hashWasm = await createSHA1();

/** name -> data -> hex digest (of the plain SHA-1 for every peer). */
const impls = [
  ['sha1dc-wasm', (d) => sha1dc(d).hex],
  ['sha1dc crate (wasm)', (d) => toHex(peers.sha1dc_crate(d))],
  ['sha1 crate soft (wasm)', (d) => toHex(peers.sha1_crate(d))],
  ['hash-wasm sha1', (d) => hashWasm.init().update(d).digest('hex')],
  ['node:crypto sha1', (d) => createHash('sha1').update(d).digest('hex')],
];

// Every implementation must agree before any is timed.
for (const n of [0, 1, 55, 56, 64, 1000, 100_000]) {
  const d = randomFillSync(new Uint8Array(n));
  const want = createHash('sha1').update(d).digest('hex');
  for (const [name, f] of impls) {
    if (f(d) !== want) throw new Error(`${name} disagrees with node:crypto at ${n} bytes`);
  }
}

/** Process CPU time in ms (user + system): steadier than wall time on a shared machine. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
const clock = process.argv.includes('--wall') ? () => performance.now() : cpuMs;

/** Runs f(data) repeatedly for about `ms` of the clock; returns MB/s (10^6 bytes). */
function measure(f, data, ms) {
  // Calibrate the batch size so clock reads are a negligible part.
  let batch = 1;
  for (;;) {
    const t0 = clock();
    for (let i = 0; i < batch; i++) f(data);
    if (clock() - t0 > 5) break;
    batch *= 2;
  }
  let done = 0;
  const t0 = clock();
  let t1 = t0;
  while (t1 - t0 < ms) {
    for (let i = 0; i < batch; i++) f(data);
    done += batch;
    t1 = clock();
  }
  return (done * data.length) / ((t1 - t0) * 1e3);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const fmtSize = (n) => (n >= 1 << 20 ? `${n >> 20} MiB` : n >= 1024 ? `${n >> 10} KiB` : `${n} B`);

console.log(
  `sha1dc-wasm backend: ${backend()}; Node ${process.version}; ${rounds} rounds of ~${budgetMs} ms (${clock === cpuMs ? 'CPU' : 'wall'} time) per implementation and size, interleaved`,
);
const results = {};
for (const size of sizes) {
  const data = randomFillSync(new Uint8Array(size));
  // Warm up every implementation (JIT tiers, wasm tier-up).
  for (const [, f] of impls) measure(f, data, 50);
  const samples = new Map(impls.map(([name]) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < impls.length; k++) {
      const [name, f] = impls[(k + r) % impls.length];
      samples.get(name).push(measure(f, data, budgetMs));
    }
  }
  const ours = median(samples.get('sha1dc-wasm'));
  results[size] = {};
  console.log(`\n${fmtSize(size)}`);
  console.log(`  ${'implementation'.padEnd(24)} ${'MB/s (median)'.padStart(14)}  ${'min..max'.padStart(15)}  sha1dc-wasm vs it`);
  for (const [name] of impls) {
    const xs = samples.get(name);
    const m = median(xs);
    results[size][name] = { median: m, samples: xs };
    const range = `${Math.min(...xs).toFixed(0)}..${Math.max(...xs).toFixed(0)}`;
    console.log(
      `  ${name.padEnd(24)} ${m.toFixed(1).padStart(14)}  ${range.padStart(15)}  ${name === 'sha1dc-wasm' ? '' : `${(ours / m).toFixed(2)}x`}`,
    );
  }
}

const mib = results[1 << 20];
if (mib) {
  const ours = mib['sha1dc-wasm'].median;
  const vsDc = ours / mib['sha1dc crate (wasm)'].median;
  const vsSha1 = ours / mib['sha1 crate soft (wasm)'].median;
  console.log(
    `\nAt 1 MiB: ${vsDc.toFixed(2)}x the sha1dc crate, ${vsSha1.toFixed(2)}x the sha1 crate (both in wasm)`,
  );
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ node: process.version, rounds, budgetMs, results }, null, 2));
