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
import { createHash, randomFillSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
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

/**
 * Runs f(data) repeatedly for about `ms` of the clock; returns MB/s (10^6 bytes), counting
 * `bytes` per call (the data's length unless given).
 */
function measure(f, data, ms, bytes = data.length) {
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
  return (done * bytes) / ((t1 - t0) * 1e3);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const fmtSize = (n) => (n >= 1 << 20 ? `${n >> 20} MiB` : n >= 1024 ? `${n >> 10} KiB` : `${n} B`);

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
// The batch sets: many messages of one size, from a fixed seed.
/** `count` messages of `size` bytes each, from a fixed-seed xorshift32 generator. */
function messagesOf(count, size, seed) {
  let x = seed;
  return Array.from({ length: count }, () => {
    const m = new Uint8Array(size);
    for (let i = 0; i < size; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      m[i] = x & 0xff;
    }
    return m;
  });
}

const batchImpls = [
  ['sha1dcMany', (ms) => sha1dcMany(ms).map((r) => r.hex)],
  ['sha1dc per message', (ms) => ms.map((m) => sha1dc(m).hex)],
  ['hash-wasm sha1 per message', (ms) => ms.map((m) => hashWasm.init().update(m).digest('hex'))],
  ['node:crypto sha1 per message', (ms) => ms.map((m) => createHash('sha1').update(m).digest('hex'))],
];
const batches = {};
if (batchCount > 0) {
  for (const [size, seed] of [[4096, 0x5eed4096], [64, 0x5eed0064]]) {
    const messages = messagesOf(batchCount, size, seed);
    const want = messages.map((m) => createHash('sha1').update(m).digest('hex'));
    for (const [name, f] of batchImpls) {
      const got = f(messages);
      if (got.length !== want.length || got.some((h, i) => h !== want[i])) throw new Error(`${name} disagrees with node:crypto on the ${size} B set`);
    }
    const bytes = batchCount * size;
    for (const [, f] of batchImpls) measure(f, messages, 50, bytes);
    const samples = new Map(batchImpls.map(([name]) => [name, []]));
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < batchImpls.length; k++) {
        const [name, f] = batchImpls[(k + r) % batchImpls.length];
        samples.get(name).push(measure(f, messages, budgetMs, bytes));
      }
    }
    const many = median(samples.get('sha1dcMany'));
    const set = `${batchCount} x ${fmtSize(size)}`;
    batches[set] = {};
    console.log(`\nbatch: ${set} (one sha1dcMany call per set)`);
    console.log(`  ${'implementation'.padEnd(28)} ${'MB/s (median)'.padStart(14)}  ${'min..max'.padStart(15)}  sha1dcMany vs it`);
    for (const [name] of batchImpls) {
      const xs = samples.get(name);
      const m = median(xs);
      batches[set][name] = { median: m, samples: xs };
      const range = `${Math.min(...xs).toFixed(0)}..${Math.max(...xs).toFixed(0)}`;
      console.log(`  ${name.padEnd(28)} ${m.toFixed(1).padStart(14)}  ${range.padStart(15)}  ${name === 'sha1dcMany' ? '' : `${(many / m).toFixed(2)}x`}`);
    }
  }
}

if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ node: process.version, rounds, budgetMs, results, batches }, null, 2));
