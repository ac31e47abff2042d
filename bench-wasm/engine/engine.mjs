// The engine alone in wasm, ns per 64-byte block: one or more builds of
// bench-wasm/engine (before and after a change), each export timed in the
// same interleaved rounds, medians: CPU time in Node, wall-clock time in
// headless Chromium (--chromium, through ../node_modules/playwright-core,
// /usr/bin/chromium or CHROMIUM). Build with build.sh, then:
//   node engine.mjs [--chromium [--js-flags "..."]] [--rounds 11] [--blocks 2,16,256,16384] [--only a,b] [module.wasm ...]
// (the batch, many_1_block, many_2_blocks and many_64_blocks: per block of its messages, with --only)
import { readFileSync } from 'node:fs';
import { argv } from 'node:process';

const args = argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const flag = (name) => {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
const inChromium = flag('--chromium');
const jsFlags = opt('--js-flags', null);
const rounds = +opt('--rounds', 11);
const sizes = opt('--blocks', '2,16,256,16384').split(',').map(Number);
const only = opt('--only', '');
const files = args.length ? args : [new URL('./target/wasm32-unknown-unknown/release/sha1dc_wasm_bench_engine.wasm', import.meta.url)];
const modules = files.map((f) => readFileSync(f).toString('base64'));

/** Times every export of every module; self-contained, so that it runs in a page too. */
async function measure({ modules, rounds, sizes, only, cpu }) {
  const clock = cpu
    ? () => { const c = globalThis.process.cpuUsage(); return (c.user + c.system) / 1e3; }
    : () => performance.now();
  const fromBase64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  const runs = [];
  for (const [k, b64] of modules.entries()) {
    const { instance } = await WebAssembly.instantiate(fromBase64(b64));
    const x = instance.exports;
    const input = new Uint8Array(x.memory.buffer, x.input(), 1 << 20);
    let s = 0x9e3779b9;
    for (let i = 0; i < input.length; i++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      input[i] = s >>> 24;
    }
    // The batch's exports (many_*) only when asked for with --only.
    for (const name of ['sha1dc_wasm', 'sha1dc_wasm_portable', 'sha1dc_wasm_plain', 'sha1_crate', 'sha1dc_crate', 'many_1_block', 'many_2_blocks', 'many_64_blocks', 'many_64_blocks_plain']) {
      if (only ? !only.split(',').includes(name) : name.startsWith('many_')) continue;
      if (x[name] === undefined) continue;
      if (k > 0 && name.endsWith('_crate')) continue;
      runs.push({ label: modules.length > 1 ? `${name} [${k}]` : name, f: x[name] });
    }
  }
  const out = [];
  for (const n of sizes) {
    const times = runs.map(() => []);
    for (const { f } of runs) for (let i = 0; i < 3; i++) f(n);
    for (let r = 0; r < rounds; r++) {
      for (let j = 0; j < runs.length; j++) {
        const k = (j + r) % runs.length;
        const w0 = performance.now(), c0 = clock();
        let reps = 0;
        while (performance.now() - w0 < 100) { runs[k].f(n); reps++; }
        times[k].push(((clock() - c0) * 1e6) / reps / n);
      }
    }
    const med = times.map((t) => t.sort((a, b) => a - b)[t.length >> 1]);
    out.push(`\n${n} blocks (${n * 64} bytes)`);
    runs.forEach(({ label }, k) => out.push(`  ${label.padEnd(28)} ${med[k].toFixed(1).padStart(7)}  ${(med[0] / med[k]).toFixed(2)}x of the first`));
  }
  return out;
}

const job = { modules, rounds, sizes, only, cpu: !inChromium };
if (inChromium) {
  const { chromium } = await import('../node_modules/playwright-core/index.mjs');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run',
      ...(jsFlags ? [`--js-flags=${jsFlags}`] : [])],
  });
  try {
    const page = await browser.newPage();
    console.log(`ns per block (wall-clock time, median of ${rounds} interleaved rounds); Chromium ${browser.version()}`);
    const lines = await page.evaluate(`(${measure})(${JSON.stringify(job)})`);
    console.log(lines.join('\n'));
  } finally {
    await browser.close();
  }
} else {
  console.log(`ns per block (CPU time, median of ${rounds} interleaved rounds); Node ${process.version}`);
  console.log((await measure(job)).join('\n'));
}
