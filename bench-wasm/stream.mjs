// hashStream on one large file in Node, one worker and two, against hash-wasm's plain SHA-1
// (which detects nothing) and node:crypto fed the same stream: interleaved rounds (the order
// rotates), medians of wall-clock throughput, with each run's CPU time beside it.
//
//   node stream.mjs [--mib 1024] [--rounds 5] [--file PATH] [--chunk 1048576] [--pkg DIR ...] [--json out.json]
//
// The file (random bytes, written once to the system's temporary folder unless --file names
// one) is read ahead once so that every run reads it from the page cache. Each --pkg DIR (a
// built package, like ../pkg, the default) adds its hashStream: to compare builds, name two.
import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream, existsSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSHA1 } from 'hash-wasm';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const all = (name) => args.flatMap((a, i) => (a === `--${name}` ? [args[i + 1]] : []));
const mib = Number(opt('mib', 1024));
const rounds = Number(opt('rounds', 5));
const chunk = Number(opt('chunk', 1 << 20));
const jsonOut = opt('json', null);
const file = opt('file', join(tmpdir(), `sha1dc-bench-${mib}MiB.bin`));
const pkgs = all('pkg').length ? all('pkg') : [new URL('../pkg', import.meta.url).pathname];

if (!existsSync(file) || statSync(file).size !== mib << 20) {
  const handle = await open(file, 'w');
  const block = new Uint8Array(16 << 20);
  for (let done = 0; done < mib << 20; done += block.length) await handle.write(randomFillSync(block));
  await handle.close();
}
const size = statSync(file).size;
const stream = () => createReadStream(file, { highWaterMark: chunk });

const hashWasm = await createSHA1();
const impls = [
  [
    'hash-wasm sha1 (plain)',
    async () => {
      hashWasm.init();
      for await (const c of stream()) hashWasm.update(c);
      return hashWasm.digest('hex');
    },
  ],
  [
    'node:crypto sha1 (plain)',
    async () => {
      const h = createHash('sha1');
      for await (const c of stream()) h.update(c);
      return h.digest('hex');
    },
  ],
];
for (const [i, dir] of pkgs.entries()) {
  const { hashStream } = await import(pathToFileURL(join(resolve(dir), 'node.mjs')).href);
  const tag = pkgs.length > 1 ? ` [${i}: ${dir}]` : '';
  impls.push([`hashStream, one worker${tag}`, async () => (await hashStream(stream(), { worker: false })).sha1]);
  impls.push([`hashStream, two workers${tag}`, async () => (await hashStream(stream(), { worker: true })).sha1]);
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
// Read ahead into the page cache, and every implementation must agree.
const want = await impls[1][1]();
for (const [name, f] of impls) {
  const got = await f();
  if (got !== want) throw new Error(`${name} gives ${got}, node:crypto ${want}`);
}

const samples = new Map(impls.map(([name]) => [name, []]));
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < impls.length; k++) {
    const [name, f] = impls[(k + r) % impls.length];
    const t0 = performance.now();
    const c0 = cpuMs();
    await f();
    const ms = performance.now() - t0;
    samples.get(name).push({ mibs: size / 2 ** 20 / (ms / 1000), cpu: (cpuMs() - c0) / ms });
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const base = median(samples.get('hash-wasm sha1 (plain)').map((s) => s.mibs));
console.log(`${size >> 20} MiB from the page cache in ${chunk >> 10} KiB chunks; Node ${process.version}; ${rounds} rounds, interleaved; wall clock, CPU time as cores busy`);
console.log(`  ${'implementation'.padEnd(34)} ${'MiB/s'.padStart(7)}  ${'min..max'.padStart(9)}  ${'cores'.padStart(5)}  vs hash-wasm`);
const results = {};
for (const [name] of impls) {
  const xs = samples.get(name);
  const m = median(xs.map((s) => s.mibs));
  results[name] = { median_mib_s: m, samples: xs };
  const range = `${Math.min(...xs.map((s) => s.mibs)).toFixed(0)}..${Math.max(...xs.map((s) => s.mibs)).toFixed(0)}`;
  console.log(`  ${name.padEnd(34)} ${m.toFixed(0).padStart(7)}  ${range.padStart(9)}  ${median(xs.map((s) => s.cpu)).toFixed(2).padStart(5)}  ${(m / base).toFixed(2)}x`);
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ node: process.version, size, chunk, rounds, results }, null, 2));
