// The engine alone in wasm, ns per 64-byte block: one or more builds of
// bench-wasm/engine (before and after a change), each export timed in the
// same interleaved rounds, CPU time, medians. Build with build.sh, then:
//   node engine.mjs [--rounds 11] [--blocks 2,16,256,16384] [--only a,b] [module.wasm ...]
import { readFileSync } from 'node:fs';
import { cpuUsage, hrtime, argv } from 'node:process';

const args = argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const rounds = +opt('--rounds', 11);
const sizes = opt('--blocks', '2,16,256,16384').split(',').map(Number);
const only = opt('--only', '');
const files = args.length ? args : [new URL('./target/wasm32-unknown-unknown/release/sha1dc_wasm_bench_engine.wasm', import.meta.url)];

const runs = [];
for (const [k, file] of files.entries()) {
  const { instance } = await WebAssembly.instantiate(readFileSync(file));
  const x = instance.exports;
  const input = new Uint8Array(x.memory.buffer, x.input(), 1 << 20);
  let s = 0x9e3779b9;
  for (let i = 0; i < input.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    input[i] = s >>> 24;
  }
  for (const name of ['sha1dc_wasm', 'sha1dc_wasm_portable', 'sha1dc_wasm_plain', 'sha1_crate', 'sha1dc_crate']) {
    if (only && !only.split(',').includes(name)) continue;
    if (k > 0 && name.endsWith('_crate')) continue;
    runs.push({ label: files.length > 1 ? `${name} [${k}]` : name, f: x[name] });
  }
}

console.log(`ns per block (CPU time, median of ${rounds} interleaved rounds); Node ${process.version}`);
for (const n of sizes) {
  const times = runs.map(() => []);
  for (const { f } of runs) for (let i = 0; i < 3; i++) f(n);
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < runs.length; j++) {
      const k = (j + r) % runs.length;
      const t0 = hrtime.bigint(), c0 = cpuUsage();
      let reps = 0;
      while (Number(hrtime.bigint() - t0) < 100e6) { runs[k].f(n); reps++; }
      const c = cpuUsage(c0);
      times[k].push(((c.user + c.system) * 1e3) / reps / n);
    }
  }
  const med = times.map((t) => t.sort((a, b) => a - b)[t.length >> 1]);
  console.log(`\n${n} blocks (${n * 64} bytes)`);
  runs.forEach(({ label }, k) => console.log(`  ${label.padEnd(28)} ${med[k].toFixed(1).padStart(7)}  ${(med[0] / med[k]).toFixed(2)}x of the first`));
}
